/**
 * The streaming body reader: the first stage of every act (draft: Verification, req. 1).
 *
 * @module
 */
import { BodyReadError } from "./body-read-error.ts";
import { ContentTooLargeError } from "./content-too-large-error.ts";

/** Options of {@link readBody}. */
export interface ReadBodyOptions {
  /** The largest body accepted, in bytes (a non-negative safe integer). */
  readonly maxBytes: number;
  /**
   * The time the whole body may take to arrive, in milliseconds from the call, a positive
   * number (`Infinity`: no deadline). Default {@link DEFAULT_BODY_DEADLINE_MS}. A body still
   * arriving then is cancelled and rejected: a client sending one byte a second cannot hold
   * the request open, and one that vanished without the runtime noticing leaves nothing pending.
   */
  readonly deadlineMs?: number;
}

/**
 * The default body deadline: 5 seconds (5,000 ms), time for 1 MiB at about 1.7 Mbit/s; actors
 * are programs that send a whole value at once.
 */
export const DEFAULT_BODY_DEADLINE_MS = 5_000;

/** `Content-Length = 1*DIGIT` (RFC 9110 §8.6); `Headers` has already trimmed surrounding OWS. */
const DECIMAL = /^[0-9]+$/;

/**
 * Reads a request body into bytes, never more than `maxBytes` of them.
 *
 * The bytes actually read decide, never the headers alone: `Content-Length` can only reject
 * early. A valid decimal `Content-Length` above the limit rejects before any byte is read. Any
 * other `Content-Length` (negative, non-numeric, `+`-prefixed, a comma list of duplicates) is
 * invalid framing and rejects the body (RFC 9112 §6.3). A valid one that disagrees with the
 * bytes that arrive rejects it too. Without `Content-Length`, bytes are counted as they arrive
 * and the stream is cancelled the moment the count passes the limit, so a rejected body never
 * holds more than `maxBytes` plus one chunk in memory. Exactly `maxBytes` bytes are accepted.
 * A body that has not ended `deadlineMs` after the call is cancelled and rejected; none of its
 * bytes are returned (an incomplete message is no act, RFC 9112 §8).
 *
 * @param request - the request whose body is read; its body is consumed (or cancelled).
 * @param options - {@link ReadBodyOptions}.
 * @returns the body's bytes; an empty array when there is no body.
 * @throws {ContentTooLargeError} when the body (or its valid `Content-Length`) exceeds `maxBytes`.
 * @throws {BodyReadError} when `Content-Length` is invalid or wrong, the body was already used,
 *   the stream fails or yields anything but bytes, or the deadline passes (`body-deadline`).
 * @throws {RangeError} when `maxBytes` is not a non-negative safe integer, or `deadlineMs` not a
 *   positive number (programming errors).
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-8.6
 * @example
 * ```ts
 * const bytes = await readBody(request, { maxBytes: 1 << 20 });
 * ```
 */
export async function readBody(request: Request, options: ReadBodyOptions): Promise<Uint8Array> {
  const { maxBytes, deadlineMs = DEFAULT_BODY_DEADLINE_MS } = options;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`maxBytes must be a non-negative safe integer, got ${maxBytes}`);
  }
  if (!(deadlineMs > 0)) throw new RangeError(`deadlineMs must be a positive number, got ${deadlineMs}`);
  const body = request.body;

  // The header can reject early; it can never accept.
  const field = request.headers.get("content-length");
  let declared: number | null = null;
  if (field !== null) {
    if (!DECIMAL.test(field)) {
      const error = new BodyReadError("content-length", `invalid Content-Length: ${JSON.stringify(field)}`);
      discard(body, error);
      throw error;
    }
    declared = Number(field);
    if (declared > maxBytes) {
      const error = new ContentTooLargeError(maxBytes, 0, declared);
      discard(body, error);
      throw error;
    }
  }

  if (body === null) {
    if (declared !== null && declared !== 0) throw mismatch(declared, 0);
    return new Uint8Array(0);
  }
  if (request.bodyUsed || body.locked) {
    throw new BodyReadError("body-used", "the request body was already read or is locked");
  }

  // A valid Content-Length at or below maxBytes is the tighter limit; more bytes than it
  // declared are wrong framing whatever maxBytes allows.
  const limit = declared ?? maxBytes;
  const reader = body.getReader();
  // The bytes so far: the first chunk as it came (a one-chunk body is never copied); from the
  // second chunk on, one buffer they are copied into, grown by doubling. Keeping each chunk
  // instead would hold one object per chunk: a body sent as 10⁶ one-byte HTTP chunks cost
  // about 180 MB of heap that way.
  let first: Uint8Array | null = null;
  let buffer: Uint8Array | null = null;
  let received = 0;
  // At the deadline the stream is cancelled, which settles a pending read at once (done), and
  // the flag turns that end into a rejection. One timer per body, cleared however it ends.
  let late: BodyReadError | null = null;
  const timer =
    deadlineMs > MAX_TIMER_MS
      ? undefined
      : setTimeout(() => {
          late = new BodyReadError("body-deadline", `the body did not arrive within ${deadlineMs} ms`);
          cancel(reader, late);
        }, deadlineMs);
  try {
    for (;;) {
      let result: ReadableStreamReadResult<unknown>;
      try {
        result = await reader.read();
      } catch (cause) {
        if (late !== null) throw late;
        throw new BodyReadError("body-read", "the request body stream failed", { cause });
      }
      if (late !== null) throw late;
      if (result.done) break;
      const chunk = result.value;
      // A tag check rather than instanceof: the stream may come from another realm.
      if (Object.prototype.toString.call(chunk) !== "[object Uint8Array]") {
        const error = new BodyReadError("body-read", "the request body stream yielded a non-byte chunk");
        cancel(reader, error);
        throw error;
      }
      const bytes = chunk as Uint8Array;
      received += bytes.byteLength;
      if (received > limit) {
        const error =
          declared === null ? new ContentTooLargeError(maxBytes, received, null) : mismatch(declared, received);
        cancel(reader, error);
        throw error;
      }
      if (bytes.byteLength === 0) continue;
      if (first === null && buffer === null) {
        first = bytes;
        continue;
      }
      let target: Uint8Array;
      if (buffer === null) {
        // With Content-Length the size is known; else start small and double, never past the limit.
        target = new Uint8Array(Math.max(received, declared ?? Math.min(Math.max(2 * received, MIN_BUFFER), limit)));
        target.set(first!);
        first = null;
      } else if (received > buffer.byteLength) {
        target = new Uint8Array(Math.max(received, Math.min(2 * buffer.byteLength, limit)));
        target.set(buffer.subarray(0, received - bytes.byteLength));
      } else {
        target = buffer;
      }
      target.set(bytes, received - bytes.byteLength);
      buffer = target;
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  if (declared !== null && received !== declared) throw mismatch(declared, received);
  if (buffer !== null) return buffer.subarray(0, received);
  return first ?? new Uint8Array(0);
}

/** The longest delay timers take (2³¹ − 1 ms, about 24.8 days); a longer deadline is none. */
const MAX_TIMER_MS = 2_147_483_647;

/** The first size of the buffer a body of several chunks is copied into, in bytes. */
const MIN_BUFFER = 16_384;

function mismatch(declared: number, received: number): BodyReadError {
  return new BodyReadError(
    "content-length-mismatch",
    `Content-Length ${declared} disagrees with the body (${received}${received > declared ? " or more" : ""} bytes)`,
  );
}

/**
 * Cancels the stream at once: no further chunk is pulled from the source. The cancellation is
 * not awaited: a source's cancel may never settle (edge-runtime's request bodies do not), and a
 * rejected body's answer must not wait for it.
 */
function cancel(reader: ReadableStreamDefaultReader<unknown>, reason: Error): void {
  reader.cancel(reason).catch(() => {
    // The source's own cancel failed; the body is rejected either way.
  });
}

/** Cancels a body that is rejected before reading, when it is still readable; not awaited, as in cancel(). */
function discard(body: ReadableStream<Uint8Array> | null, reason: Error): void {
  if (body === null || body.locked) return;
  body.cancel(reason).catch(() => {
    // As in cancel().
  });
}
