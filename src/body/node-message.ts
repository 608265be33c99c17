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
  /** The connection (a `net.Socket` on Node; see {@link lingerUnread}). */
  readonly socket?: unknown;
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

/**
 * The most of an unread body, in bytes, that is left to the server to read so that the
 * connection is kept (a `Content-Length` up to this): 256 KiB, Go's net/http bound
 * (`maxPostHandlerReadBytes`). Past it, or when the rest is unknown, {@link lingerUnread} closes.
 */
export const DRAIN_BYTES = 262_144;

/**
 * How long a connection closed with a body unread is kept open, unread, after the answer
 * before it is destroyed, in milliseconds: 500, Go's net/http delay (`rstAvoidanceDelay`).
 */
export const LINGER_MS = 500;

/** The part of Node's `net.Socket` {@link lingerUnread} uses. */
interface NodeSocket {
  readonly destroyed: boolean;
  pause(): unknown;
  resume(): unknown;
  end(): unknown;
  destroy(): unknown;
  destroySoon(): void;
}

/**
 * Arranges the close of a connection whose request body the address leaves unread, a lingering
 * close that reads nothing (RFC 9112 §9.6; as Go's net/http closes): the answer says
 * `Connection: close`, Node writes it and half-closes (FIN), and the socket then stays open
 * {@link LINGER_MS} without reading before it is destroyed. A client that reads while it sends
 * (browsers, undici, `node:http`, curl) gets the answer before the reset that destroying a
 * socket with bytes unread sends; the rest of the upload waits in the kernel's buffers, never
 * read, so an attacker's oversize bodies cost no reading (the drain @hono/node-server would
 * otherwise run reads up to 64 MiB in 500 ms). A client that writes its whole body before it
 * reads can see the reset instead of the answer.
 *
 * Not when the rest is small: a `Content-Length` of at most {@link DRAIN_BYTES} with nothing
 * read yet is left to the server, which reads it and keeps the connection. Only on Node itself
 * (not Bun's or Deno's `node:http`, whose sockets are built otherwise): the linger stops
 * reading with the socket's own `pause()`, which Node's HTTP server turns into a `readStop`,
 * and makes the socket's `resume()` (which the server calls to dump an unread message,
 * `_http_incoming.js` `readStart`) and `destroySoon()` (which it calls after an answer that
 * says `Connection: close`, `_http_server.js` `resOnFinish`) its own for the last
 * {@link LINGER_MS} of the socket's life.
 *
 * @param message - the message whose body is left unread (`nodeMessageOf`).
 * @param headers - its request's fields (`Content-Length` and `Transfer-Encoding` are read).
 * @returns `true` when the linger is set and the answer must say `Connection: close`; `false`
 *   when the rest is left to the server (a small rest, nothing left, not Node).
 */
export function lingerUnread(message: NodeMessage, headers: Headers): boolean {
  if (message.readableEnded) return false;
  const length = headers.has("transfer-encoding") ? null : headers.get("content-length");
  if (!message.readableDidRead && length !== null && Number(length) <= DRAIN_BYTES) return false;
  const socket = nodeSocketOf(message);
  if (socket === undefined) return false;
  if (closing.has(socket)) return true;
  closing.add(socket);
  socket.pause();
  socket.resume = () => socket;
  // Should the answer not say `Connection: close` after all (a middleware that dropped the
  // field), Node would keep a socket that reads nothing any more: it is destroyed anyway.
  let timer = destroyLater(socket, UNCLOSED_MS);
  let ended = false;
  socket.destroySoon = () => {
    socket.end();
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    timer = destroyLater(socket, LINGER_MS);
  };
  return true;
}

/** The sockets {@link lingerUnread} set a lingering close on (a second call for one does nothing). */
const closing = new WeakSet<object>();

/**
 * Whether `message` arrived on a connection that closes before its answer: one
 * {@link lingerUnread} is closing (a request pipelined behind one whose body was left unread,
 * parsed from the same bytes before the socket stopped reading), or one whose writable side
 * has ended already (Node half-closes after an answer it sent without the `100 Continue` its
 * request asked for, `_http_server.js` `writeHead`, and still parses the bytes pipelined
 * behind it; the example's `checkContinue` listener leaves the 100 to the addresses). Its
 * answer is never sent, so it must not be acted on: a server that sends `close` must not
 * process any further request on that connection (RFC 9112 §9.6). `readBody` refuses such a
 * message's body.
 *
 * @param message - a request's message (`nodeMessageOf`).
 * @returns `true` when the message's socket has a lingering close set or has ended its
 *   writable side (`writableEnded`).
 */
export function closingConnection(message: NodeMessage): boolean {
  const socket = message.socket as { writableEnded?: unknown } | null | undefined;
  return typeof socket === "object" && socket !== null && (closing.has(socket) || socket.writableEnded === true);
}

/**
 * How long a socket {@link lingerUnread} stopped reading is kept when its answer never asks
 * Node to close it, in milliseconds (the refusals that linger answer at once).
 */
export const UNCLOSED_MS = 5_000;

/** Destroys `socket` in `ms` milliseconds, without keeping the process alive for it. */
function destroyLater(socket: NodeSocket, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(() => socket.destroy(), ms);
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/**
 * Whether this is Node itself, not Bun's or Deno's emulation of its `node:http` (whose sockets
 * and responses are built otherwise: {@link lingerUnread}, {@link continuePending}).
 */
export function onNodeItself(): boolean {
  const runtime = globalThis as { Bun?: unknown; Deno?: unknown; process?: { release?: { name?: unknown } } };
  return runtime.Bun === undefined && runtime.Deno === undefined && runtime.process?.release?.name === "node";
}

/** The message's socket when it is Node's own `net.Socket`, still open; `undefined` otherwise. */
function nodeSocketOf(message: NodeMessage): NodeSocket | undefined {
  if (!onNodeItself()) return undefined;
  const socket = message.socket as Partial<NodeSocket> | null | undefined;
  if (typeof socket !== "object" || socket === null || socket.destroyed !== false) return undefined;
  for (const method of ["pause", "resume", "end", "destroy", "destroySoon"] as const)
    if (typeof socket[method] !== "function") return undefined;
  return socket as NodeSocket;
}

/** The part of Node's `http.ServerResponse` that sends an interim `100 Continue`. */
export interface PendingContinue {
  writeContinue(): void;
}

/**
 * The response of a request that asked `Expect: 100-continue` and has not been sent the
 * `100 Continue` yet (RFC 9110 §10.1.1), for {@link readBody} to send it once it is about to
 * read: `env.outgoing` as @hono/node-server binds it, when Node left the interim answer to the
 * application, which it does when the server has a `checkContinue` listener (the example's
 * `serve` of gpt-address/node); without one Node sent it before any handler ran. A body refused by its
 * declared size, a rate limit or a pin is then never invited, and Node closes the connection
 * after such an answer, since the client may or may not send the body.
 *
 * Reads the response's `_expect_continue` and `_sent100` (`_http_server.js`, Node's own record
 * of the two); anything else (Bun, Deno, no bindings) gives `undefined`.
 *
 * @param env - the bindings the request came with (`c.env`).
 * @returns the response to send `100 Continue` on, or `undefined`.
 */
export function continuePending(env: unknown): PendingContinue | undefined {
  if (typeof env !== "object" || env === null) return undefined;
  const outgoing = (env as { outgoing?: unknown }).outgoing as
    | { _expect_continue?: unknown; _sent100?: unknown; headersSent?: unknown; writeContinue?: unknown }
    | null
    | undefined;
  if (typeof outgoing !== "object" || outgoing === null) return undefined;
  if (outgoing._expect_continue !== true || outgoing._sent100 !== false || outgoing.headersSent !== false)
    return undefined;
  return typeof outgoing.writeContinue === "function" ? (outgoing as PendingContinue) : undefined;
}
