/**
 * The perform stage (see `stages.ts`): a verified act handed to its handler, the consequence
 * encoded as the JSON text every door sends (R1). Both doors call {@link performAct} for an
 * act performed within its request, and {@link performRun} for an act performed as a run
 * (docs/runs.md): the one place a run is created, always after verification. A declined act
 * and a throwing handler mean the same through either door.
 *
 * @module
 */
import type { Context, Env } from "hono";
import {
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_POLL_INTERVAL_MS,
  type RunOutcome,
  resultCap,
  startRun,
} from "../run/engine.ts";
import { type IdempotencyClaim, IdempotencyKeyReused, type Run, RunQuotaExceeded, type RunStore } from "../run/run.ts";
import { ActDeclined, encodeConsequence } from "./act.ts";
import type { ActContext, RunsOptions } from "./options.ts";

/**
 * An act its handler did not perform: it declined (`ActDeclined`, with its status), or it threw
 * anything else (a fault of the server, logged here with `console.error`).
 */
export type Unperformed = { readonly code: "declined"; readonly declined: ActDeclined } | { readonly code: "fault" };

/** The one fault outcome (frozen: a fault allocates nothing). */
export const FAULT: Unperformed = Object.freeze({ code: "fault" });

/**
 * The context of an act performed within its request: `signal` is the request's, made only when
 * the handler asks for it (on @hono/node-server, an `AbortController` made on first use);
 * `progress` does nothing.
 */
export class RequestActContext<E extends Env = Env> implements ActContext<E> {
  readonly actor: string | null;
  readonly c: Context<E>;
  constructor(actor: string | null, c: Context<E>) {
    this.actor = actor;
    this.c = c;
  }
  get signal(): AbortSignal {
    return this.c.req.raw.signal;
  }
  progress(): void {}
}

/**
 * Performs a verified act: calls `act` with the value and the door's context, and encodes what
 * it returns ({@link encodeConsequence}).
 *
 * A handler that returns a plain value is answered without waiting a turn of the microtask
 * queue: the outcome comes back as is, and a promise only when the handler returned one (any
 * thenable, awaited; its `then` is then read twice). On a 1 KiB act on Node, the two awaits an
 * async wrapper cost were about 1 % of the server's CPU per act (issue 31).
 *
 * @param act - the address's act handler.
 * @param value - the value that passed verification (never anything else).
 * @param context - what the handler receives besides the value (`ActContext`).
 * @param subject - what the handler serves, as a fault's message names it: `address`, `tool`.
 * @param name - its name (the form's, or the tool's).
 * @returns the consequence's JSON text, or the {@link Unperformed} outcome; a promise of either
 *   when the handler returned a thenable. Never throws, never rejects.
 */
export function performAct<Value, Context>(
  act: (value: Value, context: Context) => unknown,
  value: Value,
  context: Context,
  subject: string,
  name: string,
): string | Unperformed | Promise<string | Unperformed> {
  let result: unknown;
  try {
    result = act(value, context);
    if (!isThenable(result)) return encodeConsequence(result);
  } catch (error) {
    return unperformed(error, subject, name);
  }
  return settle(result, subject, name);
}

/** {@link performAct} of a handler that returned a thenable: its value, once settled. */
async function settle(result: PromiseLike<unknown>, subject: string, name: string): Promise<string | Unperformed> {
  try {
    return encodeConsequence(await result);
  } catch (error) {
    return unperformed(error, subject, name);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    ((typeof value === "object" && value !== null) || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** Why a handler's act was not performed: it declined, or it threw anything else (logged). */
function unperformed(error: unknown, subject: string, name: string): Unperformed {
  if (error instanceof ActDeclined) return { code: "declined", declined: error };
  console.error(`gpt-address: the act handler of the ${subject} "${name}" threw`, error);
  return FAULT;
}

/** How a door asks for a run, from its wire format (HTTP `Prefer`, an MCP task). */
export interface RunPlan {
  /** The store the run is kept in. */
  readonly runs: RunStore;
  /** How long to wait for the act before answering with the run, in ms (0: at once). */
  readonly waitMs: number;
  /** The run's `pollIntervalMs`, in ms. */
  readonly pollIntervalMs: number;
  /** The largest consequence kept in the run, in UTF-8 bytes of its JSON (`startRun`'s `maxResultBytes`). */
  readonly maxResultBytes: number;
  /**
   * Whether the door answers a run finished within the wait with the act's own outcome, never
   * naming the run (HTTP; an MCP 2026-07-28 tool result). Such a run, unless an
   * `Idempotency-Key` claims it, is deleted once answered: nobody could read it, and it would
   * hold a place in the store's quota until its TTL.
   */
  readonly forgetsAnswered: boolean;
  /** The act's `Idempotency-Key` claim: acted on once per key. */
  readonly claim?: IdempotencyClaim | undefined;
  /** The request's signal: when it aborts, the wait ends (the run goes on). */
  readonly signal?: AbortSignal | undefined;
  /** Keeps the act alive past the answer (a Worker's `ctx.waitUntil`). */
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/**
 * What {@link performRun} found: the act `finished` within the wait (the door answers exactly as
 * without a run, from `outcome`), or is still `running` (the door renders `run`: 202, an MCP
 * task); or no run was made: the store holds its `quota` (503 + `Retry-After`), or the
 * `Idempotency-Key` was `reused` with other bytes (422).
 */
export type Ran =
  | { readonly kind: "finished"; readonly outcome: string | Unperformed; readonly run: Run }
  | { readonly kind: "running"; readonly run: Run }
  | { readonly kind: "quota"; readonly retryAfterSeconds: number }
  | { readonly kind: "reused" };

const REUSED: Ran = Object.freeze({ kind: "reused" });

/**
 * Performs a verified act as a run (`startRun`): the run is stored before the act starts, the
 * handler gets the run's `signal` (cancel, expiry) and `progress`, and the door waits up to
 * `plan.waitMs` for it. A handler that throws fails its run; the error goes to
 * `console.error` only (an `ActDeclined` not even there), never into the run. A run finished
 * within the wait that the door answers with its outcome and no key claims is deleted
 * ({@link RunPlan.forgetsAnswered}); a store failing that is logged, and the answer stands.
 *
 * @param act - the address's act handler.
 * @param value - the value that passed verification: no run exists for any other.
 * @param actor - the `GPT-Actor` field, or `null` (H1).
 * @param c - the request's context, as the handler receives it.
 * @param plan - {@link RunPlan}.
 * @param subject - `address` or `tool`, as a fault's message names it; `name` its name.
 * @returns the {@link Ran} outcome.
 * @throws the store's error when it cannot store or read the run (a fault: nothing was acted on
 *   when it could not be stored).
 * @see https://www.rfc-editor.org/rfc/rfc7240#section-4.1
 * @see https://modelcontextprotocol.io/seps/2663-tasks-extension
 */
export async function performRun<Value, E extends Env>(
  act: (value: Value, context: ActContext<E>) => unknown,
  value: Value,
  actor: string | null,
  c: Context<E>,
  plan: RunPlan,
  subject: string,
  name: string,
): Promise<Ran> {
  const onFault = (error: unknown, runId: string) => {
    if (error instanceof ActDeclined) return;
    console.error(`gpt-address: a run (${runId}) of the ${subject} "${name}" failed`, error);
  };
  let outcome: RunOutcome;
  try {
    outcome = await startRun(
      plan.runs,
      (v: Value, run) => act(v, { actor, c, signal: run.signal, progress: run.progress }),
      value,
      {
        waitMs: plan.waitMs,
        pollIntervalMs: plan.pollIntervalMs,
        idempotency: plan.claim,
        signal: plan.signal,
        waitUntil: plan.waitUntil,
        maxResultBytes: plan.maxResultBytes,
        onFault,
      },
    );
  } catch (error) {
    if (error instanceof RunQuotaExceeded) return { kind: "quota", retryAfterSeconds: error.retryAfterSeconds };
    if (error instanceof IdempotencyKeyReused) return REUSED;
    throw error;
  }
  if (!outcome.finished) return { kind: "running", run: outcome.run };
  if (plan.forgetsAnswered && plan.claim === undefined && !outcome.replayed) {
    try {
      await plan.runs.delete(outcome.run.taskId);
    } catch (error) {
      console.error(
        `gpt-address: the run store of the ${subject} "${name}" failed to delete run ${outcome.run.taskId}`,
        error,
      );
    }
  }
  return {
    kind: "finished",
    outcome: consequenceOf(outcome.run, outcome.error, outcome.consequence),
    run: outcome.run,
  };
}

/**
 * A finished run as the synchronous answer would have been: the consequence's JSON text when
 * `completed`; for the request that ran the act (the only one that knows them), the
 * `ActDeclined` its handler threw, or the consequence's JSON text the run could not keep (too
 * large; the run reads `failed`); else a fault (a failure, a cancel, or a replayed failure: 500
 * with no reason, R2).
 */
export function consequenceOf(run: Run, error?: unknown, consequence?: string): string | Unperformed {
  if (run.status === "completed") return JSON.stringify(run.result ?? null);
  if (error instanceof ActDeclined) return { code: "declined", declined: error };
  if (consequence !== undefined && run.status === "failed") return consequence;
  return FAULT;
}

/** Default of `RunsOptions.maxWaitMs`: the longest wait for an act before its run is answered, 10 s. */
export const DEFAULT_MAX_WAIT_MS = 10_000;

/** {@link RunsOptions} resolved once, for either door. */
export interface ResolvedRuns<E extends Env = Env> {
  /** The store of a request. */
  readonly storeOf: (c: Context<E>) => RunStore;
  /** In ms. */
  readonly maxWaitMs: number;
  /** In ms, at least 1. */
  readonly pollIntervalMs: number;
  /** In UTF-8 bytes, at least 1 (`startRun` keeps it under a store's own maximum). */
  readonly maxResultBytes: number;
}

/**
 * Resolves an address's {@link RunsOptions}.
 *
 * @param who - the caller named in an error (`address()`, `mcp()`).
 * @throws {RangeError} when `maxWaitMs` is not a non-negative safe integer, `pollIntervalMs` or
 *   `maxResultBytes` not a positive one, or `maxResultBytes` is over the store's own
 *   `maxResultBytes` (a store given as an object; one made per request is held to its own
 *   maximum when acting, `resultCap`).
 */
export function resolveRuns<E extends Env>(options: RunsOptions<E>, who: string): ResolvedRuns<E> {
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const { store } = options;
  const given = options.maxResultBytes;
  const maxResultBytes = given ?? (typeof store === "function" ? DEFAULT_MAX_RESULT_BYTES : resultCap(store));
  if (!Number.isSafeInteger(maxWaitMs) || maxWaitMs < 0)
    throw new RangeError(`${who}: runs.maxWaitMs must be a non-negative safe integer, got ${maxWaitMs}`);
  if (!Number.isSafeInteger(pollIntervalMs) || pollIntervalMs < 1)
    throw new RangeError(`${who}: runs.pollIntervalMs must be a positive safe integer, got ${pollIntervalMs}`);
  if (!Number.isSafeInteger(maxResultBytes) || maxResultBytes < 1)
    throw new RangeError(`${who}: runs.maxResultBytes must be a positive safe integer, got ${maxResultBytes}`);
  const own = typeof store === "function" ? undefined : store.maxResultBytes;
  if (own !== undefined && maxResultBytes > own)
    throw new RangeError(`${who}: runs.maxResultBytes ${maxResultBytes} is over the run store's own maximum, ${own}`);
  return { storeOf: typeof store === "function" ? store : () => store, maxWaitMs, pollIntervalMs, maxResultBytes };
}

/** A Worker's `ctx.waitUntil`, or `undefined` off Workers (Hono's `executionCtx` then throws). */
export function waitUntilOf<E extends Env>(c: Context<E>): ((promise: Promise<unknown>) => void) | undefined {
  try {
    const context = c.executionCtx;
    return (promise) => context.waitUntil(promise);
  } catch {
    return undefined;
  }
}
