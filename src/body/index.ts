/**
 * The body reader: `readBody` and its errors.
 *
 * @module
 */

export { BodyReadError, type BodyReadErrorCode } from "./body-read-error.ts";
export { ContentTooLargeError } from "./content-too-large-error.ts";
export { type NodeMessage, nodeMessageOf } from "./node-message.ts";
export { DEFAULT_BODY_DEADLINE_MS, type HeadLimit, type ReadBodyOptions, readBody } from "./read-body.ts";
export { framedByRuntime, runtimeFetch } from "./runtime-framed.ts";
