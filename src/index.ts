/**
 * gpt-address: the runtime entry. Web-standard `Request`/`Response` only, no Node API.
 *
 * @module
 */
export type { CompiledForm } from "./address/form.ts";
