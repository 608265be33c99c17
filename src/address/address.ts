/**
 * `address()`: one GPT address as a Hono app (draft: Arrival, The Act, Verification).
 *
 * @module
 */

import type { Context, Env } from "hono";
import { Hono } from "hono";
import { continuePending, type NodeMessage, nodeMessageOf } from "../body/node-message.ts";
import { ActDeclined, encodeConsequence } from "./act.ts";
import type { ActLogCode, ActLogEntry } from "./act-log.ts";
import { admitPin, admitRate, emitLog, type Refused } from "./admission.ts";
import { AnswerFields } from "./answer-fields.ts";
import { type HeaderList, prepareArrival } from "./arrival.ts";
import type { CompiledForm } from "./form.ts";
import type { RateLimit } from "./rate-limit.ts";
import { problemStatus, type Rejection, type RejectionCode } from "./rejection.ts";
import {
  closesUnread,
  closing,
  discardAct,
  leavesBodyUnread,
  receiveAct,
  verificationLimits,
  verifyBytes,
} from "./verification.ts";

export { DEFAULT_CACHE_CONTROL } from "./arrival.ts";
export { DEFAULT_MAX_BYTES } from "./verification.ts";

/** What an act handler receives besides the value. */
export interface ActContext<E extends Env = Env> {
  /**
   * The `GPT-Actor` request field, or `null`: self-asserted and unauthenticated, to be
   * recorded at most, never used to gate anything (H1).
   */
  readonly actor: string | null;
  /** The Hono context of the request (bindings in `c.env`, the URL in `c.req.url`). */
  readonly c: Context<E>;
}

/** Options of {@link address}. */
export interface AddressOptions<Act, E extends Env = Env> {
  /** The form, as built from `forms/<name>.json` (`import { form } from "./generated/<name>.js"`). */
  readonly form: CompiledForm<Act>;
  /**
   * Performs a valid act. Runs only after the body was read, parsed strictly and validated
   * against the very form GET serves. Its return value is the consequence of the act, sent
   * as the 200 JSON body (R1; `undefined` is sent as `null`). An {@link ActDeclined} it throws
   * is answered with its status (400, 413, or 503 with `Retry-After`) and no body; any other
   * exception is a server fault: logged with `console.error`, answered 500 with no body. Neither
   * is reported to `onReject`.
   */
  readonly act: (value: Act, context: ActContext<E>) => unknown;
  /**
   * Called once per rejected act with its code and reason, for logs and metrics; the actor
   * only ever sees 204 (R2). Exceptions it throws are logged and otherwise ignored.
   */
  readonly onReject?: (rejection: Rejection) => void;
  /**
   * The largest act body accepted, in bytes (V1). Default: the longest valid act as a
   * serializer writes it (`form.maxBytes`: every character escaped, numbers in 32 bytes, a
   * whitespace margin; src/compile/README.md) when the form bounds it below 1 MiB, else 1 MiB
   * (1,048,576).
   */
  readonly maxBytes?: number;
  /**
   * The most arrays and objects an act may nest (counting the root). Default: the form's own
   * bound (`form.maxDepth`), or 64 when the form admits unbounded nesting.
   */
  readonly maxDepth?: number;
  /**
   * The longest string, value or member name, an act may hold, in UTF-16 code units (V2; a
   * non-negative safe integer, or `Infinity` for none); a longer one is refused by the parser
   * (`json-syntax:string-too-long`) before it is decoded whole. Default: the form's own bound
   * (`form.maxStringLength`), or none when the form admits unbounded strings.
   */
  readonly maxStringLength?: number;
  /**
   * The most members any object of an act may have (V2; a non-negative safe integer, or
   * `Infinity` for none); one more is refused by the parser (`json-syntax:too-many-members`)
   * before it is read. Default: the form's own bound (`form.maxMembers`), or none.
   */
  readonly maxMembers?: number;
  /**
   * The most items any array of an act may have, as {@link maxMembers}
   * (`json-syntax:too-many-items`). Default: the form's own bound (`form.maxItems`), or none.
   */
  readonly maxItems?: number;
  /** When set, every GET/HEAD answer carries it as the advisory `GPT-Type` field (A4). */
  readonly gptType?: string;
  /**
   * `Cache-Control` of the JSON form, a shared-cacheable representation (S4). Default
   * {@link DEFAULT_CACHE_CONTROL}. The HTML page is always `private` (DESIGN.md §6).
   */
  readonly cacheControl?: string;
  /**
   * Development mode (X3), off by default: a rejected act is answered with an RFC 9457 problem
   * report (`application/problem+json`) naming the rejection code and reason, instead of 204.
   * Never turn it on for a public address: reasons help an actor shape a body that passes.
   */
  readonly development?: boolean;
  /**
   * Rate limits by client (draft: Denial of Service): separate limiters for arrivals and acts.
   * A limited request is answered 429 with `Retry-After` (never 204, which means the value was
   * wrong), an act before its body is read. None by default. See {@link RateLimit}.
   */
  readonly rateLimit?: RateLimit<E>;
  /**
   * The time an act's whole body may take to arrive, in milliseconds; a body still arriving
   * then is rejected (`body-deadline`) and its connection closed. Default 5 s.
   */
  readonly bodyDeadlineMs?: number;
  /**
   * Called once per act (200), per rejected act (204), per refused request (429, 412, and 405
   * for a method the address does not answer) and per fault (500) with one structured entry:
   * never the body or a value from it. Exceptions it throws are logged and otherwise ignored.
   * None by default; `(e) => console.log(formatActLog(e))` writes JSON lines (Workers Logs and
   * `wrangler tail` show them).
   */
  readonly onLog?: (entry: ActLogEntry) => void;
}

const ALLOW = "GET, HEAD, POST, OPTIONS";

/**
 * Creates the Hono app of one GPT address, to be mounted on its path.
 *
 * - GET and HEAD answer the arrival document `{p, m, s}` from bytes encoded once, here, with a
 *   strong `ETag`, `Cache-Control`, `Vary: Accept` and `Access-Control-Allow-Origin: *`
 *   (A1, A2, A5, S4); a matching `If-None-Match` gets 304. An `Accept` that prefers `text/html`
 *   gets the page for people rendered at build time (A6).
 * - POST reads the body under `maxBytes` (V1), parses it strictly (V2), validates it with the
 *   form's generated validator (V3, V4) and only then calls `act` with the value and the
 *   `GPT-Actor` field (H1), answering 200 with its result as JSON (R1). Whatever the
 *   `Content-Type` says, every body goes through all three stages. Any failure is answered 204
 *   with no body and no hint (R2) and reported to `onReject`.
 * - OPTIONS answers the CORS preflight; any other method gets 405 with `Allow`, its body
 *   (if any) unread and discarded, and `Connection: close` (RFC 9112 §9.6); on a Node message
 *   a lingering close that reads nothing, or for a small rest the server's drain
 *   (`lingerUnread`).
 *
 * Nothing depends on cookies or on earlier requests (A5). The arrival is precomputed by
 * {@link prepareArrival} and every act is verified by {@link verifyAct}, the same core any
 * other door uses; this function only wires them to Hono.
 *
 * @param options - {@link AddressOptions}.
 * @returns a Hono app answering at its root path `/`.
 * @throws {RangeError} when `maxBytes` or `maxDepth` is not a non-negative safe integer, or
 *   `maxStringLength`, `maxMembers` or `maxItems` neither that nor `Infinity`.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.2 (If-None-Match)
 * @see https://www.rfc-editor.org/rfc/rfc9457 (problem details, development mode)
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { address } from "gpt-address";
 * import { form } from "./generated/page.js";
 *
 * const app = new Hono();
 * app.route("/page", address({ form, act: (page) => ({ title: page.title }) }));
 * export default app;
 * ```
 */
export function address<Act, E extends Env = Env>(options: AddressOptions<Act, E>): Hono<E> {
  const { form, act, onReject, onLog, rateLimit, gptType, cacheControl, development = false } = options;
  // Development mode (X3) names the line and column of a syntax error, at the cost of a pass over the body.
  const limits = { ...verificationLimits(form, options), lineColumn: development };
  // Precomputed once: GET does header matching and nothing else (S4).
  const arrival = prepareArrival(form, { gptType, cacheControl });
  const preflightHeaders: HeaderList = [
    ["Allow", ALLOW],
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Allow-Methods", ALLOW],
    ["Access-Control-Allow-Headers", "Content-Type, GPT-Actor, If-None-Match, If-Match"],
    ["Access-Control-Max-Age", "86400"],
  ];
  // nosniff: an act's answer may echo the actor's text, and a browser can be made to POST a
  // text/plain form whose body is valid JSON; its answer must never be read as HTML.
  //
  // The act's answers take their fields as frozen records: @hono/node-server writes a record
  // straight to Node's response, where a list (or Headers) is first turned into an undici
  // `Headers` per answer (issue 16: about 2 % of a 1 KiB act, and garbage). A record is never
  // written to: a middleware asking `c.res.headers` gets a Headers object of its own. Off a
  // Node message, the same fields as one `Headers` where `Response` copies it (AnswerFields).
  const actFields = new AnswerFields({
    "Content-Type": "application/json",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    "Access-Control-Allow-Origin": "*",
  });
  const emptyFields = new AnswerFields({
    "Cache-Control": "no-store",
    "Access-Control-Allow-Origin": "*",
  });
  const emptyHeaders = emptyFields.record;
  // A body left unread (refused before reading, sent with a method answered 405, or given up
  // on) closes the connection, or on a Node message lingers or drains (`closesUnread`). That an
  // unread body was refused early tells the actor nothing its own upload does not (the answer
  // came before the body went out); parse and schema refusals, the ones about content, keep the
  // connection and look alike (R2).
  const unreadHeaders: Readonly<Record<string, string>> = Object.freeze({ ...emptyHeaders, Connection: "close" });
  // An empty answer other than 204 says `Content-Length: 0` (RFC 9110 §8.6): without it Node
  // frames the empty body as chunked (@hono/node-server writes the head before the end). A 204
  // never carries the field.
  const noContent = (headers: Readonly<Record<string, string>>) => Object.freeze({ ...headers, "Content-Length": "0" });
  const emptyBodyHeaders = noContent(emptyHeaders);
  const unreadEmptyBodyHeaders = noContent(unreadHeaders);
  const notAllowedHeaders = noContent({ Allow: ALLOW, ...emptyHeaders });
  const notAllowedUnreadHeaders = noContent({ Allow: ALLOW, ...unreadHeaders });

  /**
   * Answers a request refused before its body was read: 429 with `Retry-After`, or 412;
   * `closes`: with `Connection: close` (a body left unread, not on a Node message).
   */
  function refuse(refused: Refused, closes: boolean): Response {
    const headers = closes ? unreadEmptyBodyHeaders : emptyBodyHeaders;
    if (refused.status === 412) return new Response(null, { status: 412, headers });
    return new Response(null, {
      status: 429,
      headers: {
        "Retry-After": String(refused.retryAfterSeconds),
        "Access-Control-Expose-Headers": "Retry-After",
        ...headers,
      },
    });
  }

  function log(c: Context<E>, started: number, status: number, code: ActLogCode | null, bytes: number | null) {
    if (onLog === undefined) return; // no hook: not even the fields are read
    const request = c.req.raw;
    emitLog(onLog, {
      started,
      address: form.name,
      door: "http",
      method: request.method,
      status,
      code,
      bytes,
      actor: request.headers.get("gpt-actor"),
    });
  }

  async function limitedArrival(c: Context<E>): Promise<Response> {
    const started = Date.now();
    const limited = admitRate(c, "arrival", rateLimit, form.name);
    const refused = limited === null ? null : await limited;
    if (refused === null) return arrival.answer(c.req.raw);
    log(c, started, refused.status, refused.code, null);
    return refuse(refused, false);
  }

  /**
   * Answers a rejected act: 204 (a problem in development); `closes`: with `Connection: close`;
   * `onNode`: the request came as a Node message (`AnswerFields.init`).
   */
  function reject(request: Request, code: RejectionCode, reason: string, closes: boolean, onNode: boolean): Response {
    if (onReject !== undefined) {
      try {
        onReject({ code, reason, request });
      } catch (error) {
        console.error(`gpt-address: onReject of the address "${form.name}" threw`, error);
      }
    }
    if (development) {
      const { status, title } = problemStatus(code);
      const problem = JSON.stringify({ type: "about:blank", title, status, detail: reason, code });
      return new Response(problem, {
        status,
        headers: { "Content-Type": "application/problem+json", "X-Content-Type-Options": "nosniff", ...emptyHeaders },
      });
    }
    return new Response(null, {
      status: 204,
      headers: closes ? unreadHeaders : emptyFields.init(onNode),
    });
  }

  /** A server fault (a throwing act, or a bug in a stage): logged, 500, never a rejection. */
  function fault(what: string, error: unknown): Response {
    console.error(`gpt-address: ${what} of the address "${form.name}" threw`, error);
    return new Response(null, { status: 500, headers: emptyBodyHeaders });
  }

  /** A valid act its handler declined: its status, no body, `Retry-After` when it gave one. */
  function declined(error: ActDeclined): Response {
    if (error.retryAfterSeconds === undefined)
      return new Response(null, { status: error.status, headers: emptyBodyHeaders });
    return new Response(null, {
      status: error.status,
      headers: {
        "Retry-After": String(error.retryAfterSeconds),
        "Access-Control-Expose-Headers": "Retry-After",
        ...emptyBodyHeaders,
      },
    });
  }

  async function perform(c: Context<E>): Promise<Response> {
    const started = Date.now();
    const request = c.req.raw;
    // On Node (@hono/node-server), the body is read from the message itself (issue 16).
    const message = nodeMessageOf(request, c.env);
    try {
      // Limits and the pin come before the body: a refused act costs no read.
      const limited = admitRate(c, "act", rateLimit, form.name);
      const refused = (limited === null ? null : await limited) ?? admitPin(request.headers.get("if-match"), form);
      if (refused !== null) {
        const closes = discardAct(request, message);
        log(c, started, refused.status, refused.code, null);
        return refuse(refused, closes);
      }
      return await verify(c, started, message);
    } catch (error) {
      // Only an unexpected exception gets here: every rejection returned 204 already. Failing
      // with 500 keeps an unchecked body from reaching the act (V4).
      log(c, started, 500, "fault", null);
      return fault("verification", error);
    }
  }

  async function verify(c: Context<E>, started: number, message: NodeMessage | undefined): Promise<Response> {
    const request = c.req.raw;
    const onNode = message !== undefined;
    const received = await receiveAct(request, limits, message, onNode ? continuePending(c.env) : undefined);
    if (!received.ok) {
      log(c, started, development ? problemStatus(received.code).status : 204, received.code, null);
      return reject(request, received.code, received.reason, closesUnread(request, message), onNode);
    }
    const bytes = received.value.byteLength;
    const outcome = verifyBytes(received.value, form, limits);
    if (!outcome.ok) {
      log(c, started, development ? problemStatus(outcome.code).status : 204, outcome.code, bytes);
      return reject(request, outcome.code, outcome.reason, false, onNode);
    }
    let body: string;
    try {
      body = encodeConsequence(await act(outcome.value, { actor: request.headers.get("gpt-actor"), c }));
    } catch (error) {
      if (error instanceof ActDeclined) {
        log(c, started, error.status, "declined", bytes);
        return declined(error);
      }
      log(c, started, 500, "fault", bytes);
      return fault("the act handler", error);
    }
    log(c, started, 200, null, bytes);
    return new Response(body, { status: 200, headers: actFields.init(onNode) });
  }

  const app = new Hono<E>();
  app.all("/", function gptAddress(c) {
    switch (c.req.method) {
      case "GET":
      case "HEAD": {
        const answer = rateLimit?.arrival === undefined ? arrival.answer(c.req.raw) : limitedArrival(c);
        return leavesBodyUnread(c.req.raw, c.env) ? closing(answer) : answer;
      }
      case "POST":
        return perform(c);
      case "OPTIONS": {
        const answer = new Response(null, { status: 204, headers: preflightHeaders });
        return leavesBodyUnread(c.req.raw, c.env) ? closing(answer) : answer;
      }
      default: {
        // A body the 405 leaves unread is discarded, and closes the connection as a refused act's.
        const request = c.req.raw;
        const message = nodeMessageOf(request, c.env);
        const closes = discardAct(request, message);
        log(c, Date.now(), 405, "method-not-allowed", null);
        return new Response(null, { status: 405, headers: closes ? notAllowedUnreadHeaders : notAllowedHeaders });
      }
    }
  });
  return app;
}
