/**
 * Reading a body straight from Node's `http.IncomingMessage`, for {@link readBody} on Node.
 *
 * On Node (@hono/node-server) a web `Request`'s `body` is built on first use: an undici
 * `Request` and a `ReadableStream` adapted from the message: about a fifth of the busy time of
 * an address answering 1 KiB acts (self time: undici 11 %, web streams 9 %; issue 16). Reading
 * the message's `data` events directly (`readBody`'s `message` option) gives the same bytes
 * under the same limit without either.
 *
 * @module
 */

/**
 * The part of a Node `http.IncomingMessage` the reader uses (structural: no Node types, so the
 * module bundles for any runtime).
 */
export interface NodeMessage {
  on(event: "data" | "end" | "close" | "error", listener: (value?: unknown) => void): unknown;
  off(event: "data", listener: (value?: unknown) => void): unknown;
  pause(): unknown;
  readonly readableEnded: boolean;
  readonly readableDidRead: boolean;
  /** `null` until something reads, pauses or pipes the message. */
  readonly readableFlowing: boolean | null;
}

/**
 * The Node message the request `raw` was made from, when it is still unread: `env.incoming` as
 * @hono/node-server binds it, and only when `raw` is the request that server built from that
 * very message (it keeps the message under a symbol of its own), so that a middleware that
 * replaced the request, or already read its body, is never bypassed. `undefined` otherwise
 * (every other runtime, or a message already read, paused or piped).
 *
 * @param raw - the request a handler sees (`c.req.raw`).
 * @param env - the bindings the request came with (`c.env`).
 * @returns the message to read the body from, or `undefined` to read `raw.body`.
 */
export function nodeMessageOf(raw: Request, env: unknown): NodeMessage | undefined {
  if (typeof env !== "object" || env === null) return undefined;
  const incoming = (env as { incoming?: unknown }).incoming;
  if (typeof incoming !== "object" || incoming === null) return undefined;
  const message = incoming as Partial<NodeMessage>;
  if (typeof message.on !== "function" || typeof message.off !== "function" || typeof message.pause !== "function")
    return undefined;
  if (message.readableDidRead !== false || message.readableFlowing !== null || message.readableEnded !== false)
    return undefined;
  // The server's own request keeps its message as an own symbol-keyed property; the symbol,
  // once found, is tried first (looking it up among the request's symbols cost about 1 % of a
  // 1 KiB act).
  const fields = raw as unknown as Record<symbol, unknown>;
  if (incomingKey !== undefined && Object.hasOwn(raw, incomingKey) && fields[incomingKey] === incoming)
    return message as NodeMessage;
  for (const key of Object.getOwnPropertySymbols(raw)) {
    if (fields[key] === incoming) {
      incomingKey = key;
      return message as NodeMessage;
    }
  }
  return undefined;
}

/** The symbol under which @hono/node-server's requests were last found keeping their message. */
let incomingKey: symbol | undefined;
