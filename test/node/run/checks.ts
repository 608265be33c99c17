/**
 * The behaviour every run store must show, as plain async checks that throw on failure, so that
 * the same checks run under vitest (memory, `node:sqlite`) and inside Deno (Deno KV) and Bun
 * (`bun:sqlite`) processes, which import this file directly. Each check opens a fresh pair of
 * store instances sharing one engine ("instance a" and "instance b": two connections to one
 * file, two handles on one KV), with its own clock, so that TTLs are tested without waiting.
 */
import {
  cancelRun,
  IdempotencyKeyReused,
  idempotencyClaim,
  newRunId,
  type RunLimits,
  type RunOutcome,
  RunQuotaExceeded,
  type RunStore,
  readRun,
  startRun,
} from "../../../src/run/index.ts";

/** Two instances of one store, and what to close after the check. */
export interface StorePair {
  readonly a: RunStore;
  readonly b: RunStore;
  close?(): void | Promise<void>;
}

/** Opens a fresh pair for the check `name` with `limits` and the clock `now`. */
export type OpenPair = (name: string, limits: RunLimits, now: () => number) => StorePair | Promise<StorePair>;

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `read` every 20 ms until `done` holds, for at most `ms`; the last value read. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms (last ${JSON.stringify(value)})`);
    await sleep(20);
  }
}

const LIMITS: RunLimits = { maxRuns: 100, ttlMs: 60_000 };

/** A clock that tests move forward. */
function clock() {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
}

/** Opens a pair, runs `body`, closes the pair. */
async function using(
  open: OpenPair,
  name: string,
  limits: RunLimits,
  body: (pair: StorePair, time: ReturnType<typeof clock>) => Promise<void>,
): Promise<void> {
  const time = clock();
  const pair = await open(name, limits, time.now);
  try {
    await body(pair, time);
  } finally {
    await pair.close?.();
  }
}

export const CHECKS: Readonly<Record<string, (open: OpenPair) => Promise<void>>> = {
  "an act finished within the wait is the outcome, and the run reads the same through the other instance": (open) =>
    using(open, "finished", LIMITS, async ({ a, b }, time) => {
      const outcome = await startRun(
        a,
        async (value: { x: number }) => ({ got: value }),
        { x: 1 },
        {
          waitMs: 5_000,
          now: time.now,
        },
      );
      assert(outcome.finished && !outcome.replayed, `finished: ${JSON.stringify(outcome)}`);
      assert(outcome.run.status === "completed", `status ${outcome.run.status}`);
      assert(JSON.stringify(outcome.run.result) === '{"got":{"x":1}}', `result ${JSON.stringify(outcome.run.result)}`);
      assert(/^[A-Za-z0-9_-]{22}$/.test(outcome.run.taskId), `taskId ${outcome.run.taskId}`);
      assert(outcome.run.ttlMs === LIMITS.ttlMs, `ttlMs ${outcome.run.ttlMs}`);
      assert(!Number.isNaN(Date.parse(outcome.run.createdAt)), `createdAt ${outcome.run.createdAt}`);
      const read = await readRun(b, outcome.run.taskId);
      assert(JSON.stringify(read) === JSON.stringify(outcome.run), `read ${JSON.stringify(read)}`);
    }),

  "a run still working is the outcome after the wait; its progress and result read through the other instance": (
    open,
  ) =>
    using(open, "progress", LIMITS, async ({ a, b }, time) => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const outcome = await startRun(
        a,
        async (_value: null, { progress }) => {
          progress("half way", 0.5);
          await gate;
          return { done: true };
        },
        null,
        { waitMs: 50, now: time.now },
      );
      assert(!outcome.finished, `not finished: ${JSON.stringify(outcome)}`);
      assert(outcome.run.status === "working", `status ${outcome.run.status}`);
      const id = outcome.run.taskId;
      await until(
        () => readRun(b, id),
        (run) => run?.statusMessage === "half way" && run.progress === 0.5,
        5_000,
        "progress read through b",
      );
      release();
      const done = await until(
        () => readRun(b, id),
        (run) => run?.status === "completed",
        5_000,
        "completion read through b",
      );
      assert(JSON.stringify(done?.result) === '{"done":true}', `result ${JSON.stringify(done?.result)}`);
    }),

  "a cancel through the other instance aborts the act's signal within the poll interval, and the cancel stays": (
    open,
  ) =>
    using(open, "cancel", LIMITS, async ({ a, b }, time) => {
      let aborted = 0;
      let signalled!: () => void;
      const abortSeen = new Promise<void>((resolve) => (signalled = resolve));
      const outcome = await startRun(
        a,
        (_value: null, { signal }) =>
          new Promise((resolve) =>
            signal.addEventListener("abort", () => {
              aborted = Date.now();
              signalled();
              // The act ends after the cancel with a value: the cancel stays.
              resolve({ late: true });
            }),
          ),
        null,
        { waitMs: 0, pollIntervalMs: 50, now: time.now },
      );
      assert(!outcome.finished, "still running");
      const cancelledAt = Date.now();
      const cancelled = await cancelRun(b, outcome.run.taskId);
      assert(cancelled?.status === "cancelled", `cancel: ${JSON.stringify(cancelled)}`);
      await Promise.race([abortSeen, sleep(3_000)]);
      assert(aborted > 0, "the act's signal was not aborted within 3 s");
      assert(aborted - cancelledAt < 1_000, `aborted ${aborted - cancelledAt} ms after the cancel`);
      await sleep(100);
      const read = await readRun(a, outcome.run.taskId);
      assert(read?.status === "cancelled" && read.result === undefined, `after the act ended: ${JSON.stringify(read)}`);
      const again = await cancelRun(a, outcome.run.taskId);
      assert(again?.status === "cancelled", `cancel again: ${JSON.stringify(again)}`);
    }),

  "a cancel of a finished run changes nothing": (open) =>
    using(open, "cancel-finished", LIMITS, async ({ a, b }, time) => {
      const outcome = await startRun(a, () => 7, null, { waitMs: 5_000, now: time.now });
      const cancelled = await cancelRun(b, outcome.run.taskId);
      assert(cancelled?.status === "completed" && cancelled.result === 7, `cancel: ${JSON.stringify(cancelled)}`);
    }),

  "a throwing act fails the run with a generic status; the error goes to onFault only": (open) =>
    using(open, "throws", LIMITS, async ({ a, b }, time) => {
      const faults: unknown[] = [];
      const outcome = await startRun(
        a,
        () => {
          throw new Error("secret detail");
        },
        null,
        { waitMs: 5_000, now: time.now, onFault: (error) => faults.push(error) },
      );
      assert(outcome.finished && outcome.run.status === "failed", `outcome ${JSON.stringify(outcome)}`);
      assert((outcome.error as Error)?.message === "secret detail", "the outcome carries the error to its caller");
      assert(faults.length === 1 && (faults[0] as Error).message === "secret detail", `faults ${faults.length}`);
      const read = await readRun(b, outcome.run.taskId);
      assert(read?.status === "failed" && !JSON.stringify(read).includes("secret"), `read ${JSON.stringify(read)}`);
    }),

  "unknown, malformed and expired runs read as absent, and cannot be cancelled": (open) =>
    using(open, "absent", LIMITS, async ({ a, b }, time) => {
      assert((await readRun(b, newRunId())) === null, "unknown id");
      assert((await readRun(b, "'; DROP TABLE gpt_address_runs; --")) === null, "malformed id");
      assert((await cancelRun(b, newRunId())) === null, "cancel of an unknown id");
      const outcome = await startRun(a, () => "kept", null, { waitMs: 5_000, now: time.now });
      assert((await readRun(b, outcome.run.taskId))?.result === "kept", "kept before the TTL");
      time.advance(LIMITS.ttlMs);
      assert((await readRun(b, outcome.run.taskId)) === null, "expired after the TTL");
      assert((await cancelRun(a, outcome.run.taskId)) === null, "cancel of an expired run");
    }),

  "50 concurrent acts with one Idempotency-Key and the same bytes are acted on once and all get the same answer": (
    open,
  ) =>
    using(open, "idempotency", LIMITS, async ({ a, b }, time) => {
      let acted = 0;
      const act = async (value: { n: number }) => {
        acted++;
        await sleep(150);
        return { n: value.n, acted };
      };
      const bytes = '{"n":1}';
      const claim = await idempotencyClaim("/page", "key-1", bytes);
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          startRun(i % 2 === 0 ? a : b, act, { n: 1 }, { waitMs: 10_000, idempotency: claim, now: time.now }),
        ),
      );
      assert(acted === 1, `acted on ${acted} times`);
      const ids = new Set(outcomes.map((outcome) => outcome.run.taskId));
      assert(ids.size === 1, `${ids.size} runs`);
      for (const outcome of outcomes) {
        assert(outcome.finished && outcome.run.status === "completed", `outcome ${JSON.stringify(outcome)}`);
        assert(
          JSON.stringify(outcome.run.result) === '{"n":1,"acted":1}',
          `result ${JSON.stringify(outcome.run.result)}`,
        );
      }
      assert(outcomes.filter((outcome) => !outcome.replayed).length === 1, "one outcome is the act's own");
      const replay = await startRun(b, act, { n: 1 }, { waitMs: 0, idempotency: claim, now: time.now });
      assert(replay.replayed && replay.finished && (acted as number) === 1, `replay ${JSON.stringify(replay)}`);
      const other = await idempotencyClaim("/page", "key-1", '{"n":2}');
      const refusal = await startRun(a, act, { n: 2 }, { waitMs: 0, idempotency: other, now: time.now }).catch(
        (error: unknown) => error,
      );
      assert(refusal instanceof IdempotencyKeyReused, `other bytes: ${String(refusal)}`);
      const elsewhere = await idempotencyClaim("/feedback", "key-1", '{"n":2}');
      const fresh = await startRun(a, act, { n: 2 }, { waitMs: 5_000, idempotency: elsewhere, now: time.now });
      assert(!fresh.replayed && (acted as number) === 2, "the same key at another address is another key");
    }),

  "a consequence over maxResultBytes (default 61,440) fails the run with a reason; the caller that waited still gets it":
    (open) =>
      using(open, "too-large", LIMITS, async ({ a, b }, time) => {
        const big = { text: "x".repeat(70_000) };
        const outcome = await startRun(a, () => big, null, { waitMs: 5_000, now: time.now, onFault: () => {} });
        assert(outcome.finished, `finished: ${outcome.run.status}`);
        assert(outcome.consequence === JSON.stringify(big), "the caller gets the consequence");
        const read = await readRun(b, outcome.run.taskId);
        assert(
          read?.status === "failed" && read.statusMessage === "the act's answer is too large to keep",
          `read ${JSON.stringify(read).slice(0, 200)}`,
        );
      }),

  "a deleted run reads as absent through the other instance and frees its place in the quota at once": (open) =>
    using(open, "delete", { maxRuns: 2, ttlMs: 60_000 }, async ({ a, b }, time) => {
      const first = await startRun(a, () => 1, null, { waitMs: 5_000, now: time.now });
      await startRun(b, () => 2, null, { waitMs: 5_000, now: time.now });
      const full = await startRun(a, () => 3, null, { waitMs: 5_000, now: time.now }).catch((error: unknown) => error);
      assert(full instanceof RunQuotaExceeded, `3rd run: ${String(full)}`);
      await b.delete(first.run.taskId);
      assert((await readRun(a, first.run.taskId)) === null, "the deleted run reads as absent");
      await a.delete(first.run.taskId); // deleted already: nothing happens
      await b.delete(newRunId()); // unknown: nothing happens
      const room = await startRun(a, () => 4, null, { waitMs: 5_000, now: time.now });
      assert(room.finished && room.run.result === 4, "room once a run was deleted");
      const again = await startRun(b, () => 5, null, { waitMs: 5_000, now: time.now }).catch((error: unknown) => error);
      assert(again instanceof RunQuotaExceeded, `a deleted run frees one place only: ${String(again)}`);
    }),

  "a run past the quota is refused with the seconds until one expires; the key of a kept run is still answered": (
    open,
  ) =>
    using(open, "quota", { maxRuns: 3, ttlMs: 60_000 }, async ({ a, b }, time) => {
      const claim = await idempotencyClaim("/page", "key-q", "{}");
      const first = await startRun(a, () => 1, null, { waitMs: 5_000, idempotency: claim, now: time.now });
      await startRun(b, () => 2, null, { waitMs: 5_000, now: time.now });
      time.advance(10_000);
      await startRun(a, () => 3, null, { waitMs: 5_000, now: time.now });
      const refusal = await startRun(b, () => 4, null, { waitMs: 5_000, now: time.now }).catch(
        (error: unknown) => error,
      );
      assert(refusal instanceof RunQuotaExceeded, `4th run: ${String(refusal)}`);
      // 50 s until the first run expires (a store counting in buckets may say up to a bucket more).
      const retryAfter = refusal.retryAfterSeconds;
      assert(retryAfter >= 50 && retryAfter <= 55, `retryAfterSeconds ${retryAfter}`);
      const replay: RunOutcome = await startRun(a, () => 5, null, { waitMs: 0, idempotency: claim, now: time.now });
      assert(
        replay.replayed && replay.run.taskId === first.run.taskId,
        `replay at the quota ${JSON.stringify(replay)}`,
      );
      time.advance(retryAfter * 1000);
      const after = await startRun(b, () => 6, null, { waitMs: 5_000, now: time.now });
      assert(after.finished && after.run.result === 6, "room once the first runs expired");
      assert((await readRun(a, first.run.taskId)) === null, "the first run expired");
    }),
  "a store that keeps no run (maxRuns 0) refuses every run with a finite Retry-After, at most a TTL": (open) =>
    using(open, "no-runs", { maxRuns: 0, ttlMs: 60_000 }, async ({ a }, time) => {
      const refusal = await startRun(a, () => 1, null, { waitMs: 0, now: time.now }).catch((error: unknown) => error);
      assert(refusal instanceof RunQuotaExceeded, `a run with maxRuns 0: ${String(refusal)}`);
      const retryAfter = refusal.retryAfterSeconds;
      assert(Number.isFinite(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `retryAfterSeconds ${retryAfter}`);
    }),
};

/** Runs every check; the outcome of each by name, `"ok"` or its error's message. */
export async function runChecks(open: OpenPair): Promise<Record<string, string>> {
  const results: Record<string, string> = {};
  for (const [name, check] of Object.entries(CHECKS)) {
    try {
      await check(open);
      results[name] = "ok";
    } catch (error) {
      results[name] = error instanceof Error ? (error.stack ?? error.message) : String(error);
    }
  }
  return results;
}
