/**
 * The streaming body reader: the first stage of every act (draft: Verification, req. 1).
 *
 * @module
 */

import { PARSE_PADDING } from "../json/parse.ts";
import { BodyReadError } from "./body-read-error.ts";
import { ContentTooLargeError } from "./content-too-large-error.ts";
import { deadlineQueue } from "./deadline-queue.ts";
import { closingConnection, type NodeMessage, type PendingContinue } from "./node-message.ts";
import { framedByRuntime } from "./runtime-framed.ts";

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
  /**
   * On Node, the message the request was made from (see `nodeMessageOf`): its bytes are read
   * from its `data` events instead of `request.body`, which Node builds as an undici `Request`
   * and a web `ReadableStream` on first use. The same limit, checks and deadline apply to the
   * bytes read.
   */
  readonly message?: NodeMessage;
  /**
   * With `message`, a response owed a `100 Continue` (see `continuePending`): it is sent right
   * before the first byte is read, once the `Content-Length` checks passed, so that a body
   * refused by its declared size is never invited (RFC 9110 §10.1.1).
   */
  readonly pending?: PendingContinue;
  /**
   * A tighter limit read from the body's first bytes (see {@link HeadLimit}): once
   * `headLimit.bytes` bytes have arrived, the body is held to what `headLimit.limit` returns for
   * them (never more than `maxBytes`), before the rest is read.
   */
  readonly headLimit?: HeadLimit;
}

/**
 * A limit that the first bytes of a body decide: the MCP door holds a `tools/call` to its tool's
 * bound once the message has named the tool (`src/mcp/leading-call.ts`; issue 31), and any other
 * method to its own.
 */
export interface HeadLimit {
  /**
   * How many bytes the decision needs, a positive safe integer. A body shorter than that is
   * held to `maxBytes` alone, so `limit` should never return less than this.
   */
  readonly bytes: number;
  /**
   * The most bytes the whole body may have, given its first `bytes` bytes (a view that is only
   * valid during the call), in bytes; at most `maxBytes` counts.
   */
  limit(head: Uint8Array): number;
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
 * holds more than `maxBytes` plus one chunk in memory. With a valid `Content-Length` and a
 * byte stream (workerd, Deno), the bytes are read into one buffer of the declared size instead,
 * never more than one byte past it (see `readDeclared`); a request whose runtime framed it by
 * that length (marked by `runtimeFetch`) is read by one `arrayBuffer()` call (see `readFramed`).
 * Exactly `maxBytes` bytes are accepted. A body that has not ended `deadlineMs` after the call
 * is cancelled (or, read by `arrayBuffer()`, left to end with the connection) and rejected; none
 * of its bytes are returned (an incomplete message is no act, RFC 9112 §8).
 *
 * @param request - the request whose body is read; its body is consumed (or cancelled).
 * @param options - {@link ReadBodyOptions}.
 * @returns the body's bytes; an empty array when there is no body.
 * @throws {ContentTooLargeError} when the body (or its valid `Content-Length`) exceeds `maxBytes`,
 *   or what `headLimit` decided from its first bytes.
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
  const { maxBytes, deadlineMs = DEFAULT_BODY_DEADLINE_MS, headLimit } = options;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`maxBytes must be a non-negative safe integer, got ${maxBytes}`);
  }
  if (!(deadlineMs > 0)) throw new RangeError(`deadlineMs must be a positive number, got ${deadlineMs}`);
  const message = options.message;
  // With a Node message, `request.body` is never touched (touching it builds the stream); nor,
  // until it is known to be needed, on a request the runtime framed (inside workerd, asking for
  // the stream and its state before `arrayBuffer()` cost a median 6 µs of server CPU per 1 KiB
  // act over 9 paired rounds; issue 16).
  const framed = message === undefined && framedByRuntime(request);
  let body = message === undefined && !framed ? request.body : null;

  // The header can reject early; it can never accept.
  const field = request.headers.get("content-length");
  let declared: number | null = null;
  if (field !== null) {
    if (!DECIMAL.test(field)) {
      const error = new BodyReadError("content-length", `invalid Content-Length: ${JSON.stringify(field)}`);
      discard(framed ? request.body : body, error);
      throw error;
    }
    declared = Number(field);
    if (declared > maxBytes) {
      const error = new ContentTooLargeError(maxBytes, 0, declared);
      discard(framed ? request.body : body, error);
      throw error;
    }
  }

  if (message !== undefined) {
    // Pipelined behind a request whose answer closes the connection: never answered, never acted on.
    if (closingConnection(message))
      throw new BodyReadError("body-read", "the connection is closing after an earlier request (RFC 9112 §9.6)");
    options.pending?.writeContinue();
    return readFromMessage(message, declared, maxBytes, deadlineMs, headLimit);
  }
  if (framed) {
    if (declared !== null) return readFramed(request, declared, deadlineMs, maxBytes, headLimit);
    body = request.body;
  }
  if (body === null) {
    if (declared !== null && declared !== 0) throw mismatch(declared, 0);
    return new Uint8Array(0);
  }
  if (request.bodyUsed || body.locked) throw used();

  if (declared !== null) {
    const byob = byobReader(body);
    if (byob !== null) return readDeclared(byob, declared, deadlineMs, maxBytes, headLimit);
  }

  // A valid Content-Length at or below maxBytes is the tighter limit; more bytes than it
  // declared are wrong framing whatever maxBytes allows.
  const reader = body.getReader();
  const bytes = new Collector(declared, maxBytes, headLimit);
  const deadline = new Deadline(reader, deadlineMs);
  try {
    for (;;) {
      let result: ReadableStreamReadResult<unknown>;
      try {
        result = await reader.read();
      } catch (cause) {
        throw deadline.late ?? new BodyReadError("body-read", "the request body stream failed", { cause });
      }
      if (deadline.late !== null) throw deadline.late;
      if (result.done) break;
      const chunk = result.value;
      // A tag check rather than instanceof: the stream may come from another realm.
      if (Object.prototype.toString.call(chunk) !== "[object Uint8Array]") {
        const error = new BodyReadError("body-read", "the request body stream yielded a non-byte chunk");
        cancel(reader, error);
        throw error;
      }
      const error = bytes.add(chunk as Uint8Array);
      if (error !== undefined) {
        cancel(reader, error);
        throw error;
      }
    }
  } finally {
    deadline.clear();
    reader.releaseLock();
  }
  return bytes.end();
}

/**
 * A reader that reads into buffers of ours (a byte stream's BYOB reader), or null where the
 * body is not a byte stream (`getReader({mode: "byob"})` throws a TypeError and leaves the
 * stream unlocked). Request bodies from the network are byte streams on workerd and Deno; on
 * Bun and edge-runtime they are not, and are read chunk by chunk.
 * @see https://streams.spec.whatwg.org/#rs-get-reader
 */
function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return body.getReader({ mode: "byob" });
  } catch {
    return null;
  }
}

/**
 * workerd's non-standard `ReadableStreamBYOBReader.readAtLeast(minBytes, view)`: one read that
 * fills `view` with at least `minBytes` bytes (fewer only when the stream ends).
 * @see https://developers.cloudflare.com/workers/runtime-apis/streams/readablestreambyobreader/
 */
interface ReadAtLeast {
  readAtLeast(minBytes: number, view: Uint8Array): Promise<ReadableStreamReadResult<Uint8Array>>;
}

/**
 * {@link readBody} of a body with a valid `Content-Length` of `declared` bytes (≤ `maxBytes`),
 * read from a byte stream straight into one buffer of ours: `declared` bytes and
 * {@link PARSE_PADDING} more. Each read asks for one byte more than the declared bytes still
 * missing, so a longer body shows as one byte too many and is cancelled there (never more than
 * `declared + 1` bytes are kept); a body that ends short is rejected once it ends; after the
 * declared bytes, one more `read` must find the end. On workerd the declared bytes and the end
 * come in one `readAtLeast` call (asking for one byte more than declared, it returns fewer only
 * at the stream's end) instead of one read per 4 KiB chunk the default reader yields and one for
 * the end. The first buffer is at most {@link FIRST_BUFFER} bytes, and doubles (up to the
 * declared size) each time it is full: a request that declares a large body and sends nothing
 * holds no more than that. The zero
 * bytes after the body let `parseJson` use the buffer without copying it.
 */
async function readDeclared(
  reader: ReadableStreamBYOBReader,
  declared: number,
  deadlineMs: number,
  maxBytes: number,
  headLimit: HeadLimit | undefined,
): Promise<Uint8Array> {
  let head = headLimit !== undefined && declared >= headLimit.bytes ? headLimit : undefined;
  const atLeast = typeof (reader as Partial<ReadAtLeast>).readAtLeast === "function";
  let buffer = new ArrayBuffer(Math.min(declared, FIRST_BUFFER) + PARSE_PADDING);
  let received = 0;
  const deadline = new Deadline(reader, deadlineMs);
  try {
    for (;;) {
      let capacity = buffer.byteLength - PARSE_PADDING;
      if (received === capacity && capacity < declared) {
        // Doubling, so that the memory held follows the bytes received: growing to the
        // declared size at once let a client hold 1 MiB per connection with 64 KiB sent.
        capacity = Math.min(declared, capacity * 2);
        const grown = new Uint8Array(capacity + PARSE_PADDING);
        grown.set(new Uint8Array(buffer, 0, received));
        buffer = grown.buffer;
      }
      // Room for the declared bytes still missing and, once they fit, one more.
      const end = capacity < declared ? capacity : declared + 1;
      const view = new Uint8Array(buffer, received, end - received);
      // With `readAtLeast`, the last read asks for the whole view, one byte past the declared
      // ones: it gives fewer only when the stream ended, so a body that ends where it declared
      // is known to have ended without one more read (a 1 KiB act on workerd: one read, not two).
      const wanted = end - received;
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = atLeast ? await (reader as unknown as ReadAtLeast).readAtLeast(wanted, view) : await reader.read(view);
      } catch (cause) {
        throw deadline.late ?? new BodyReadError("body-read", "the request body stream failed", { cause });
      }
      if (deadline.late !== null) throw deadline.late;
      const value = result.value;
      // A closed stream gives back an empty view of the buffer; only a cancelled one gives none.
      if (value === undefined) throw new BodyReadError("body-read", "the request body stream was cancelled");
      buffer = value.buffer as ArrayBuffer;
      received += value.byteLength;
      if (received > declared) {
        const error = mismatch(declared, received);
        cancel(reader, error);
        throw error;
      }
      if (head !== undefined && received >= head.bytes) {
        const bound = headBound(head, new Uint8Array(buffer, 0, head.bytes), maxBytes);
        head = undefined;
        if (declared > bound) {
          const error = new ContentTooLargeError(bound, received, declared);
          cancel(reader, error);
          throw error;
        }
      }
      if (result.done || (atLeast && value.byteLength < wanted)) break;
    }
  } finally {
    deadline.clear();
    reader.releaseLock();
  }
  if (received !== declared) throw mismatch(declared, received);
  return new Uint8Array(buffer, 0, declared);
}

/**
 * {@link readBody} of a body the runtime framed (`framedByRuntime`) with a valid
 * `Content-Length` of `declared` bytes (≤ `maxBytes`): read whole by `arrayBuffer()`, one native
 * call. The runtime yields no more than the declared bytes, so no more are ever read or held
 * (V1); a body that ends short is rejected. A pending `arrayBuffer()` cannot be cancelled: at
 * the deadline the body is rejected without waiting for it (its rejection, if it comes, is
 * dropped), and what it still reads is bounded by the same framing. `request.body` is asked for
 * only when the read fails ({@link readFailed}).
 *
 * @throws {BodyReadError} `body-used`, `body-read`, `body-deadline` or `content-length-mismatch`.
 */
async function readFramed(
  request: Request,
  declared: number,
  deadlineMs: number,
  maxBytes: number,
  headLimit: HeadLimit | undefined,
): Promise<Uint8Array> {
  if (request.bodyUsed) throw used();
  let read: Promise<ArrayBuffer>;
  try {
    read = request.arrayBuffer();
  } catch (cause) {
    throw readFailed(request, cause);
  }
  let buffer: ArrayBuffer;
  try {
    buffer = deadlineMs > MAX_TIMER_MS ? await read : await beforeDeadline(read, deadlineMs);
  } catch (cause) {
    if (cause instanceof BodyReadError) throw cause;
    throw readFailed(request, cause);
  }
  if (buffer.byteLength !== declared) throw mismatch(declared, buffer.byteLength);
  const bytes = new Uint8Array(buffer);
  if (headLimit !== undefined && declared >= headLimit.bytes) {
    // Read whole already: what the head decides now spares the parse.
    const bound = headBound(headLimit, bytes.subarray(0, headLimit.bytes), maxBytes);
    if (declared > bound) throw new ContentTooLargeError(bound, declared, declared);
  }
  return bytes;
}

/** The limit a body's first bytes `head` decide by `headLimit`, never above `maxBytes`, in bytes. */
function headBound(headLimit: HeadLimit, head: Uint8Array, maxBytes: number): number {
  return Math.min(maxBytes, headLimit.limit(head));
}

/**
 * `read`, or {@link lateBody} when it has not settled `deadlineMs` after the call: one timer,
 * cleared when `read` settles; a rejection of `read` after the deadline is dropped. A promise of
 * our own settled from `read`'s callbacks, not `Promise.race` with a second promise for the
 * timer: inside workerd, over sockets (1 KiB acts, 11 paired rounds), the race cost a median
 * 8.5 µs of server CPU per act over an `arrayBuffer()` without a deadline, this 3.6 µs, a bare
 * timer 4.2 µs (issue 16).
 */
function beforeDeadline(read: Promise<ArrayBuffer>, deadlineMs: number): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(lateBody(deadlineMs)), deadlineMs);
    read.then(
      (buffer) => {
        clearTimeout(timer);
        resolve(buffer);
      },
      (cause: unknown) => {
        clearTimeout(timer);
        reject(cause);
      },
    );
  });
}

/**
 * The deadline of one body: at `deadlineMs` the stream is cancelled, which settles a pending
 * read at once (done, or rejected), and `late` turns that end into a rejection. One timer per
 * body, cleared however it ends.
 */
class Deadline {
  /** The rejection, once the deadline passed; null before. */
  late: BodyReadError | null = null;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;

  constructor(reader: ReadableStreamDefaultReader<unknown> | ReadableStreamBYOBReader, deadlineMs: number) {
    this.timer =
      deadlineMs > MAX_TIMER_MS
        ? undefined
        : setTimeout(() => {
            this.late = lateBody(deadlineMs);
            cancel(reader, this.late);
          }, deadlineMs);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/**
 * {@link readBody} from a Node message: the same limit, counted on the bytes as they arrive;
 * past it, reading stops at once. The message is then paused, not destroyed, so that the answer
 * still reaches the actor; the connection then closes without reading the rest (`lingerUnread`),
 * and no byte past the limit is kept. Once the message
 * ended or failed the listeners are left in place and do nothing: removing stream listeners
 * measured 8 % of the busy time of a 1 KiB act.
 */
function readFromMessage(
  message: NodeMessage,
  declared: number | null,
  maxBytes: number,
  deadlineMs: number,
  headLimit: HeadLimit | undefined,
): Promise<Uint8Array> {
  const bytes = new Collector(declared, maxBytes, headLimit);
  return new Promise((resolve, reject) => {
    let done = false;
    const fail = (error: Error) => {
      done = true;
      deadline?.clear();
      reject(error);
    };
    // Past the deadline reading stops as past the limit: paused, the rest left to the server.
    // A queue of deadlines, not a timer per body (deadline-queue.ts).
    const deadline =
      deadlineMs > MAX_TIMER_MS
        ? undefined
        : deadlineQueue(deadlineMs).set(() => {
            if (done) return;
            message.off("data", onData);
            message.pause();
            fail(lateBody(deadlineMs));
          });
    const onData = (chunk: unknown) => {
      if (done) return;
      const error =
        chunk instanceof Uint8Array
          ? bytes.add(chunk)
          : new BodyReadError("body-read", "the request body yielded a non-byte chunk");
      if (error === undefined) return;
      message.off("data", onData);
      message.pause();
      fail(error);
    };
    const onEnd = () => {
      if (done) return;
      done = true;
      deadline?.clear();
      try {
        resolve(bytes.end());
      } catch (error) {
        reject(error);
      }
    };
    message.on("data", onData);
    message.on("end", onEnd);
    message.on("close", () => {
      if (message.readableEnded) onEnd();
      else if (!done) fail(new BodyReadError("body-read", "the connection closed before the body ended"));
    });
    message.on("error", (cause) => {
      if (!done) fail(new BodyReadError("body-read", "the request body stream failed", { cause }));
    });
  });
}

/**
 * The bytes of a body so far, under its limit, gathered so that a body refused for its size
 * costs no allocation of ours and an accepted one costs one:
 * - with a valid `Content-Length`, the first chunk is kept as it came (a one-chunk body is never
 *   copied) and from the second chunk on the bytes are copied into one buffer of the declared
 *   size;
 * - without one (a chunked body), the chunks are kept as they came, and copied once, when the
 *   body ends, into one buffer of its size. A body refused past `maxBytes` is dropped without a
 *   copy: collecting each oversize body into buffers grown by doubling allocated about 2 MiB per
 *   refused 1 MiB, which, under a stream of such bodies, made most of a Node server's major
 *   garbage collections (issue 15). So that a body of many tiny chunks does not hold one object
 *   per chunk (10⁶ one-byte HTTP chunks cost about 180 MB of heap that way), every
 *   {@link CHUNKS_KEPT} chunks are copied into a buffer grown by doubling.
 *
 * Every buffer of ours has {@link PARSE_PADDING} zero bytes after the body, so that `parseJson`
 * reads it in place instead of copying it.
 */
class Collector {
  /** The chunks received and not copied yet, in order. */
  private chunks: Uint8Array[] = [];
  /** The buffer whose first {@link copied} bytes are the body's, or null. */
  private buffer: Uint8Array | null = null;
  private copied = 0;
  private received = 0;
  private readonly declared: number | null;
  /** The limit: `maxBytes`, or what the head decided. */
  private maxBytes: number;
  /** The most bytes accepted: `declared` when given, else {@link maxBytes}. */
  private limit: number;
  /** The head limit still to apply, or undefined once applied (or when there is none). */
  private headLimit: HeadLimit | undefined;

  /**
   * @param declared - the valid `Content-Length` (≤ `maxBytes`), or null.
   * @param maxBytes - the largest body accepted.
   * @param headLimit - a tighter limit decided by the first bytes, if any.
   */
  constructor(declared: number | null, maxBytes: number, headLimit: HeadLimit | undefined) {
    this.declared = declared;
    this.maxBytes = maxBytes;
    this.limit = declared ?? maxBytes;
    this.headLimit = headLimit;
  }

  /** Adds a chunk; returns the error that rejects the body when it passes the limit. */
  add(bytes: Uint8Array): Error | undefined {
    const { declared, limit } = this;
    this.received += bytes.byteLength;
    const received = this.received;
    if (received > limit) return this.drop(declared === null ? null : mismatch(declared, received));
    if (bytes.byteLength === 0) return undefined;
    this.keep(bytes);
    const head = this.headLimit;
    if (head === undefined || received < head.bytes) return undefined;
    this.headLimit = undefined;
    const bound = headBound(head, this.first(head.bytes), this.maxBytes);
    if (Math.max(received, declared ?? 0) > bound)
      return this.drop(new ContentTooLargeError(bound, received, declared));
    this.maxBytes = bound;
    if (declared === null) this.limit = bound;
    return undefined;
  }

  /** The body's first `n` bytes (all received), in one view: a copy only when they span chunks. */
  private first(n: number): Uint8Array {
    const { buffer, chunks } = this;
    if (buffer !== null && this.copied >= n) return buffer.subarray(0, n);
    if (buffer === null && chunks[0]!.byteLength >= n) return chunks[0]!.subarray(0, n);
    const head = new Uint8Array(n);
    let at = 0;
    if (buffer !== null) {
      head.set(buffer.subarray(0, Math.min(n, this.copied)));
      at = this.copied;
    }
    for (const chunk of chunks) {
      if (at >= n) break;
      head.set(chunk.subarray(0, n - at), at);
      at += chunk.byteLength;
    }
    return head;
  }

  /** Drops what was kept of a refused body; returns `error`, or a 413 when null. */
  private drop(error: Error | null): Error {
    this.chunks = [];
    this.buffer = null;
    return error ?? new ContentTooLargeError(this.maxBytes, this.received, null);
  }

  /** Keeps a chunk of a body within its limit. */
  private keep(bytes: Uint8Array): void {
    const { declared, received } = this;
    if (declared !== null && (this.buffer !== null || this.chunks.length === 1)) {
      // From the second chunk of a body of known size: one buffer, doubled (up to the declared
      // size) when the bytes received pass it, as readDeclared does, so that the memory held
      // follows the bytes sent: allocating the declared size at once let a client hold
      // `maxBytes` per connection with two small chunks sent.
      const buffer = this.buffer;
      if (buffer === null || buffer.byteLength < received + PARSE_PADDING) {
        // received ≤ declared here (add() refused more), so the buffer holds every byte.
        const doubled = 2 * ((buffer?.byteLength ?? 0) - PARSE_PADDING);
        const capacity = Math.min(declared, Math.max(FIRST_BUFFER, received, doubled));
        this.buffer = this.copy(new Uint8Array(capacity + PARSE_PADDING));
      }
      this.buffer!.set(bytes, this.copied);
      this.copied += bytes.byteLength;
      return;
    }
    this.chunks.push(bytes);
    if (this.chunks.length === CHUNKS_KEPT) {
      const buffer = this.buffer;
      const need = received + PARSE_PADDING;
      this.buffer = this.copy(
        buffer !== null && buffer.byteLength >= need
          ? buffer
          : new Uint8Array(Math.max(need, Math.min(2 * (buffer?.byteLength ?? 0), this.limit + PARSE_PADDING))),
      );
    }
  }

  /** The body, once the stream ended; throws when it disagrees with `Content-Length`. */
  end(): Uint8Array {
    const { declared, received } = this;
    if (declared !== null && received !== declared) throw mismatch(declared, received);
    if (this.buffer === null) {
      if (this.chunks.length === 0) return new Uint8Array(0);
      if (this.chunks.length === 1) return this.chunks[0]!;
    }
    if (this.chunks.length > 0) {
      const buffer = this.buffer;
      const need = received + PARSE_PADDING;
      this.buffer = this.copy(buffer !== null && buffer.byteLength >= need ? buffer : new Uint8Array(need));
    }
    return this.buffer!.subarray(0, received);
  }

  /** Copies what {@link buffer} holds (when `target` is another) and the chunks kept into `target`. */
  private copy(target: Uint8Array): Uint8Array {
    if (this.buffer !== null && this.buffer !== target) target.set(this.buffer.subarray(0, this.copied));
    for (const chunk of this.chunks) {
      target.set(chunk, this.copied);
      this.copied += chunk.byteLength;
    }
    this.chunks = [];
    return target;
  }
}

/**
 * The most chunks of a body without `Content-Length` kept uncopied (see {@link Collector}): 64,
 * 4 MiB of Node's 64 KiB reads.
 */
const CHUNKS_KEPT = 64;

/** The longest delay timers take (2³¹ − 1 ms, about 24.8 days); a longer deadline is none. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The largest buffer allocated for a body with `Content-Length` before its first bytes fill it,
 * in bytes (64 KiB); the buffer then doubles, up to the declared size, each time the bytes
 * received pass it.
 */
const FIRST_BUFFER = 65_536;

/** The rejection of a body still arriving `deadlineMs` after the read began (`body-deadline`). */
function lateBody(deadlineMs: number): BodyReadError {
  return new BodyReadError("body-deadline", `the body did not arrive within ${deadlineMs} ms`);
}

/** The rejection of a body already read, or locked to a reader (`body-used`). */
function used(): BodyReadError {
  return new BodyReadError("body-used", "the request body was already read or is locked");
}

/**
 * The rejection of a framed body whose `arrayBuffer()` failed: `body-used` when other code holds
 * a reader on its stream and nothing was read (seen only now: {@link readFramed} does not touch
 * `request.body` before reading), else `body-read` (a read that failed leaves the body used).
 */
function readFailed(request: Request, cause: unknown): BodyReadError {
  if (!request.bodyUsed && request.body?.locked === true) return used();
  return new BodyReadError("body-read", "the request body stream failed", { cause });
}

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
function cancel(reader: ReadableStreamDefaultReader<unknown> | ReadableStreamBYOBReader, reason: Error): void {
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
