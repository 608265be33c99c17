/**
 * Local development under `wrangler dev` only: receive each request body whole before the
 * address sees it.
 *
 * An address answers a body it will not read (an oversize `Content-Length`, a
 * `Content-Encoding`, a method it does not allow) at once and cancels the body (V1; RFC 9110
 * §8.6 lets a server answer before the content ends). A client such as curl then stops
 * uploading and closes the connection, and `wrangler dev`'s proxy in front of workerd treats
 * that one aborted upload as fatal and answers 500 (cloudflare/workers-sdk#15203, #15317). Deployed
 * Workers have no such proxy, so {@link worker} does this only when the worker's
 * `DRAIN_REQUEST_BODIES` variable is `"true"`: set by `.dev.vars` in a project made by
 * `gpt-address init` (read by `wrangler dev` only, never deployed) and by this repository's
 * `npm start`.
 *
 * The drain keeps the address's body deadline: a body still arriving after
 * {@link DEFAULT_BODY_DEADLINE_MS} is cancelled and passed on as a failed body. What it cannot
 * keep is the end of a chunked body: `wrangler dev`'s proxy delivers a chunked body cut off
 * before its last chunk as if it had ended (docs/operations.md), so no code in the worker can
 * tell it from a whole one; deployed Workers and workerd alone fail such a body.
 *
 * @module
 */

import { DEFAULT_BODY_DEADLINE_MS } from "../body/read-body.ts";

/** The most bytes kept of one body; the rest of a larger one is read and thrown away: 64 MiB. */
export const DRAIN_LIMIT_BYTES = 64 * 1_048_576;

/**
 * Reads the whole body of `request` and returns a request with the same method, URL and
 * header fields whose body is the bytes received (the first {@link DRAIN_LIMIT_BYTES} of
 * them). A request without a body is returned as it is; a GET or HEAD that came with one is
 * returned without it (its bytes read and dropped). A body whose upload fails yields a
 * request whose body fails the same way, so the address rejects it as it would have; so does a
 * body that has not ended within `deadlineMs` (default {@link DEFAULT_BODY_DEADLINE_MS}).
 */
export async function receivedRequest(request: Request, deadlineMs = DEFAULT_BODY_DEADLINE_MS): Promise<Request> {
  if (request.body === null) return request;
  // A GET or HEAD with content (which has no defined semantics, RFC 9110 §9.3.1, §9.3.2): the
  // content is read to keep the proxy alive, and dropped; a web `Request` with either method
  // cannot be given a body (constructing one threw, and the worker answered 500).
  const dropped = request.method === "GET" || request.method === "HEAD";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let failure: unknown;
  let late: Error | undefined;
  const timer = setTimeout(() => {
    late = new Error(`the body did not arrive within ${deadlineMs} ms`);
    reader.cancel(late).catch(() => {});
  }, deadlineMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (late !== undefined) throw late;
      if (done) break;
      if (!dropped && kept + value.byteLength <= DRAIN_LIMIT_BYTES) {
        chunks.push(value);
        kept += value.byteLength;
      }
    }
  } catch (error) {
    failure = late ?? error;
  } finally {
    clearTimeout(timer);
  }
  if (dropped) return new Request(request.url, { method: request.method, headers: request.headers });
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (failure === undefined) controller.close();
      else controller.error(failure);
    },
  });
  return new Request(request, { body });
}
