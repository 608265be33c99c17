/**
 * Bounds on an answer read with `fetch` from an address, which is someone else's server: the
 * client code that reaches addresses with `fetch` (the tool core of the adapters, the run
 * follower) reads no more than a set number of bytes of content, gives each exchange a time
 * limit, and follows no redirect (as `http.ts` over `node:http`: a 3xx is the answer).
 *
 * Runtime-neutral: `fetch`, streams and `AbortSignal` only.
 *
 * @module
 */

/** The largest answer read, in bytes, unless told otherwise (also `exchange`'s, in `http.ts`). */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** The time limit of one exchange, head and content, in ms, unless told otherwise (also `exchange`'s). */
export const EXCHANGE_TIMEOUT_MS = 30_000;

/** The answer's content is larger than the bound (counted after any decoding `fetch` did). */
export class ResponseTooLarge extends Error {
  override readonly name = "ResponseTooLarge";
  constructor(url: string, maxBytes: number) {
    super(`the answer of ${url} exceeds ${maxBytes} bytes`);
  }
}

/**
 * A `Request` for a bounded exchange: no redirect followed (`redirect: "manual"`: the 3xx is the
 * answer), and aborted after `timeoutMs` (a `TimeoutError`) or with `signal`, whichever comes
 * first; the abort also ends the reading of the content.
 *
 * The timer holds the request and its signal until it fires. `fetch` (undici) follows a
 * `Request`'s signal through a weak reference, and an `AbortSignal.timeout` or
 * `AbortSignal.any` signal is itself held only weakly: once the caller drops the `Request`, a
 * garbage collection could take the whole chain and leave an endless answer read for ever
 * (seen: a trickling run read hung in 1 of 3 runs; with `gc()` every 50 ms, in every run).
 *
 * @param input - the URL.
 * @param init - method, header fields, body; `signal` and `redirect` are set here.
 * @param timeoutMs - the exchange's time limit, head and content, in ms.
 * @param signal - the caller's own abort, if any.
 */
export function boundedRequest(input: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal): Request {
  const timeout = new AbortController();
  const combined = signal === undefined ? timeout.signal : AbortSignal.any([signal, timeout.signal]);
  const request = new Request(input, { ...init, redirect: "manual", signal: combined });
  const timer: unknown = setTimeout(() => {
    void request;
    timeout.abort(new DOMException(`no answer from ${input} in ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  // A pending bound does not keep a Node, Bun or Deno process alive by itself.
  (timer as { unref?: () => void } | null)?.unref?.();
  return request;
}

/**
 * Reads the whole content of `response` (the answer of `url`), at most `maxBytes` (after the content coding `fetch`
 * undid: a gzip bomb is stopped at the bound, not inflated); the rest is cancelled.
 *
 * @throws {ResponseTooLarge} past `maxBytes`.
 * @throws the stream's error (the exchange's signal aborted, the connection failed).
 */
export async function readAnswer(
  response: Response,
  url: string,
  maxBytes: number = MAX_RESPONSE_BYTES,
): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ResponseTooLarge(url, maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
