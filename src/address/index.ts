/**
 * The address: `address()` and the types around it.
 *
 * @module
 */
export {
  type ActContext,
  type AddressOptions,
  address,
  DEFAULT_CACHE_CONTROL,
  DEFAULT_MAX_BYTES,
} from "./address.ts";
export type { CompiledForm } from "./form.ts";
export type { Rejection, RejectionCode } from "./rejection.ts";
