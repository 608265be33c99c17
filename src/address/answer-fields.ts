/**
 * The header fields an address gives many answers, in the form a `Response` takes fastest.
 *
 * `new Response(body, {headers})` copies the fields it is given (Fetch: "fill this's headers
 * with init["headers"]"). Inside workerd it copies a `Headers` object much faster than it reads
 * a record's members: an act's answer with its four fields cost about 14 µs of server CPU more
 * from a record than from one `Headers` built once (1 KiB acts, 21 alternated rounds, issue 16).
 * Sharing one `Headers` between answers is only safe where `Response` is the runtime's own: a
 * `Response` written in JavaScript may keep the very object it is given (@hono/node-server's
 * does), and a field a middleware sets on one answer would then stay for the next (A5). So the
 * shared `Headers` goes only to a `Response` constructor whose source is native code (workerd's
 * and Bun's); elsewhere (Node's undici, @hono/node-server, Deno's, edge-runtime's) the record does.
 *
 * @module
 */

/** The `Response` constructor last looked at, and whether it is native code. */
let seen: unknown;
let seenNative = false;

/** Whether `globalThis.Response` is now the runtime's own (native code), not one written in JavaScript. */
function nativeResponse(): boolean {
  const current = globalThis.Response;
  if (current !== seen) {
    seen = current;
    seenNative =
      typeof current === "function" && /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(current));
  }
  return seenNative;
}

/** One set of answer fields: a frozen record, and the same as one `Headers` built once. */
export class AnswerFields {
  /** The fields as a record (never written to). */
  readonly record: Readonly<Record<string, string>>;
  readonly #headers: Headers;

  /** @param record - the fields; frozen here. */
  constructor(record: Record<string, string>) {
    this.record = Object.freeze({ ...record });
    this.#headers = new Headers(this.record);
  }

  /**
   * The fields for `new Response(…, {headers})`: the shared `Headers` when `Response` is the
   * runtime's own, else the record; always the record for an answer to a Node message
   * (`onNode`), which @hono/node-server writes straight to Node's response.
   */
  init(onNode = false): HeadersInit {
    return !onNode && nativeResponse() ? this.#headers : this.record;
  }
}
