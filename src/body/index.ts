/**
 * The body reader: `readBody` and its errors.
 *
 * @module
 */
export { readBody, type ReadBodyOptions } from "./read-body.ts";
export { ContentTooLargeError } from "./content-too-large-error.ts";
export { BodyReadError, type BodyReadErrorCode } from "./body-read-error.ts";
