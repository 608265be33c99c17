/**
 * Requests as the runtime's own HTTP server delivered them, for {@link readBody}: their body is
 * the message body the connection framed (RFC 9112 §6.3), so with a `Content-Length` the
 * runtime never yields more bytes than it declares, and the reader may read it whole in one
 * native call (`arrayBuffer()`) instead of one it drives from JavaScript.
 *
 * Why it is needed: a `Request` made by code (a middleware's `new Request(request, {body})`)
 * keeps the header fields it was given, `Content-Length` included, whatever its new body holds;
 * workerd then reads the whole new body under the old field (checked: a 5,000-byte stream under
 * `Content-Length: 10`). Only the object the runtime handed to the fetch handler is known to be
 * framed, so it is marked there, by {@link runtimeFetch}, and nowhere else. Request bodies and an
 * incoming request's header fields cannot be changed, so a mark cannot come to cover another
 * body.
 *
 * Why it pays: inside workerd a read of a request body driven from JavaScript (a BYOB
 * `readAtLeast` into a buffer of the declared size; a default reader or a pipe into a
 * `FixedLengthStream` cost more) takes more server CPU than `request.arrayBuffer()`. The POST
 * bench (issue 16; docs/bench.md), the worker on a socket of its own: the page address with this
 * read ÷ the same address reading `request.body`, by server CPU per act, 1.14× / 1.07× / 1.15×
 * at 1 / 16 / 256 KiB in one run (per-round ranges 1.05–1.23, 0.97–1.20, 1.11–1.33) and
 * 1.19× / 0.99× / 0.99× in another on a faster host: the gain holds at 1 KiB.
 *
 * @module
 */

const framed = new WeakSet<Request>();

/**
 * Wraps the fetch handler a runtime calls with each request its HTTP server received (Workers'
 * `fetch(request, env, ctx)`, `Deno.serve`'s handler): each such request is marked as framed by
 * the runtime before `fetch` sees it, so that an address behind it reads a body with a valid
 * `Content-Length` in one call. Only for a handler the runtime itself calls with requests from
 * the network: a request made by code and passed to the returned function would be taken as
 * framed.
 *
 * @param fetch - the handler (`app.fetch` of a Hono app).
 * @returns the same handler, marking its first argument.
 * @example
 * ```ts
 * export default { fetch: runtimeFetch(app.fetch) };
 * ```
 */
export function runtimeFetch<Rest extends unknown[], R>(
  fetch: (request: Request, ...rest: Rest) => R,
): (request: Request, ...rest: Rest) => R {
  return (request, ...rest) => {
    framed.add(request);
    return fetch(request, ...rest);
  };
}

/** Whether `request` is one a {@link runtimeFetch} handler received: its body is framed by the runtime. */
export function framedByRuntime(request: Request): boolean {
  return framed.has(request);
}
