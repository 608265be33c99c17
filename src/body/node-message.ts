/**
 * Reading a body straight from Node's `http.IncomingMessage`, for {@link readBody} on Node.
 *
 * On Node (@hono/node-server) a web `Request`'s `body` is built on first use: an undici
 * `Request` and a `ReadableStream` adapted from the message, which measured about a third of
 * the busy time of an address answering 1 KiB acts (issue 16). Reading the message's `data`
 * events directly gives the same bytes under the same limit without either.
 *
 * @module
 */

/**
 * The part of a Node `http.IncomingMessage` the reader uses (structural: no Node types, so the
 * module bundles for any runtime).
 */
export interface NodeMessage {
  on(event: "data", listener: (chunk: unknown) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: unknown) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
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
  // The server's own request keeps its message as an own symbol-keyed property.
  for (const key of Object.getOwnPropertySymbols(raw)) {
    if ((raw as unknown as Record<symbol, unknown>)[key] === incoming) return message as NodeMessage;
  }
  return undefined;
}

/** One chunk of a message, or why reading stopped. */
export type MessageEvent =
  | { readonly chunk: Uint8Array }
  | { readonly end: true }
  | { readonly failed: unknown }
  | { readonly nonBytes: true };

/**
 * Reads the message's chunks, handing each to `onEvent` until it returns `false` or the message
 * ends or fails. When `onEvent` stops early, the message is paused and left alone: the server
 * (@hono/node-server) drains what is left, a bounded number of bytes, after the answer was
 * sent, then closes the connection; the bytes are never kept.
 *
 * @param message - the unread message.
 * @param onEvent - called with each chunk, then once with the end, a failure, or a chunk that
 *   is not bytes (a message given an encoding); returns whether to go on.
 * @returns a promise settled when reading stopped.
 */
export function readMessage(message: NodeMessage, onEvent: (event: MessageEvent) => boolean): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    // Once the message ended or failed no listener runs again (`done`), and they are left in
    // place: removing stream listeners measured 8 % of the busy time of a 1 KiB act.
    const settle = () => {
      done = true;
      resolve();
    };
    const stopEarly = () => {
      settle();
      message.off("data", onData);
      message.pause();
    };
    const onData = (chunk: unknown) => {
      if (done) return;
      if (!(chunk instanceof Uint8Array)) {
        onEvent({ nonBytes: true });
        stopEarly();
      } else if (!onEvent({ chunk })) {
        stopEarly();
      }
    };
    const onEnd = () => {
      if (done) return;
      onEvent({ end: true });
      settle();
    };
    const onClose = () => {
      if (done) return;
      if (message.readableEnded) onEnd();
      else {
        onEvent({ failed: new Error("the connection closed before the body ended") });
        settle();
      }
    };
    const onError = (error: unknown) => {
      if (done) return;
      onEvent({ failed: error });
      settle();
    };
    message.on("data", onData);
    message.on("end", onEnd);
    message.on("close", onClose);
    message.on("error", onError);
  });
}
