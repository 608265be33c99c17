/**
 * HTTP/1.1 over a bare TCP socket, for what `fetch` cannot send: bodies at one byte a second,
 * bodies cut before their end, header fields that trickle in. Used by the wire suite's slow
 * client tests and by `npm run bench:hostile`. Loopback only.
 */
import { type Agent, type IncomingHttpHeaders, request } from "node:http";
import { connect } from "node:net";

/** One piece of what the client writes, after waiting `delayMs` milliseconds. */
export interface Piece {
  readonly delayMs: number;
  readonly bytes: string | Uint8Array;
}

/** How a raw exchange ends on the client's side once every piece is written. */
export type Ending =
  /** keep the connection open and wait for the server */
  | "wait"
  /** half-close (FIN): nothing more will be sent, the answer is still read */
  | "half-close"
  /** reset the connection at once */
  | "destroy";

/** What the client saw. Times are milliseconds from the first byte written. */
export interface Exchange {
  /** The status code of the first answer, or `null` when none came. */
  readonly status: number | null;
  /** When the first byte of an answer arrived, or `null`. */
  readonly answeredMs: number | null;
  /** When the server closed the connection, or `null` when it had not by `waitMs`. */
  readonly closedMs: number | null;
  /** Everything the server sent, as Latin-1 text. */
  readonly received: string;
}

/**
 * Writes `pieces` to `127.0.0.1:port` one after another, each after its delay, stopping early
 * if the server closes the connection; then ends as `ending` says and waits at most `waitMs`
 * for the server to close. Resolves, never rejects.
 */
export function exchange(port: number, pieces: readonly Piece[], ending: Ending, waitMs: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const started = Date.now();
    let received = "";
    let answeredMs: number | null = null;
    let closedMs: number | null = null;
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(limit);
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      resolve({ status: status ? Number(status[1]) : null, answeredMs, closedMs, received });
    };
    socket.on("data", (chunk: Buffer) => {
      if (answeredMs === null) answeredMs = Date.now() - started;
      received += chunk.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      closedMs = Date.now() - started;
      finish();
    });
    const limit = setTimeout(finish, waitMs);
    let index = 0;
    const next = () => {
      if (closed) return;
      const piece = pieces[index++];
      if (piece === undefined) {
        if (ending === "half-close") socket.end();
        else if (ending === "destroy") finish();
        return;
      }
      timer = setTimeout(() => {
        if (closed || socket.destroyed) return;
        socket.write(piece.bytes, next);
      }, piece.delayMs);
    };
    socket.once("connect", next);
  });
}

/** `bytes` as pieces of one byte each, `delayMs` apart (the first one at once). */
export function trickle(bytes: string, delayMs: number): Piece[] {
  return [...bytes].map((byte, i) => ({ delayMs: i === 0 ? 0 : delayMs, bytes: byte }));
}

/** A chunk of the chunked transfer coding (RFC 9112 §7.1) holding `data`. */
export function chunk(data: string | Uint8Array): string | Uint8Array {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const size = new TextEncoder().encode(`${bytes.byteLength.toString(16)}\r\n`);
  const joined = new Uint8Array(size.byteLength + bytes.byteLength + 2);
  joined.set(size);
  joined.set(bytes, size.byteLength);
  joined.set([0x0d, 0x0a], size.byteLength + bytes.byteLength);
  return joined;
}

/** The last chunk of the chunked transfer coding, with no trailer. */
export const LAST_CHUNK = "0\r\n\r\n";

/** A request head for `POST path` with the given extra header lines. */
export function postHead(path: string, fields: readonly string[]): string {
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${fields.map((f) => `${f}\r\n`).join("")}\r\n`;
}

/** The status codes of every answer in `received` (interim ones included), in order. */
export function statuses(received: string): number[] {
  return [...received.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((match) => Number(match[1]));
}

/** What {@link upload} saw: the answer's status and fields, or the client's error code. */
export interface Uploaded {
  /** The status code, or the client's error code (`EPIPE`, `ECONNRESET`) when that came first. */
  readonly status: number | string;
  /** The answer's fields (none after an error). */
  readonly headers: IncomingHttpHeaders;
}

/**
 * Sends `total` zero bytes with `method` to `url` through `node:http`, 64 KiB per write (with
 * `Content-Length`, or chunked), for uploads far past a limit, which `fetch` would buffer.
 * Resolves when the answer ends, or with the client's error code if that comes first; never
 * rejects.
 */
export function upload(
  url: string,
  method: string,
  total: number,
  framing: "content-length" | "chunked",
  options: { readonly headers?: Record<string, string>; readonly agent?: Agent } = {},
): Promise<Uploaded> {
  return new Promise((resolve) => {
    const { hostname, port, pathname } = new URL(url);
    const headers: Record<string, string> = { ...options.headers };
    // Named, not left to node:http's default: it frames a GET's or HEAD's body with neither.
    if (framing === "content-length") headers["content-length"] = String(total);
    else headers["transfer-encoding"] = "chunked";
    const req = request({ hostname, port, method, path: pathname, headers, agent: options.agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on("error", (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? "error", headers: {} }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? "error", headers: {} }));
    const piece = new Uint8Array(65_536);
    let sent = 0;
    const more = () => {
      while (sent < total) {
        const part = piece.subarray(0, Math.min(piece.byteLength, total - sent));
        sent += part.byteLength;
        if (!req.write(part)) return void req.once("drain", more);
      }
      req.end();
    };
    more();
  });
}
