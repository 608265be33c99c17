/**
 * A plain HTTP/1.1 exchange over `node:http`/`node:https`, for the client side: it sends only
 * the header fields it is given (plus `Host`, and `Content-Length` for a body), so `check` can
 * GET with no header at all (draft, Arrival: "No request header is required"), which `fetch`
 * cannot (it always adds `Accept`, `User-Agent`, `Accept-Encoding`…).
 *
 * @module
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";

/** One response, whole. */
export interface Exchange {
  readonly status: number;
  /** Header fields, names in lower case; repeated fields joined with `, ` (`set-cookie` kept apart). */
  readonly headers: Readonly<Record<string, string>>;
  /** `Set-Cookie` field values, each on its own. */
  readonly setCookie: readonly string[];
  /** The response content, as received (no decoding; none is asked for). */
  readonly body: Uint8Array;
}

/** Options of {@link exchange}. */
export interface ExchangeOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
  /** Gives up after this many milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Largest response content read, in bytes (default 16 MiB); more is an error. */
  readonly maxResponseBytes?: number;
}

/** The connection failed or closed before a whole response arrived. */
export class ExchangeError extends Error {
  override readonly name = "ExchangeError";
  /** `reset` (closed without an answer), `timeout`, `too-large`, `network`. */
  readonly code: "reset" | "timeout" | "too-large" | "network";
  constructor(code: ExchangeError["code"], message: string, cause?: unknown) {
    super(message, { cause });
    this.code = code;
  }
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === "set-cookie") continue;
    out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/**
 * Sends one request and reads the whole response. A server that answers before it has read
 * the whole body (an oversize act refused on its `Content-Length`) is answered normally: the
 * response wins over the write error that follows.
 *
 * @throws {ExchangeError} when no complete response arrives.
 * @see RFC 9112 (HTTP/1.1 messages)
 */
export function exchange(url: string | URL, options: ExchangeOptions = {}): Promise<Exchange> {
  const target = new URL(url);
  const send = target.protocol === "https:" ? httpsRequest : target.protocol === "http:" ? httpRequest : undefined;
  if (send === undefined) return Promise.reject(new ExchangeError("network", `not an HTTP URL: ${target.href}`));
  const maxBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
  return new Promise<Exchange>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers["content-length"] = String(options.body.byteLength);
    const req = send(target.href, { method: options.method ?? "GET", headers, agent: false });
    // `agent: false` still adds `Connection: close`; nothing else is added besides Host.
    const timer = setTimeout(() => {
      settle(() =>
        reject(new ExchangeError("timeout", `no answer from ${target.href} in ${options.timeoutMs ?? 30_000} ms`)),
      );
      req.destroy();
    }, options.timeoutMs ?? 30_000);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let length = 0;
      res.on("data", (chunk: Buffer) => {
        length += chunk.length;
        if (length > maxBytes) {
          settle(() =>
            reject(new ExchangeError("too-large", `the answer of ${target.href} exceeds ${maxBytes} bytes`)),
          );
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () =>
        settle(() =>
          resolve({
            status: res.statusCode ?? 0,
            headers: flatten(res.headers),
            setCookie: res.headers["set-cookie"] ?? [],
            body: new Uint8Array(Buffer.concat(chunks)),
          }),
        ),
      );
      res.on("error", (error) =>
        settle(() => reject(new ExchangeError("reset", `the answer of ${target.href} was cut off`, error))),
      );
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      // EPIPE/ECONNRESET while the body is still being written: wait for the answer that may
      // already be on its way; the timer settles it otherwise.
      if ((error.code === "EPIPE" || error.code === "ECONNRESET") && options.body !== undefined) {
        setTimeout(
          () =>
            settle(() =>
              reject(new ExchangeError("reset", `${target.href} closed the connection without an answer`, error)),
            ),
          1_000,
        );
        return;
      }
      settle(() => reject(new ExchangeError("network", `${target.href}: ${error.message}`, error)));
    });
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

/** The media type of a `Content-Type` field value, lower-cased, without parameters. */
export function mediaType(field: string | undefined): string {
  return (field ?? "").split(";")[0]!.trim().toLowerCase();
}
