/**
 * The run engine's own rules (issue 34), on the memory store: the act's signal at the run's
 * expiry, the request's signal ending the wait only, `waitUntil`, coalesced progress, bounded
 * status messages and consequences, and the act's error kept for its caller.
 */
import { describe, expect, it } from "vitest";
import { ActDeclined } from "../../../src/address/act.ts";
import {
  MemoryRunStore,
  type RunChange,
  type RunRecord,
  type RunStore,
  readRun,
  startRun,
} from "../../../src/run/index.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A memory store that counts its updates. */
function counting(store: RunStore): RunStore & { changes: RunChange[] } {
  const changes: RunChange[] = [];
  return {
    changes,
    limits: store.limits,
    create: (run, claim) => store.create(run, claim),
    get: (id) => store.get(id),
    delete: (id) => store.delete(id),
    update(id: string, change: RunChange): Promise<RunRecord | null> {
      changes.push(change);
      return store.update(id, change);
    },
  };
}

describe("startRun", () => {
  it("aborts the act's signal at the run's expiry (TimeoutError), and the run fails", async () => {
    const runs = new MemoryRunStore({ maxRuns: 10, ttlMs: 200 });
    let reason: unknown;
    const outcome = await startRun(
      runs,
      (_value: null, { signal }) =>
        new Promise((_, reject) =>
          signal.addEventListener("abort", () => {
            reason = signal.reason;
            reject(signal.reason);
          }),
        ),
      null,
      { waitMs: 2_000, onFault: () => {} },
    );
    expect((reason as DOMException).name).toBe("TimeoutError");
    expect(outcome).toMatchObject({ finished: true, run: { status: "failed" } });
  });

  it("ends the wait when the request's signal aborts; the run goes on and completes", async () => {
    const runs = new MemoryRunStore();
    const request = new AbortController();
    setTimeout(() => request.abort(), 50);
    const started = Date.now();
    const outcome = await startRun(runs, () => sleep(300).then(() => "late"), null, {
      waitMs: 10_000,
      signal: request.signal,
    });
    expect(Date.now() - started).toBeLessThan(250);
    expect(outcome).toMatchObject({ finished: false, run: { status: "working" } });
    await sleep(400);
    expect(await readRun(runs, outcome.run.taskId)).toMatchObject({ status: "completed", result: "late" });
  });

  it("hands waitUntil a promise that settles once the run's end is written", async () => {
    const runs = new MemoryRunStore();
    const kept: Promise<unknown>[] = [];
    const outcome = await startRun(runs, () => sleep(100).then(() => 1), null, {
      waitMs: 0,
      waitUntil: (promise) => kept.push(promise),
    });
    expect(kept).toHaveLength(1);
    expect(outcome.finished).toBe(false);
    await kept[0];
    expect(await readRun(runs, outcome.run.taskId)).toMatchObject({ status: "completed", result: 1 });
  });

  it("coalesces progress: 1,000 calls in a row are at most two writes, the last one kept; messages are bounded", async () => {
    const runs = counting(new MemoryRunStore());
    const outcome = await startRun(
      runs,
      async (_value: null, { progress }) => {
        for (let i = 0; i < 1_000; i++) progress(`step ${i}`, i / 1_000);
        await sleep(50);
        progress("x".repeat(5_000), 2); // a fraction outside 0..1 is dropped
        await sleep(50);
        return "done";
      },
      null,
      { waitMs: 0 },
    );
    await sleep(30);
    const read = await readRun(runs, outcome.run.taskId);
    expect(read).toMatchObject({ statusMessage: "step 999", progress: 0.999 });
    await sleep(60);
    const working = runs.changes.filter((change) => change.status === "working");
    expect(working.length).toBeLessThanOrEqual(3);
    const last = working.at(-1) as { statusMessage: string; progress?: number };
    expect(last.statusMessage).toHaveLength(1_024);
    expect(last.progress).toBeUndefined();
    await sleep(50);
    expect(await readRun(runs, outcome.run.taskId)).toMatchObject({ status: "completed", result: "done" });
  });

  it("fails a run whose consequence is larger than maxResultBytes (its caller still gets it), or not JSON; the cause goes to onFault", async () => {
    const runs = new MemoryRunStore();
    const faults: unknown[] = [];
    const big = await startRun(runs, () => "é".repeat(600), null, {
      waitMs: 1_000,
      maxResultBytes: 1_000,
      onFault: (error) => faults.push(error),
    });
    expect(big.run).toMatchObject({ status: "failed", statusMessage: "the act's answer is too large to keep" });
    expect(big.finished && big.consequence).toBe(JSON.stringify("é".repeat(600)));
    expect(big.finished && big.error).toBeUndefined();
    expect(await readRun(runs, big.run.taskId)).toMatchObject({ status: "failed" });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad = await startRun(runs, () => cyclic, null, { waitMs: 1_000, onFault: (error) => faults.push(error) });
    expect(bad.run.status).toBe("failed");
    expect(faults.map((error) => (error as Error).name)).toEqual(["RangeError", "TypeError"]);
  });

  it("keeps no consequence larger than the store's own maxResultBytes, whatever the option says", async () => {
    const memory = new MemoryRunStore();
    const small: RunStore = Object.assign(counting(memory), { maxResultBytes: 100 });
    const over = await startRun(small, () => "x".repeat(200), null, {
      waitMs: 1_000,
      maxResultBytes: 10_000,
      onFault: () => {},
    });
    expect(over.run).toMatchObject({ status: "failed", statusMessage: "the act's answer is too large to keep" });
    const under = await startRun(small, () => "x".repeat(50), null, { waitMs: 1_000, maxResultBytes: 10_000 });
    expect(under.run).toMatchObject({ status: "completed", result: "x".repeat(50) });
  });

  it("gives the consequence to its caller when the store fails to keep it; the run reads failed", async () => {
    const memory = new MemoryRunStore();
    const refusing: RunStore = {
      limits: memory.limits,
      create: (run, claim) => memory.create(run, claim),
      get: (id) => memory.get(id),
      delete: (id) => memory.delete(id),
      update: (id, change) =>
        change.status === "completed" ? Promise.reject(new RangeError("value too large")) : memory.update(id, change),
    };
    const faults: unknown[] = [];
    const outcome = await startRun(refusing, () => ({ big: true }), null, {
      waitMs: 1_000,
      onFault: (error) => faults.push(error),
    });
    expect(outcome.finished && outcome.consequence).toBe('{"big":true}');
    expect(await readRun(memory, outcome.run.taskId)).toMatchObject({
      status: "failed",
      statusMessage: "the act's answer could not be kept",
    });
    expect(faults).toHaveLength(1);
  });

  it("gives the act's own error to its caller (an ActDeclined keeps its status for the door), never to the run", async () => {
    const runs = new MemoryRunStore();
    const outcome = await startRun(
      runs,
      () => {
        throw new ActDeclined(503, { retryAfterSeconds: 30 });
      },
      null,
      { waitMs: 1_000, onFault: () => {} },
    );
    expect(outcome.finished && outcome.error).toBeInstanceOf(ActDeclined);
    expect(outcome.finished && (outcome.error as ActDeclined).retryAfterSeconds).toBe(30);
    expect(JSON.stringify(await readRun(runs, outcome.run.taskId))).not.toContain("503");
  });

  it("makes 128-bit base64url run ids, all distinct", async () => {
    const runs = new MemoryRunStore({ maxRuns: 1_000, ttlMs: 60_000 });
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) ids.add((await startRun(runs, () => i, null, { waitMs: 100 })).run.taskId);
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
