/**
 * The answer stage of the HTTP door (see `stages.ts`): every outcome of an act, or of a request
 * refused before one, as the `Response` the address sends, with its report (`report.ts`). Built
 * once per address by {@link httpAnswers}: every header record is made here, at construction,
 * and an answer picks one (nothing is spread per request on the common paths).
 *
 * @module
 */

import type { Run } from "../run/run.ts";
import type { Refused } from "./admission.ts";
import { AnswerFields } from "./answer-fields.ts";
import type { HeaderList } from "./arrival.ts";
import type { Unperformed } from "./perform.ts";
import { problemStatus } from "./rejection.ts";
import type { Reporter } from "./report.ts";
import type { Refusal } from "./verification.ts";

/** The methods an address answers. */
export const ALLOW = "GET, HEAD, POST, OPTIONS";

/** The answers of one address; `started` is `Date.now()` at the request's entry. */
export interface HttpAnswers {
  /** The CORS preflight (OPTIONS): 204 with the methods and request fields allowed. */
  preflight(): Response;
  /**
   * A request refused by admission, before its body was read: 429 with `Retry-After`, or 412.
   * `closes`: with `Connection: close` (a body left unread, `discardAct`).
   */
  refused(request: Request, started: number, refused: Refused, closes: boolean): Response;
  /**
   * A rejected act (receive or verify refused it): 204 with no body (R2), or in development
   * mode an RFC 9457 problem; reported to `onReject`. `bytes`: the body's size when it was read;
   * `closes` as for {@link refused}; `onNode`: the request came as a Node message.
   */
  rejected(
    request: Request,
    started: number,
    refusal: Refusal,
    bytes: number | null,
    closes: boolean,
    onNode: boolean,
  ): Response;
  /**
   * A verified act after the perform stage: 200 with the consequence's JSON text (R1), the
   * status of an act its handler declined, or 500 for a fault.
   */
  performed(request: Request, started: number, outcome: string | Unperformed, bytes: number, onNode: boolean): Response;
  /** A fault of a stage (never bad input): logged with `console.error`, 500, nothing acted on. */
  fault(request: Request, started: number, error: unknown): Response;
  /**
   * A fault of the run store (it threw, or the function making it did): logged with
   * `console.error` as the run store's, 500. A run it failed to create was not acted on.
   */
  storeFault(request: Request, started: number, error: unknown): Response;
  /** A method the address does not answer: 405 with `Allow`; `closes` as for {@link refused}. */
  notAllowed(request: Request, started: number, closes: boolean): Response;
  /**
   * An act not finished within its wait (RFC 7240 `respond-async`): 202 Accepted (RFC 9110
   * §15.3.3) with the run URL in `Location`, `Preference-Applied`, `Retry-After` (the run's
   * `pollIntervalMs` in seconds, rounded up), and the run as JSON.
   */
  accepted(request: Request, started: number, run: Run, location: string, bytes: number): Response;
  /** An act that asked for a run and got none: 503 with `Retry-After` (quota), 422 (key reused), 400 (bad key). */
  unrun(
    request: Request,
    started: number,
    code: "run-quota" | "idempotency-key" | "idempotency-key-reused",
    status: 400 | 422 | 503,
    retryAfterSeconds: number | undefined,
    bytes: number,
  ): Response;
  /** A run URL's GET or DELETE: 200 with the run as JSON (`Retry-After` while it works). */
  runState(request: Request, started: number, run: Run): Response;
  /** An unknown, expired or malformed run: 404 with no body, saying nothing more. */
  noRun(request: Request, started: number): Response;
  /** The CORS preflight of a run URL (GET, HEAD, DELETE). */
  runPreflight(): Response;
  /** A method a run URL does not answer: 405 with `Allow: GET, HEAD, DELETE, OPTIONS`. */
  runNotAllowed(request: Request, started: number): Response;
}

/** The methods a run URL answers. */
export const RUN_ALLOW = "GET, HEAD, DELETE, OPTIONS";
/** The fields a script may read of a run's answers (CORS). */
const RUN_EXPOSE = "Location, Preference-Applied, Retry-After";

/**
 * Builds the answers of one address.
 *
 * @param name - the form's name (log entries' `address`, fault messages).
 * @param report - the address's {@link Reporter}.
 * @param development - development mode (X3): a rejection is a problem report naming its code.
 * @param runs - whether the address offers runs: its preflight then allows `Prefer` and
 *   `Idempotency-Key`.
 * @see https://www.rfc-editor.org/rfc/rfc9457 (problem details)
 * @see https://www.rfc-editor.org/rfc/rfc7240#section-3 (Preference-Applied)
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-8.6 (Content-Length)
 */
export function httpAnswers(name: string, report: Reporter, development: boolean, runs = false): HttpAnswers {
  const requestFields = "Content-Type, GPT-Actor, If-None-Match, If-Match";
  const preflightHeaders: HeaderList = [
    ["Allow", ALLOW],
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Allow-Methods", ALLOW],
    ["Access-Control-Allow-Headers", runs ? `${requestFields}, Prefer, Idempotency-Key` : requestFields],
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
  const emptyFields = new AnswerFields({ "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" });
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
  const runNotAllowedHeaders = noContent({ Allow: RUN_ALLOW, ...emptyHeaders });
  const runPreflightHeaders: HeaderList = [
    ["Allow", RUN_ALLOW],
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Allow-Methods", RUN_ALLOW],
    ["Access-Control-Allow-Headers", "GPT-Actor"],
    ["Access-Control-Max-Age", "86400"],
  ];
  const runFields = Object.freeze({ ...actFields.record, "Access-Control-Expose-Headers": RUN_EXPOSE });
  /** A run as JSON, with `Retry-After` while it is not terminal. */
  const runAnswer = (status: number, run: Run, extra?: Record<string, string>) => {
    const working = run.status === "working" || run.status === "input_required";
    const headers =
      working || extra !== undefined
        ? {
            ...runFields,
            ...extra,
            ...(working ? { "Retry-After": String(Math.ceil(run.pollIntervalMs / 1000)) } : {}),
          }
        : runFields;
    return new Response(JSON.stringify(run), { status, headers });
  };

  /** An empty answer of `status`, with `Retry-After` when `retryAfterSeconds` is given. */
  function empty(status: number, retryAfterSeconds: number | undefined, closes = false): Response {
    const headers = closes ? unreadEmptyBodyHeaders : emptyBodyHeaders;
    if (retryAfterSeconds === undefined) return new Response(null, { status, headers });
    return new Response(null, {
      status,
      headers: {
        "Retry-After": String(retryAfterSeconds),
        "Access-Control-Expose-Headers": "Retry-After",
        ...headers,
      },
    });
  }

  return {
    preflight: () => new Response(null, { status: 204, headers: preflightHeaders }),
    refused(request, started, refused, closes) {
      report.log(request, started, name, refused.status, refused.code, null);
      return empty(refused.status, refused.status === 429 ? refused.retryAfterSeconds : undefined, closes);
    },
    rejected(request, started, refusal, bytes, closes, onNode) {
      const { code, reason } = refusal;
      report.log(request, started, name, development ? problemStatus(code).status : 204, code, bytes);
      report.reject(request, code, reason);
      if (development) {
        const { status, title } = problemStatus(code);
        const problem = JSON.stringify({ type: "about:blank", title, status, detail: reason, code });
        return new Response(problem, {
          status,
          headers: { "Content-Type": "application/problem+json", "X-Content-Type-Options": "nosniff", ...emptyHeaders },
        });
      }
      return new Response(null, { status: 204, headers: closes ? unreadHeaders : emptyFields.init(onNode) });
    },
    performed(request, started, outcome, bytes, onNode) {
      if (typeof outcome === "string") {
        report.log(request, started, name, 200, null, bytes);
        return new Response(outcome, { status: 200, headers: actFields.init(onNode) });
      }
      if (outcome.code === "declined") {
        // A valid act its handler declined: its status, no body, `Retry-After` when it gave one.
        const { status, retryAfterSeconds } = outcome.declined;
        report.log(request, started, name, status, "declined", bytes);
        return empty(status, retryAfterSeconds);
      }
      report.log(request, started, name, 500, "fault", bytes);
      return empty(500, undefined);
    },
    fault(request, started, error) {
      // Only an unexpected exception gets here: every rejection was answered 204 already.
      // Failing with 500 keeps an unchecked body from reaching the act (V4).
      report.log(request, started, name, 500, "fault", null);
      console.error(`gpt-address: verification of the address "${name}" threw`, error);
      return empty(500, undefined);
    },
    storeFault(request, started, error) {
      report.log(request, started, name, 500, "fault", null);
      console.error(`gpt-address: the run store of the address "${name}" threw`, error);
      return empty(500, undefined);
    },
    notAllowed(request, started, closes) {
      report.log(request, started, name, 405, "method-not-allowed", null);
      return new Response(null, { status: 405, headers: closes ? notAllowedUnreadHeaders : notAllowedHeaders });
    },
    accepted(request, started, run, location, bytes) {
      report.log(request, started, name, 202, null, bytes);
      return runAnswer(202, run, { Location: location, "Preference-Applied": "respond-async" });
    },
    unrun(request, started, code, status, retryAfterSeconds, bytes) {
      report.log(request, started, name, status, code, bytes);
      return empty(status, retryAfterSeconds);
    },
    runState(request, started, run) {
      report.log(request, started, name, 200, null, null);
      return runAnswer(200, run);
    },
    noRun(request, started) {
      report.log(request, started, name, 404, null, null);
      return empty(404, undefined);
    },
    runPreflight: () => new Response(null, { status: 204, headers: runPreflightHeaders }),
    runNotAllowed(request, started) {
      report.log(request, started, name, 405, "method-not-allowed", null);
      return new Response(null, { status: 405, headers: runNotAllowedHeaders });
    },
  };
}
