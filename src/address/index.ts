/**
 * The address: `address()` and the types around it.
 *
 * @module
 */
export {
  address,
  DEFAULT_CACHE_CONTROL,
  DEFAULT_MAX_BYTES,
  type ActContext,
  type AddressOptions,
} from "./address.ts";
export type { CompiledForm } from "./form.ts";
export type { Rejection, RejectionCode } from "./rejection.ts";
