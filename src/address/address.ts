/**
 * `address()`: one GPT address as a Hono app (draft: Arrival, The Act, Verification). The HTTP
 * door is the wiring of the shared stages (`stages.ts`) to HTTP: its options live in
 * `options.ts`, its answers in `http-answers.ts`.
 *
 * @module
 */

import type { Context, Env } from "hono";
import { Hono } from "hono";
import { continuePending, nodeMessageOf } from "../body/node-message.ts";
import { admitAct, admitRate } from "./admission.ts";
import { prepareArrival } from "./arrival.ts";
import { httpAnswers } from "./http-answers.ts";
import { httpRuns } from "./http-runs.ts";
import type { AddressOptions } from "./options.ts";
import { performAct, RequestActContext } from "./perform.ts";
import { reporter } from "./report.ts";
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
export type { ActContext, AddressOptions } from "./options.ts";
export { DEFAULT_MAX_BYTES } from "./verification.ts";

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
 * {@link prepareArrival}; a POST passes the stages every door shares (`stages.ts`): admit
 * (rate, pin) → receive → verify → perform → answer (`http-answers.ts`). This function only
 * wires them to Hono.
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
  const { form, act, rateLimit, development = false } = options;
  // Development mode (X3) names the line and column of a syntax error, at the cost of a pass over the body.
  const limits = { ...verificationLimits(form, options), lineColumn: development };
  // Precomputed once: GET does header matching and nothing else (S4).
  const arrival = prepareArrival(form, options);
  const report = reporter("http", `the address "${form.name}"`, options);
  const answers = httpAnswers(form.name, report, development, options.runs !== undefined);
  const runs = options.runs === undefined ? undefined : httpRuns(form.name, act, options.runs, rateLimit, answers);

  async function limitedArrival(c: Context<E>, started: number): Promise<Response> {
    const refused = await admitRate(c, "arrival", rateLimit, form.name);
    return refused === null ? arrival.answer(c.req.raw) : answers.refused(c.req.raw, started, refused, false);
  }

  /** POST: admit → receive → verify → perform → answer. */
  async function post(c: Context<E>): Promise<Response> {
    const started = Date.now();
    const request = c.req.raw;
    // On Node (@hono/node-server), the body is read from the message itself (issue 16).
    const message = nodeMessageOf(request, c.env);
    const onNode = message !== undefined;
    try {
      const admitted = admitAct(c, rateLimit, form);
      const refused = admitted instanceof Promise ? await admitted : admitted;
      if (refused !== null) return answers.refused(request, started, refused, discardAct(request, message));
      const received = await receiveAct(request, limits, message, onNode ? continuePending(c.env) : undefined);
      if (!received.ok)
        return answers.rejected(request, started, received, null, closesUnread(request, message), onNode);
      const bytes = received.value.byteLength;
      const verified = verifyBytes(received.value, form, limits);
      if (!verified.ok) return answers.rejected(request, started, verified, bytes, false, onNode);
      // perform: as a run when the request asks for one (http-runs.ts), else within the request.
      const ran = runs?.perform(c, started, received.value, verified.value, onNode) ?? null;
      if (ran !== null) return await ran;
      const context = new RequestActContext(request.headers.get("gpt-actor"), c);
      const performed = performAct(act, verified.value, context, "address", form.name);
      const outcome = performed instanceof Promise ? await performed : performed;
      return answers.performed(request, started, outcome, bytes, onNode);
    } catch (error) {
      return answers.fault(request, started, error);
    }
  }

  const app = new Hono<E>();
  if (runs !== undefined)
    app.all("/runs/:taskId", function gptAddressRun(c) {
      return runs.door(c);
    });
  app.all("/", function gptAddress(c) {
    const request = c.req.raw;
    switch (request.method) {
      case "GET":
      case "HEAD": {
        const answer = rateLimit?.arrival === undefined ? arrival.answer(request) : limitedArrival(c, Date.now());
        return leavesBodyUnread(request, c.env) ? closing(answer) : answer;
      }
      case "POST":
        return post(c);
      case "OPTIONS": {
        const answer = answers.preflight();
        return leavesBodyUnread(request, c.env) ? closing(answer) : answer;
      }
      default:
        // A body the 405 leaves unread is discarded, and closes the connection as a refused act's.
        return answers.notAllowed(request, Date.now(), discardAct(request, nodeMessageOf(request, c.env)));
    }
  });
  return app;
}
