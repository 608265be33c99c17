/**
 * Admission, the first stage (see `stages.ts`): what every door checks before it reads an
 * act's body, and the log entry it writes afterwards. The HTTP door (`address()`) and the MCP door call the same functions, so
 * a limit, a pin and a log line mean the same through either.
 *
 * @module
 */
import type { Context, Env } from "hono";
import { type ActLogCode, type ActLogEntry, type Door, sanitizeActor } from "./act-log.ts";
import type { CompiledForm } from "./form.ts";
import { satisfiesIfMatch } from "./precondition.ts";
import { type RateLimit, rateLimitKey } from "./rate-limit.ts";

/** A request that may not go on, and how a door answers it. */
export type Refused =
  | { readonly status: 429; readonly code: "rate-limited"; readonly retryAfterSeconds: number }
  | { readonly status: 412; readonly code: "precondition-failed" };

/**
 * Counts the request against the client's limit for `kind`, if the address has one.
 *
 * @returns `null` at once when there is no limiter for `kind` (so that a door without limits
 *   does not wait a turn of the event loop for nothing), else a promise of `null` when the
 *   request may go on, or of the 429 to answer. A limiter that throws is logged with
 *   `console.error` and lets the request through.
 */
export function admitRate<E extends Env>(
  c: Context<E>,
  kind: "arrival" | "act",
  rateLimit: RateLimit<E> | undefined,
  name: string,
): Promise<Refused | null> | null {
  const limiter = rateLimit?.[kind];
  if (limiter === undefined) return null;
  return limit(c, kind, rateLimit!, name);
}

async function limit<E extends Env>(
  c: Context<E>,
  kind: "arrival" | "act",
  rateLimit: RateLimit<E>,
  name: string,
): Promise<Refused | null> {
  const limiter = rateLimit[kind]!;
  try {
    const outcome = await limiter.limit(rateLimitKey(c, rateLimit), c);
    if (outcome.allowed) return null;
    const retryAfterSeconds = Math.max(0, Math.ceil(outcome.retryAfterSeconds));
    return { status: 429, code: "rate-limited", retryAfterSeconds };
  } catch (error) {
    console.error(`gpt-address: the ${kind} rate limiter of the address "${name}" threw`, error);
    return null;
  }
}

/**
 * Form pinning (X2): an act whose `If-Match` names no current entity-tag of `form` is refused.
 *
 * @returns `null` when the act may go on (no `If-Match`, `*`, or a current tag), else the 412.
 */
export function admitPin(ifMatch: string | null, form: Pick<CompiledForm, "etag" | "pageEtag">): Refused | null {
  return satisfiesIfMatch(ifMatch, [form.etag, form.pageEtag]) ? null : { status: 412, code: "precondition-failed" };
}

/**
 * The admit stage of an act: the client's act limit, then the form's pin (`If-Match`), both
 * before the body is read, so that a refused act costs no read.
 *
 * @param c - the request's context (the limiter's key is read from it).
 * @param form - the form acted on: its name names the limiter's bucket and messages, its tags
 *   are the pin's current ones.
 * @returns `null` (synchronously, without a limiter) when the act may go on, or the refusal;
 *   a promise of either when a limiter is asked.
 */
export function admitAct<E extends Env>(
  c: Context<E>,
  rateLimit: RateLimit<E> | undefined,
  form: Pick<CompiledForm, "name" | "etag" | "pageEtag">,
): Refused | null | Promise<Refused | null> {
  const limited = admitRate(c, "act", rateLimit, form.name);
  if (limited === null) return admitPin(c.req.raw.headers.get("if-match"), form);
  return limited.then((refused) => refused ?? admitPin(c.req.raw.headers.get("if-match"), form));
}

/**
 * Hands one entry to a log hook; a hook that throws is reported with `console.error` and never
 * changes the answer.
 */
export function emitLog(
  onLog: ((entry: ActLogEntry) => void) | undefined,
  fields: {
    readonly started: number;
    readonly address: string;
    readonly door: Door;
    readonly method: string;
    readonly status: number;
    readonly code: ActLogCode | null;
    readonly bytes: number | null;
    readonly actor: string | null;
  },
): void {
  if (onLog === undefined) return;
  const { started, actor, ...rest } = fields;
  try {
    onLog({
      time: new Date(started).toISOString(),
      ...rest,
      durationMs: Date.now() - started,
      actor: sanitizeActor(actor),
    });
  } catch (error) {
    console.error(`gpt-address: onLog of the address "${fields.address}" threw`, error);
  }
}
