/**
 * Runs on the HTTP door (docs/runs.md): the wiring of the perform stage's run case to HTTP. A
 * verified act sent with `Prefer: respond-async` (RFC 7240 §4.1; `wait=N`, §4.3) or an
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) is performed as a run
 * ({@link performRun}, the one place a run is created); one not finished within the wait is
 * answered `202 Accepted` (RFC 9110 §15.3.3) with its run URL in `Location`. The run URL,
 * `<address>/runs/<taskId>`, is a third door of the same stages: admit (the rate limit: a GET
 * counts as an arrival, a DELETE as an act) → read or cancel → answer.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7240
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.3.3
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/
 * @module
 */
import type { Context, Env } from "hono";
import { cancelRun, readRun } from "../run/engine.ts";
import type { RunStore } from "../run/run.ts";
import { idempotencyClaim } from "../run/run-id.ts";
import { admitRate } from "./admission.ts";
import type { HttpAnswers } from "./http-answers.ts";
import type { ActContext, RunsOptions } from "./options.ts";
import { FAULT, performRun, type Ran, type RunPlan, resolveRuns, waitUntilOf } from "./perform.ts";
import { type Preferences, readPrefer } from "./prefer.ts";
import type { RateLimit } from "./rate-limit.ts";
import { closing, leavesBodyUnread } from "./verification.ts";

/** The longest `Idempotency-Key` taken, in characters (it is kept only as a SHA-256). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** An address's runs on HTTP, built once by {@link httpRuns}. */
export interface HttpRuns<Act, E extends Env> {
  /**
   * The perform stage of a POST whose act passed verification, when the request asks for a
   * run (`Prefer: respond-async`, or an `Idempotency-Key`); `null` when it does not, and the
   * door acts as it always did (synchronously: nothing is read but two fields).
   *
   * @param bytes - the act's bytes as received (the idempotency fingerprint).
   * @param value - the verified act.
   */
  perform(c: Context<E>, started: number, bytes: Uint8Array, value: Act, onNode: boolean): Promise<Response> | null;
  /**
   * The run URL's handler: GET its state (HEAD: the same without content, RFC 9110 §9.3.2),
   * DELETE cancels it, OPTIONS the preflight, else 405.
   */
  door(c: Context<E>): Promise<Response>;
}

/**
 * Builds the runs of one address.
 *
 * @param act - the address's act handler.
 * @param options - the address's {@link RunsOptions}.
 * @throws {RangeError} when `maxWaitMs` or `pollIntervalMs` is not a non-negative safe integer
 *   (`pollIntervalMs` at least 1).
 */
export function httpRuns<Act, E extends Env>(
  name: string,
  act: (value: Act, context: ActContext<E>) => unknown,
  options: RunsOptions<E>,
  rateLimit: RateLimit<E> | undefined,
  answers: HttpAnswers,
): HttpRuns<Act, E> {
  const { storeOf, maxWaitMs, pollIntervalMs, maxResultBytes } = resolveRuns(options, "address()");

  async function run(
    c: Context<E>,
    started: number,
    bytes: Uint8Array,
    value: Act,
    onNode: boolean,
    prefer: Preferences,
  ) {
    const request = c.req.raw;
    const size = bytes.byteLength;
    const field = request.headers.get("idempotency-key");
    const key = field === null ? null : readIdempotencyKey(field);
    if (key === false) return answers.unrun(request, started, "idempotency-key", 400, undefined, size);
    const path = addressPath(c);
    const claim = key === null ? undefined : await idempotencyClaim(path, key, bytes);
    let ran: Ran;
    try {
      // Everything thrown here is the store's (made per request, or failing): the act's errors end its run.
      const runs: RunStore = storeOf(c);
      // An Idempotency-Key alone: the client waits as it would without runs, up to the run's end.
      const waitMs = prefer.respondAsync ? Math.min((prefer.wait ?? 0) * 1000, maxWaitMs) : runs.limits.ttlMs;
      const actor = request.headers.get("gpt-actor");
      const plan: RunPlan = {
        runs,
        waitMs,
        pollIntervalMs,
        maxResultBytes,
        forgetsAnswered: true,
        claim,
        signal: request.signal,
        waitUntil: waitUntilOf(c),
      };
      ran = await performRun(act, value, actor, c, plan, "address", name);
    } catch (error) {
      return answers.storeFault(request, started, error);
    }
    switch (ran.kind) {
      case "finished":
        return answers.performed(request, started, ran.outcome, size, onNode);
      case "running":
        if (!prefer.respondAsync) return answers.performed(request, started, FAULT, size, onNode);
        return answers.accepted(request, started, ran.run, `${path}/runs/${ran.run.taskId}`, size);
      case "quota":
        return answers.unrun(request, started, "run-quota", 503, ran.retryAfterSeconds, size);
      case "reused":
        return answers.unrun(request, started, "idempotency-key-reused", 422, undefined, size);
    }
  }

  return {
    perform(c, started, bytes, value, onNode) {
      const headers = c.req.raw.headers;
      const prefer = readPrefer(headers.get("prefer"));
      if (!prefer.respondAsync && !headers.has("idempotency-key")) return null;
      return run(c, started, bytes, value, onNode, prefer);
    },
    async door(c) {
      const started = Date.now();
      const request = c.req.raw;
      const closes = leavesBodyUnread(request, c.env);
      const answer = await state(c, started, request);
      return closes ? closing(answer) : answer;
    },
  };

  /** The run URL's answer to `method` (the request's; HEAD answered as GET, then stripped). */
  async function state(c: Context<E>, started: number, request: Request, as?: "GET"): Promise<Response> {
    const method = as ?? request.method;
    if (method === "OPTIONS") return answers.runPreflight();
    if (method === "HEAD") return await withoutContent(await state(c, started, request, "GET"));
    if (method !== "GET" && method !== "DELETE") return answers.runNotAllowed(request, started);
    try {
      const limited = admitRate(c, method === "GET" ? "arrival" : "act", rateLimit, name);
      const refused = limited === null ? null : await limited;
      if (refused !== null) return answers.refused(request, started, refused, false);
    } catch (error) {
      return answers.fault(request, started, error);
    }
    try {
      const id = c.req.param("taskId") ?? "";
      const runs = storeOf(c);
      const found = method === "GET" ? await readRun(runs, id) : await cancelRun(runs, id);
      return found === null ? answers.noRun(request, started) : answers.runState(request, started, found);
    } catch (error) {
      return answers.storeFault(request, started, error);
    }
  }
}

/**
 * The key an `Idempotency-Key` field names: an sf-string (RFC 8941 §3.3.3, `"…"` with `\"` and
 * `\\` escapes), as the draft defines it, or, tolerated, the bare visible ASCII a client sends
 * without quotes.
 *
 * @returns the key, or `false` when empty, longer than {@link MAX_IDEMPOTENCY_KEY_LENGTH}, or
 *   holding anything but printable ASCII (answered 400).
 */
export function readIdempotencyKey(field: string): string | false {
  const value = field.trim();
  let key = value;
  if (value.startsWith('"')) {
    if (value.length < 2 || !value.endsWith('"')) return false;
    key = value.slice(1, -1).replace(SF_ESCAPE, "$1");
  }
  return key.length > 0 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH && PRINTABLE.test(key) ? key : false;
}

const SF_ESCAPE = /\\([\\"])/gu;
const PRINTABLE = /^[\x20-\x7e]+$/u;

/**
 * `response` without its content: a HEAD's answer, the GET's status and fields, with the GET's
 * `Content-Length` (RFC 9110 §9.3.2, §8.6).
 */
async function withoutContent(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.set("Content-Length", String((await response.arrayBuffer()).byteLength));
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}

/** The address's own path (the request's, without a trailing `/`): a run URL's base and a key's scope. */
function addressPath<E extends Env>(c: Context<E>): string {
  const path = c.req.path;
  return path.endsWith("/") ? path.slice(0, -1) : path;
}
