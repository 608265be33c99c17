/**
 * The error {@link readBody} throws when a request body is larger than the address allows.
 *
 * @module
 */

/**
 * A request body exceeded `maxBytes` (draft: Verification, req. 1; V1). The name follows the
 * status RFC 9110 gives the condition, 413 Content Too Large, although an address answers it
 * with 204 like every other rejected act (R2).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.5.14
 */
export class ContentTooLargeError extends Error {
  /** Always `"content-too-large"`: the rejection code an address reports to `onReject`. */
  readonly code = "content-too-large";
  /** The limit in bytes. */
  readonly maxBytes: number;
  /**
   * Bytes actually read before the reader gave up, in bytes; 0 when a valid `Content-Length`
   * above the limit rejected the body before any byte was read.
   */
  readonly receivedBytes: number;
  /** The request's `Content-Length` in bytes, or `null` when it had none. */
  readonly declaredBytes: number | null;

  constructor(maxBytes: number, receivedBytes: number, declaredBytes: number | null) {
    super(
      declaredBytes !== null && receivedBytes === 0
        ? `Content-Length ${declaredBytes} exceeds the limit of ${maxBytes} bytes`
        : `body exceeds the limit of ${maxBytes} bytes (${receivedBytes} bytes read)`,
    );
    this.name = "ContentTooLargeError";
    this.maxBytes = maxBytes;
    this.receivedBytes = receivedBytes;
    this.declaredBytes = declaredBytes;
  }
}
