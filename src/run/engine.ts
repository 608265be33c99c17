/**
 * The run engine: performs a verified act as a run kept in a {@link RunStore}, waits for it a
 * bounded time, and reads and cancels runs by id. It knows nothing of HTTP or JSON-RPC: the
 * doors render its outcomes (a finished run as today's 200 or failure, a running one as
 * `202 Accepted` + `Location`, RFC 7240 `Prefer: respond-async, wait=N`; or an MCP task).
 *
 * How a run goes:
 * 1. {@link startRun} stores the run (`working`) before anything else, so that its handle is
 *    never returned before the run is durable (SEP-2663); with an `Idempotency-Key` claim the
 *    store's insert-if-absent decides the one creator, and every other caller waits for that
 *    run instead of acting (draft-ietf-httpapi-idempotency-key-header).
 * 2. The act runs with `{ signal, progress }`. `progress(message, fraction?)` writes the status
 *    (coalesced: one write in flight, the latest pending one next). Every `pollIntervalMs` the
 *    instance reads the run back; when another instance recorded a cancel (or the run is gone)
 *    it aborts the act's `signal`. The act is also aborted at the run's expiry. The reads stop
 *    when the act ends: they are bounded by the act's life, itself bounded by the TTL for an
 *    act that heeds its signal.
 * 3. The act's end is written once: `completed` with its consequence, or `failed` (the error
 *    goes to `onFault` only, never into the run). A consequence over `maxResultBytes`, or one
 *    the store fails to keep, ends the run `failed` with a `statusMessage` saying so, and is
 *    still given to the caller that waited for it (`consequence`). A cancel written first stays.
 *
 * On Cloudflare Workers the act keeps running after the response only inside the invocation's
 * `ctx.waitUntil` (pass it as `waitUntil`): Workers keep a `waitUntil` promise for at most
 * 30 s after the response is sent (or the client disconnects), and a Worker's CPU-time limit
 * still applies; an act that may last longer belongs in a Workflow or a Durable Object alarm
 * of the application's own. Node, Bun and Deno servers keep running the promise as long as the
 * process lives; a process that ends takes its acts with it (their runs stay `working` until
 * they expire).
 *
 * @module
 */
import { encodeConsequence } from "../address/act.ts";
import {
  applyChange,
  type IdempotencyClaim,
  isTerminal,
  type Run,
  type RunChange,
  type RunRecord,
  type RunStore,
  runView,
} from "./run.ts";
import { isRunId, newRunId } from "./run-id.ts";

/** What a running act is given besides its value. */
export interface RunContext {
  /** Aborted when the run is cancelled (through any instance) or expires. */
  readonly signal: AbortSignal;
  /**
   * Records how the act is going: `message` becomes the run's `statusMessage` (at most
   * {@link MAX_STATUS_MESSAGE_LENGTH} UTF-16 code units kept), `fraction` (0 to 1) its
   * `progress`. Never throws; a store that fails is reported to `onFault`.
   */
  progress(message: string, fraction?: number): void;
}

/** An act performed as a run: its value was verified by the door before any run existed. */
export type RunAct<Value> = (value: Value, context: RunContext) => unknown;

/** Options of {@link startRun}. */
export interface StartRunOptions {
  /**
   * How long to wait for the act before answering with the run, in ms (`Prefer: wait=N` is
   * seconds: pass N × 1000, bounded by the door). 0 answers with the run at once.
   */
  readonly waitMs: number;
  /** The request's signal: when it aborts, the wait ends (the run goes on). */
  readonly signal?: AbortSignal;
  /** The act's `Idempotency-Key` claim (`idempotencyClaim`): acted on once per key. */
  readonly idempotency?: IdempotencyClaim;
  /** Keeps the act alive past the response: a Worker's `ctx.waitUntil` (see the module). */
  readonly waitUntil?: (promise: Promise<unknown>) => void;
  /** The run's `pollIntervalMs`, and how often the instance reads a cancel. Default 1,000 ms. */
  readonly pollIntervalMs?: number;
  /**
   * The consequence's largest JSON text kept in the run, in UTF-8 bytes. A larger one is not
   * kept: the run ends `failed` ({@link TOO_LARGE_MESSAGE}), while the call that ran the act and
   * is still waiting gets it as {@link RunOutcome}'s `consequence`. Default
   * {@link DEFAULT_MAX_RESULT_BYTES}; never more than the store's own
   * {@link RunStore.maxResultBytes} (the smaller one applies).
   */
  readonly maxResultBytes?: number;
  /** Receives what made a run fail (the act's error, a store's): default `console.error`. */
  readonly onFault?: (error: unknown, runId: string) => void;
  /** The clock, in ms since the epoch (tests set it; stores take theirs). */
  readonly now?: () => number;
}

/**
 * What {@link startRun} found: the run finished within the wait (the door answers as it would
 * have without a run: 200 with `run.result`, or a failure), or it still runs (202 with its
 * URL; an MCP task). Given to the call that ran the act only: `error`, what the act threw (an
 * `ActDeclined` keeps its status there), and `consequence`, the JSON text of what it returned
 * (the answer even when the run could not keep it: too large, or the store failed, and the run
 * reads `failed`). `replayed` is true when an `Idempotency-Key` found the run of an earlier act
 * with the same bytes, which was not acted on again.
 */
export type RunOutcome =
  | {
      readonly finished: true;
      readonly run: Run;
      readonly replayed: boolean;
      readonly error?: unknown;
      readonly consequence?: string;
    }
  | { readonly finished: false; readonly run: Run; readonly replayed: boolean };

/** Default of {@link StartRunOptions.pollIntervalMs}, in ms. */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** Default of {@link StartRunOptions.maxResultBytes}: 60 KiB. */
export const DEFAULT_MAX_RESULT_BYTES = 61_440;
/** The longest `statusMessage` kept, in UTF-16 code units. */
export const MAX_STATUS_MESSAGE_LENGTH = 1_024;
/** The `statusMessage` of a run whose consequence was larger than its `maxResultBytes`. */
export const TOO_LARGE_MESSAGE = "the act's answer is too large to keep";
/** The `statusMessage` of a run whose consequence the store failed to keep. */
export const UNKEPT_MESSAGE = "the act's answer could not be kept";

/**
 * The largest consequence a run in `runs` keeps, in UTF-8 bytes of its JSON: `maxResultBytes`
 * (default {@link DEFAULT_MAX_RESULT_BYTES}), and never more than the store's own maximum.
 */
export function resultCap(runs: RunStore, maxResultBytes = DEFAULT_MAX_RESULT_BYTES): number {
  return Math.min(maxResultBytes, runs.maxResultBytes ?? Number.POSITIVE_INFINITY);
}

/**
 * Runs acting through each store instance, by id: a cancel through the instance that runs the
 * act aborts it at once; through any other, at the runner's next read.
 */
const actingThrough = new WeakMap<RunStore, Map<string, AbortController>>();

function acting(runs: RunStore): Map<string, AbortController> {
  let map = actingThrough.get(runs);
  if (map === undefined) {
    map = new Map();
    actingThrough.set(runs, map);
  }
  return map;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Performs `act` on `value` as a run kept in `runs`, and waits up to `waitMs` for it.
 *
 * @example
 * ```ts
 * const outcome = await startRun(runs, (page, { signal, progress }) => render(page, signal), value, {
 *   waitMs: 5_000,
 *   waitUntil: (promise) => ctx.waitUntil(promise),
 * });
 * if (outcome.finished) return json(outcome.run.result); // as without a run
 * return accepted(`/runs/${outcome.run.taskId}`);
 * ```
 * @throws {RunQuotaExceeded} when the store holds its quota (the door: 503 + `Retry-After`).
 * @throws {IdempotencyKeyReused} when the claim's key was used with other bytes (422).
 * @throws the store's error when it cannot store the run: nothing was acted on.
 */
export async function startRun<Value>(
  runs: RunStore,
  act: RunAct<Value>,
  value: Value,
  options: StartRunOptions,
): Promise<RunOutcome> {
  const now = options.now ?? Date.now;
  const pollIntervalMs = Math.max(1, options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const created = now();
  const record: RunRecord = {
    id: newRunId(),
    status: "working",
    createdAt: created,
    lastUpdatedAt: created,
    expiresAt: created + runs.limits.ttlMs,
    pollIntervalMs,
  };
  const stored = await runs.create(record, options.idempotency);
  if (!stored.created) return waitForRun(runs, stored.id, options.waitMs, options.signal, pollIntervalMs);
  const execution = perform(runs, record, act, value, options, now);
  options.waitUntil?.(execution.done);
  const done = await within(execution.done, options.waitMs, options.signal);
  if (done !== undefined) return { finished: true, run: runView(done.record), replayed: false, ...done.own };
  const latest = execution.latest();
  return isTerminal(latest.status)
    ? { finished: true, run: runView(latest), replayed: false }
    : { finished: false, run: runView(latest), replayed: false };
}

/** The run `id` as the doors show it, or `null` when it is unknown, expired or not a run id. */
export async function readRun(runs: RunStore, id: string): Promise<Run | null> {
  if (!isRunId(id)) return null;
  const record = await runs.get(id);
  return record === null ? null : runView(record);
}

/**
 * Cancels the run `id` (MCP `tasks/cancel`, HTTP `DELETE` of the run URL): records `cancelled`
 * unless the run is terminal already, and returns the run as it then is (`status` tells which:
 * a run that had finished keeps its status). The instance acting on it aborts the act's signal
 * at once when it runs through this store instance, else at its next read, within
 * `pollIntervalMs`.
 *
 * @returns `null` when the run is unknown, expired or `id` is not a run id.
 */
export async function cancelRun(runs: RunStore, id: string): Promise<Run | null> {
  if (!isRunId(id)) return null;
  const record = await runs.update(id, { status: "cancelled" });
  if (record?.status === "cancelled")
    acting(runs).get(id)?.abort(new DOMException("the run was cancelled", "AbortError"));
  return record === null ? null : runView(record);
}

/** `promise`'s value, or `undefined` once `ms` have passed or `signal` aborted. */
async function within<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T | undefined> {
  if (signal?.aborted) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms), undefined);
    onAbort = () => resolve(undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Waits up to `waitMs` for the run `id` (another caller's, found by an idempotency claim) to
 * finish, reading it every 10 ms at first, twice as long each time up to `pollIntervalMs`.
 */
async function waitForRun(
  runs: RunStore,
  id: string,
  waitMs: number,
  signal: AbortSignal | undefined,
  pollIntervalMs: number,
): Promise<RunOutcome> {
  const deadline = Date.now() + Math.max(0, waitMs);
  let pause = 10;
  for (;;) {
    const record = await runs.get(id);
    if (record === null) throw new Error(`the run ${id} of an idempotency key is gone`);
    if (isTerminal(record.status)) return { finished: true, run: runView(record), replayed: true };
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) return { finished: false, run: runView(record), replayed: true };
    await sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, Math.max(10, pollIntervalMs));
  }
}

/**
 * The act running: `done` settles (never rejects) once its end is written, with what only the
 * call that ran it learns (`own`: the error thrown, or the consequence's JSON text); `latest` is
 * the run as last written.
 */
interface Execution {
  readonly done: Promise<{
    readonly record: RunRecord;
    readonly own: { readonly error: unknown } | { readonly consequence: string };
  }>;
  latest(): RunRecord;
}

function perform<Value>(
  runs: RunStore,
  record: RunRecord,
  act: RunAct<Value>,
  value: Value,
  options: StartRunOptions,
  now: () => number,
): Execution {
  const { id, pollIntervalMs } = record;
  const onFault = options.onFault ?? ((error: unknown) => console.error(`gpt-address: run ${id} failed:`, error));
  const maxResultBytes = resultCap(runs, options.maxResultBytes);
  const controller = new AbortController();
  acting(runs).set(id, controller);
  let latest = record;
  let ended = false;
  const seen = (stored: RunRecord | null) => {
    if (stored === null || stored.status === "cancelled") {
      controller.abort(new DOMException(stored === null ? "the run expired" : "the run was cancelled", "AbortError"));
    }
    if (stored !== null) latest = stored;
  };

  // The run's expiry ends the act; a cancel recorded elsewhere is read every pollIntervalMs.
  const expiry = setTimeout(
    () => controller.abort(new DOMException("the run expired", "TimeoutError")),
    Math.max(0, record.expiresAt - now()),
  );
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  const poll = () => {
    pollTimer = setTimeout(async () => {
      if (ended || controller.signal.aborted) return;
      try {
        seen(await runs.get(id));
      } catch (error) {
        onFault(error, id);
      }
      if (!ended && !controller.signal.aborted) poll();
    }, pollIntervalMs);
  };
  poll();

  // Progress writes: one in flight, the latest pending one after it.
  let pending: RunChange | null = null;
  let writing: Promise<void> | null = null;
  const flush = async () => {
    while (pending !== null) {
      const change = pending;
      pending = null;
      try {
        seen(await runs.update(id, change));
      } catch (error) {
        onFault(error, id);
      }
    }
    writing = null;
  };
  const progress = (message: string, fraction?: number) => {
    if (ended) return;
    const statusMessage = String(message).slice(0, MAX_STATUS_MESSAGE_LENGTH);
    const valid = typeof fraction === "number" && fraction >= 0 && fraction <= 1;
    pending = { status: "working", statusMessage, ...(valid ? { progress: fraction } : {}) };
    writing ??= flush();
  };

  const finish = async (change: RunChange): Promise<RunRecord> => {
    try {
      const stored = await runs.update(id, change);
      if (stored !== null) return stored;
    } catch (error) {
      onFault(error, id);
      if (change.status === "completed") {
        // The consequence could not be kept (a value too large for the store): the run fails.
        try {
          const stored = await runs.update(id, { status: "failed", statusMessage: UNKEPT_MESSAGE });
          if (stored !== null) return stored;
        } catch (again) {
          onFault(again, id);
        }
      }
    }
    // The run is gone (expired) or the store failed: what it would have become.
    return applyChange(latest, change, now()) ?? latest;
  };

  const done = (async () => {
    let change: RunChange;
    let own: { error: unknown } | { consequence: string };
    try {
      const json = encodeConsequence(await act(value, { signal: controller.signal, progress }));
      own = { consequence: json };
      const bytes = new TextEncoder().encode(json).length;
      if (bytes > maxResultBytes) {
        // Performed, but not kept: the waiting caller still answers it; the run says why it has no result.
        onFault(new RangeError(`the act's consequence is ${bytes} bytes, over maxResultBytes ${maxResultBytes}`), id);
        change = { status: "failed", statusMessage: TOO_LARGE_MESSAGE };
      } else change = { status: "completed", result: JSON.parse(json) };
    } catch (error) {
      own = { error };
      if (!controller.signal.aborted) onFault(error, id);
      change = { status: "failed" };
    }
    ended = true;
    clearTimeout(expiry);
    clearTimeout(pollTimer);
    pending = null;
    await writing;
    const final = await finish(change);
    latest = final;
    acting(runs).delete(id);
    return { record: final, own };
  })();
  return { done, latest: () => latest };
}
