/**
 * A plain HTTP/1.1 exchange over `node:http`/`node:https`, for the client side: it sends only
 * the header fields it is given (plus `Host`, and `Content-Length` for a body), so `check` can
 * GET with no header at all (draft, Arrival: "No request header is required"), which `fetch`
 * cannot (it always adds `Accept`, `User-Agent`, `Accept-Encoding`…).
 *
 * @module
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { EXCHANGE_TIMEOUT_MS, MAX_RESPONSE_BYTES } from "./bounded-answer.ts";

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
  /**
   * Sends a body with `Expect: 100-continue` and holds it back (RFC 9110 §10.1.1): a final
   * answer that comes first (a body refused on its `Content-Length`) is read and the body is
   * never sent, so a server that closes after refusing cannot take the answer with it
   * (RFC 9112 §9.6). The body goes out when no final answer came this many milliseconds after
   * the `100 (Continue)`, or after the request head when there is no `100` (a server that
   * ignores the field). A `417 (Expectation Failed)` is answered by sending the request again
   * without the field. Unset: the body goes out with the head.
   */
  readonly expectContinueMs?: number;
  /** Aborting it ends the exchange: the connection is closed and the promise rejects with its reason. */
  readonly signal?: AbortSignal;
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
 * response wins over the write error that follows, and a response read whole wins over a
 * connection that fails after it. That answer can still be lost when the server closes while
 * the body is being sent (the reset discards what the client had not read yet, RFC 9112
 * §9.6); `expectContinueMs` holds the body back until the server wants it.
 *
 * @throws {ExchangeError} when no complete response arrives.
 * @see RFC 9112 (HTTP/1.1 messages)
 */
export function exchange(url: string | URL, options: ExchangeOptions = {}): Promise<Exchange> {
  const target = new URL(url);
  const send = target.protocol === "https:" ? httpsRequest : target.protocol === "http:" ? httpRequest : undefined;
  if (send === undefined) return Promise.reject(new ExchangeError("network", `not an HTTP URL: ${target.href}`));
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  return new Promise<Exchange>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const headers: Record<string, string> = { ...options.headers };
    const { body, expectContinueMs } = options;
    const withheld = body !== undefined && expectContinueMs !== undefined;
    if (body !== undefined) headers["content-length"] = String(body.byteLength);
    if (withheld) headers.expect = "100-continue";
    const req = send(target.href, { method: options.method ?? "GET", headers, agent: false });
    /** Whether the body was handed to the connection (with `expectContinueMs`: not until it is wanted). */
    let sent = false;
    let release: ReturnType<typeof setTimeout> | undefined;
    const sendBody = () => {
      clearTimeout(release);
      if (sent || settled) return;
      sent = true;
      req.end(body);
    };
    /** The response whose head arrived, to be kept when the connection fails after its last byte. */
    let answered: { res: IncomingMessage; chunks: Buffer[] } | undefined;
    const whole = (res: IncomingMessage, chunks: Buffer[]): Exchange => ({
      status: res.statusCode ?? 0,
      headers: flatten(res.headers),
      setCookie: res.headers["set-cookie"] ?? [],
      body: new Uint8Array(Buffer.concat(chunks)),
    });
    // `agent: false` still adds `Connection: close`; nothing else is added besides Host.
    const timer = setTimeout(() => {
      clearTimeout(release);
      settle(() =>
        reject(
          new ExchangeError(
            "timeout",
            `no answer from ${target.href} in ${options.timeoutMs ?? EXCHANGE_TIMEOUT_MS} ms`,
          ),
        ),
      );
      req.destroy();
    }, options.timeoutMs ?? EXCHANGE_TIMEOUT_MS);
    const { signal } = options;
    if (signal !== undefined) {
      const onAbort = () => {
        clearTimeout(release);
        settle(() => reject(signal.reason));
        req.destroy();
      };
      if (signal.aborted) queueMicrotask(onAbort);
      else signal.addEventListener("abort", onAbort, { once: true });
      req.once("close", () => signal.removeEventListener("abort", onAbort));
    }
    req.on("response", (res) => {
      clearTimeout(release);
      if (withheld && !sent && res.statusCode === 417) {
        // The server does not take the expectation: ask again, body with the head.
        settle(() => resolve(exchange(url, { ...options, expectContinueMs: undefined })));
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      answered = { res, chunks };
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
      res.on("end", () => {
        settle(() => resolve(whole(res, chunks)));
        // The body held back is never sent: this connection is done (it was `Connection: close`).
        if (!sent) req.destroy();
      });
      res.on("error", (error) =>
        settle(() =>
          res.complete
            ? resolve(whole(res, chunks))
            : reject(new ExchangeError("reset", `the answer of ${target.href} was cut off`, error)),
        ),
      );
    });
    if (withheld) {
      // A 100 (Continue): the server wants the body, unless its final answer follows at once.
      req.on("continue", () => {
        clearTimeout(release);
        release = setTimeout(sendBody, expectContinueMs);
      });
    }
    req.on("error", (error: NodeJS.ErrnoException) => {
      // The whole answer arrived before the connection failed (the server closed after it).
      if (answered?.res.complete) {
        const { res, chunks } = answered;
        settle(() => resolve(whole(res, chunks)));
        return;
      }
      // EPIPE/ECONNRESET while the body is still being written: wait for the answer that may
      // already be on its way; the timer settles it otherwise.
      if ((error.code === "EPIPE" || error.code === "ECONNRESET") && body !== undefined) {
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
    if (withheld) {
      req.flushHeaders();
      release = setTimeout(sendBody, expectContinueMs);
    } else if (body !== undefined) req.end(body);
    else req.end();
  });
}

export { mediaType } from "./media-type.ts";
