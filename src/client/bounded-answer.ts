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
 * The `RequestInit` members of a bounded exchange: no redirect followed (`manual`: the 3xx is
 * the answer), and a signal that aborts after `timeoutMs` or with `signal`, whichever is first.
 * The signal also ends the reading of the content.
 */
export function bounded(
  timeoutMs: number,
  signal?: AbortSignal,
): { readonly redirect: "manual"; readonly signal: AbortSignal } {
  const timeout = AbortSignal.timeout(timeoutMs);
  return { redirect: "manual", signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) };
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
