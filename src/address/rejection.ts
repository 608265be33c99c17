/**
 * Rejected acts: what an address reports to its own logs (`onReject`), never to the actor (R2).
 *
 * @module
 */
import type { BodyReadErrorCode } from "../body/body-read-error.ts";
import type { JsonSyntaxErrorCode } from "../json/json-syntax-error.ts";

/**
 * Why an act was rejected, by stage:
 * - `content-encoding`: the body has a `Content-Encoding` other than `identity` (DESIGN.md §6);
 * - `transfer-encoding`: the request names a transfer coding other than `chunked` that the
 *   runtime passed on undecoded (RFC 9112 §6.1);
 * - `content-too-large`: more than `maxBytes` bytes (V1);
 * - `content-length`, `content-length-mismatch`, `body-used`, `body-read`: the body could not
 *   be read as framed (see `BodyReadError`);
 * - `json-syntax:<code>`: the strict parser rejected the bytes, `<code>` being the
 *   `JsonSyntaxError` code (`json-syntax:duplicate-name`, `json-syntax:trailing-bytes`, …; V2);
 * - `schema`: the value does not validate against the form (V3).
 */
export type RejectionCode =
  | "content-encoding"
  | "transfer-encoding"
  | "content-too-large"
  | BodyReadErrorCode
  | `json-syntax:${JsonSyntaxErrorCode}`
  | "schema";

/** One rejected act, as handed to `onReject`. */
export interface Rejection {
  /** The stage and reason, stable and safe to count in metrics. */
  readonly code: RejectionCode;
  /**
   * Details for logs: an error message, or for `schema` the JSON Pointer into the form of the
   * keyword that failed (`form.lastFailure()`). Never sent to the actor unless `development` is on.
   */
  readonly reason: string;
  /** The request that carried the act; its body has been consumed. */
  readonly request: Request;
}

/**
 * The status a development-mode problem report (X3) names for each stage. The wire answer of
 * a public address is always 204, whatever the code.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.5
 */
export function problemStatus(code: RejectionCode): { status: number; title: string } {
  if (code === "content-too-large") return { status: 413, title: "Content Too Large" };
  if (code === "content-encoding" || code === "transfer-encoding")
    return { status: 415, title: "Unsupported Media Type" };
  if (code === "schema") return { status: 422, title: "Unprocessable Content" };
  return { status: 400, title: "Bad Request" };
}
