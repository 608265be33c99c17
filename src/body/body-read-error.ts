/**
 * The error {@link readBody} throws when a body cannot be read as the request framed it.
 *
 * @module
 */

/**
 * Why a body could not be read:
 * - `content-length`: the `Content-Length` field is not one valid decimal number (negative,
 *   non-numeric, `+`-prefixed, a comma list, …; RFC 9110 §8.6);
 * - `content-length-mismatch`: the body has more or fewer bytes than `Content-Length` says;
 * - `body-used`: the body was already read or locked by other code;
 * - `body-read`: the stream failed while being read, or yielded something other than bytes, or
 *   (on Node) the connection is closing after an earlier request left its body unread;
 * - `body-deadline`: the body had not ended when the reader's deadline passed (`deadlineMs`).
 */
export type BodyReadErrorCode =
  | "content-length"
  | "content-length-mismatch"
  | "body-used"
  | "body-read"
  | "body-deadline";

/**
 * A request body could not be read as framed. The act is rejected: a body whose framing is
 * doubtful is never passed on (S1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-8.6
 * @see https://www.rfc-editor.org/rfc/rfc9112#section-6.3
 */
export class BodyReadError extends Error {
  /** What went wrong; also the rejection code an address reports to `onReject`. */
  readonly code: BodyReadErrorCode;

  constructor(code: BodyReadErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BodyReadError";
    this.code = code;
  }
}
