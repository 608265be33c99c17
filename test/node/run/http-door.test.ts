/**
 * Runs on the HTTP door (issue 34, docs/runs.md), on a real @hono/node-server on loopback with
 * MemoryRunStore and SqliteRunStore (`node:sqlite`): `Prefer: respond-async` (RFC 7240) → 202 with
 * the run URL, polled to its result; DELETE cancels (the act sees its signal aborted); an unknown,
 * malformed or expired run is 404 with no body; an invalid act is 204 and creates no run (R2);
 * without the preference the address answers as before; `Idempotency-Key` acts once for 50
 * concurrent retries and refuses other bytes with 422; a full store is 503 with Retry-After.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type ServerType, serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { forms } from "../../../examples/pages/generated/forms.js";
import { address } from "../../../src/address/address.ts";
import type { ActContext, AddressOptions } from "../../../src/address/options.ts";
import type { RateLimit } from "../../../src/address/rate-limit.ts";
import { MemoryRunStore } from "../../../src/run/memory.ts";
import type { RunLimits, RunStore } from "../../../src/run/run.ts";
import { SqliteRunStore } from "../../../src/run/sqlite.ts";

const scratch = mkdtempSync(join(tmpdir(), "gpt-address-http-runs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FEEDBACK = '{"rating": 4, "topic": "other"}';
const OTHER = '{"rating": 5, "topic": "other"}';
const INVALID = '{"rating": 9, "topic": "other"}';
const LIMITS: RunLimits = { maxRuns: 100, ttlMs: 60_000 };

type Feedback = { rating: number; topic: string };

/** An act the test holds open: it reports progress, then waits for `release` (or its signal). */
function heldAct() {
  const seen: { value: Feedback; signal: AbortSignal }[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const act = async (value: Feedback, { signal, progress }: ActContext) => {
    seen.push({ value, signal });
    progress("half way", 0.5);
    await new Promise<void>((resolve, reject) => {
      void released.then(resolve);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
    return { received: true, rating: value.rating };
  };
  return { act, seen, release };
}

const servers: ServerType[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** Serves one feedback address at /feedback on loopback; its base URL. */
async function serveAddress(options: Partial<AddressOptions<Feedback>>): Promise<string> {
  const app = new Hono();
  app.route("/feedback", address<Feedback>({ form: forms.feedback, act: () => ({ received: true }), ...options }));
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  servers.push(server);
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function post(base: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/feedback`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
    signal: AbortSignal.timeout(20_000),
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** GETs `url` every 20 ms until its status is `status`, for at most 5 s; the last state. */
async function pollUntil(url: string, status: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const answer = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    expect(answer.status).toBe(200);
    const state = (await answer.json()) as Record<string, unknown>;
    if (state.status === status) return state;
    if (Date.now() > deadline) throw new Error(`the run did not become ${status}: ${JSON.stringify(state)}`);
    await sleep(20);
  }
}

const STORES: [string, (limits?: RunLimits) => RunStore][] = [
  ["MemoryRunStore", (limits = LIMITS) => new MemoryRunStore(limits)],
  [
    "SqliteRunStore (node:sqlite)",
    (limits = LIMITS) => new SqliteRunStore(new DatabaseSync(join(scratch, `${crypto.randomUUID()}.sqlite`)), limits),
  ],
];

for (const [name, open] of STORES) {
  describe(`X4 runs on the HTTP door, ${name}`, () => {
    it("Prefer: respond-async → 202 with Location, Preference-Applied, Retry-After and the run; polled to completed with the 200's result", async () => {
      const held = heldAct();
      const base = await serveAddress({ act: held.act, runs: { store: open(), pollIntervalMs: 1_500 } });
      const answer = await post(base, FEEDBACK, { prefer: "respond-async" });
      expect(answer.status).toBe(202);
      expect(answer.headers.get("preference-applied")).toBe("respond-async");
      expect(answer.headers.get("retry-after")).toBe("2");
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.headers.get("access-control-expose-headers")).toContain("Location");
      const run = (await answer.json()) as Record<string, unknown>;
      expect(run).toMatchObject({ status: "working", pollIntervalMs: 1_500, ttlMs: 60_000 });
      expect(run.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const location = answer.headers.get("location");
      expect(location).toBe(`/feedback/runs/${run.taskId}`);
      const working = await pollUntil(`${base}${location}`, "working");
      expect(working.result).toBeUndefined();
      const progress = async () =>
        ((await (await fetch(`${base}${location}`)).json()) as { progress?: number }).progress;
      await expect.poll(progress).toBe(0.5);
      held.release();
      const done = await pollUntil(`${base}${location}`, "completed");
      expect(done.result).toEqual({ received: true, rating: 4 });
      expect(held.seen).toHaveLength(1);
    });

    it("DELETE on the run URL cancels it: the act sees its AbortSignal aborted, and the run reads cancelled", async () => {
      const held = heldAct();
      const base = await serveAddress({ act: held.act, runs: { store: open() } });
      const answer = await post(base, FEEDBACK, { prefer: "respond-async, wait=0" });
      expect(answer.status).toBe(202);
      const url = `${base}${answer.headers.get("location")}`;
      const cancelled = await fetch(url, { method: "DELETE" });
      expect(cancelled.status).toBe(200);
      expect(((await cancelled.json()) as { status: string }).status).toBe("cancelled");
      await expect.poll(() => held.seen[0]?.signal.aborted).toBe(true);
      expect((await pollUntil(url, "cancelled")).result).toBeUndefined();
    });

    it("an act that finishes within Prefer's wait is answered exactly as without runs: 200, its JSON, no Preference-Applied", async () => {
      const base = await serveAddress({ act: (v) => ({ received: true, rating: v.rating }), runs: { store: open() } });
      const answer = await post(base, FEEDBACK, { prefer: "respond-async; foo=bar, wait=5" });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("preference-applied")).toBeNull();
      expect(await answer.json()).toEqual({ received: true, rating: 4 });
    });

    it("Idempotency-Key: 50 concurrent retries with the same bytes are acted on once and get the same answer; other bytes get 422", async () => {
      let acts = 0;
      const act = async (value: Feedback) => {
        acts++;
        await sleep(100);
        return { received: true, rating: value.rating, n: acts };
      };
      const base = await serveAddress({ act, runs: { store: open() } });
      const key = '"8e03978e-40d5-43e8-bc93-6894a57f9324"';
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => post(base, FEEDBACK, { "idempotency-key": key })),
      );
      const bodies = await Promise.all(answers.map((answer) => answer.text()));
      expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
      expect(new Set(bodies)).toEqual(new Set(['{"received":true,"rating":4,"n":1}']));
      expect(acts).toBe(1);
      const reused = await post(base, OTHER, { "idempotency-key": key });
      expect(reused.status).toBe(422);
      expect(await reused.text()).toBe("");
      expect(acts).toBe(1);
      // With the preference, a replay of a finished run is the same 200.
      const replay = await post(base, FEEDBACK, { "idempotency-key": key, prefer: "respond-async" });
      expect(replay.status).toBe(200);
      expect(await replay.text()).toBe('{"received":true,"rating":4,"n":1}');
    });

    it("an answer over maxResultBytes is the act's 200 with Prefer or Idempotency-Key as without; its run reads failed, and a replay of the key is 500", async () => {
      const big = { text: "x".repeat(70_000) };
      const errors: unknown[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => void errors.push(args);
      try {
        const store = open();
        const base = await serveAddress({ act: () => big, runs: { store } });
        const plain = await post(base, FEEDBACK);
        expect(plain.status).toBe(200);
        const expected = await plain.text();
        expect(expected).toBe(JSON.stringify(big));
        const asked: Record<string, string>[] = [
          { prefer: "respond-async, wait=5" },
          { "idempotency-key": '"big-1"' },
          { prefer: "respond-async, wait=5", "idempotency-key": '"big-2"' },
        ];
        for (const headers of asked) {
          const answer = await post(base, FEEDBACK, headers);
          expect([headers, answer.status]).toEqual([headers, 200]);
          expect(await answer.text()).toBe(expected);
        }
        // The keyed runs stay, failed with the reason; replaying the key is never a silent other success.
        const replay = await post(base, FEEDBACK, { "idempotency-key": '"big-1"' });
        expect(replay.status).toBe(500);
        expect(await replay.text()).toBe("");
        expect(errors.flat().some((logged) => logged instanceof RangeError)).toBe(true);
      } finally {
        console.error = original;
      }
    });

    it("Prefer acts answered within the wait leave no run holding the quota (fast or throwing at once); a keyed one stays", async () => {
      const limited = open({ maxRuns: 2, ttlMs: 60_000 });
      const quiet = console.error;
      console.error = () => {};
      try {
        let mode = "ok";
        const base = await serveAddress({
          act: (v) => {
            if (mode === "throw") throw new Error("at once");
            return { received: true, rating: v.rating };
          },
          runs: { store: limited },
        });
        for (let i = 0; i < 5; i++) {
          expect((await post(base, FEEDBACK, { prefer: "respond-async, wait=5" })).status).toBe(200);
        }
        mode = "throw";
        for (let i = 0; i < 3; i++) {
          expect((await post(base, FEEDBACK, { prefer: "respond-async" })).status).toBe(500);
        }
        mode = "ok";
        // Keyed runs are their replays: they stay, and count.
        expect((await post(base, FEEDBACK, { "idempotency-key": '"q-1"' })).status).toBe(200);
        expect((await post(base, FEEDBACK, { "idempotency-key": '"q-2"', prefer: "respond-async" })).status).toBe(200);
        const full = await post(base, FEEDBACK, { "idempotency-key": '"q-3"' });
        expect(full.status).toBe(503);
        expect((await post(base, FEEDBACK, { "idempotency-key": '"q-1"' })).status).toBe(200);
      } finally {
        console.error = quiet;
      }
    });

    it("HEAD on the run URL is GET without content: the same status and fields", async () => {
      const held = heldAct();
      const base = await serveAddress({ act: held.act, runs: { store: open() } });
      const answer = await post(base, FEEDBACK, { prefer: "respond-async" });
      const url = `${base}${answer.headers.get("location")}`;
      const got = await fetch(url);
      const head = await fetch(url, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe("");
      expect(head.headers.get("content-type")).toBe(got.headers.get("content-type"));
      expect(head.headers.get("retry-after")).toBe(got.headers.get("retry-after"));
      expect(Number(head.headers.get("content-length"))).toBe(new TextEncoder().encode(await got.text()).length);
      expect((await fetch(`${base}/feedback/runs/AAAAAAAAAAAAAAAAAAAAAA`, { method: "HEAD" })).status).toBe(404);
      const put = await fetch(url, { method: "PUT" });
      expect(put.status).toBe(405);
      expect(put.headers.get("allow")).toBe("GET, HEAD, DELETE, OPTIONS");
      held.release();
    });
  });
}

describe("X4 runs on the HTTP door: refusals, absent runs and the address unchanged", () => {
  it("R2 an invalid act sent with Prefer and an Idempotency-Key is 204, and no run exists", async () => {
    const store = new MemoryRunStore(LIMITS);
    const base = await serveAddress({ runs: { store } });
    const answer = await post(base, INVALID, { prefer: "respond-async", "idempotency-key": '"k"' });
    expect(answer.status).toBe(204);
    expect(store.size).toBe(0);
    // The control: the valid act with the same fields makes one run.
    expect((await post(base, FEEDBACK, { prefer: "respond-async", "idempotency-key": '"k"' })).status).toBe(200);
    expect(store.size).toBe(1);
  });

  it("without Prefer, an address with runs answers as before: a slow act is waited for (200), never 202, and no run is made", async () => {
    const store = new MemoryRunStore(LIMITS);
    const base = await serveAddress({
      act: async (v) => {
        await sleep(300);
        return { received: true, rating: v.rating };
      },
      runs: { store, maxWaitMs: 0 },
    });
    const answer = await post(base, FEEDBACK);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, rating: 4 });
    expect(store.size).toBe(0);
    // An address without runs ignores the preference.
    const plain = await serveAddress({ act: () => ({ ok: 1 }) });
    const ignored = await post(plain, FEEDBACK, { prefer: "respond-async" });
    expect(ignored.status).toBe(200);
    expect((await fetch(`${plain}/feedback/runs/AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });

  it("an unknown, malformed or expired run is 404 with no body, GET and DELETE alike", async () => {
    let now = Date.now();
    const store = new MemoryRunStore({ maxRuns: 10, ttlMs: 60_000 }, () => now);
    const held = heldAct();
    const base = await serveAddress({ act: held.act, runs: { store } });
    const answer = await post(base, FEEDBACK, { prefer: "respond-async" });
    const url = `${base}${answer.headers.get("location")}`;
    expect((await fetch(url)).status).toBe(200); // the control
    for (const path of ["AAAAAAAAAAAAAAAAAAAAAA", "not-a-run", "%00", "a".repeat(5000)]) {
      for (const method of ["GET", "DELETE"]) {
        const missing = await fetch(`${base}/feedback/runs/${path}`, { method });
        expect([method, path.slice(0, 30), missing.status]).toEqual([method, path.slice(0, 30), 404]);
        expect(await missing.text()).toBe("");
      }
    }
    now += 61_000;
    const expired = await fetch(url);
    expect(expired.status).toBe(404);
    expect(await expired.text()).toBe("");
    held.release();
  });

  it("a store at its quota answers a new run 503 with Retry-After; a malformed Idempotency-Key is 400", async () => {
    const held = heldAct();
    const base = await serveAddress({
      act: held.act,
      runs: { store: new MemoryRunStore({ maxRuns: 1, ttlMs: 60_000 }) },
    });
    expect((await post(base, FEEDBACK, { prefer: "respond-async" })).status).toBe(202);
    const full = await post(base, FEEDBACK, { prefer: "respond-async" });
    expect(full.status).toBe(503);
    expect(Number(full.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await post(base, FEEDBACK, { "idempotency-key": '"unterminated' })).status).toBe(400);
    held.release();
  });

  it("runs.maxResultBytes is validated like the other options, and held to the store's own maximum", () => {
    const store = new MemoryRunStore(LIMITS);
    const act = () => null;
    for (const maxResultBytes of [0, -1, 1.5, Number.NaN, 2 ** 60]) {
      expect(() => address<Feedback>({ form: forms.feedback, act, runs: { store, maxResultBytes } })).toThrow(
        /runs\.maxResultBytes must be a positive safe integer/,
      );
    }
    const small: RunStore = Object.assign(Object.create(store) as RunStore, { maxResultBytes: 1_000 });
    expect(() =>
      address<Feedback>({ form: forms.feedback, act, runs: { store: small, maxResultBytes: 1_001 } }),
    ).toThrow(/over the run store's own maximum, 1000/);
    expect(() => address<Feedback>({ form: forms.feedback, act, runs: { store: small } })).not.toThrow();
    expect(() => address<Feedback>({ form: forms.feedback, act, runs: { store, maxResultBytes: 1 } })).not.toThrow();
  });

  it("a run store that throws (a store function, a failing store) is a 500 logged as the run store's, never as verification", async () => {
    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args.map(String).join(" "));
    try {
      let acted = 0;
      const base = await serveAddress({
        act: () => ++acted,
        runs: {
          store: () => {
            throw new TypeError("Cannot read properties of undefined (reading 'idFromName')");
          },
        },
      });
      const answer = await post(base, FEEDBACK, { prefer: "respond-async" });
      expect(answer.status).toBe(500);
      const read = await fetch(`${base}/feedback/runs/AAAAAAAAAAAAAAAAAAAAAA`);
      expect(read.status).toBe(500);
      expect(acted).toBe(0);
      expect(logged).toHaveLength(2);
      for (const line of logged) {
        expect(line).toMatch(/the run store of the address "feedback" threw/);
        expect(line).not.toMatch(/verification/);
      }
    } finally {
      console.error = original;
    }
  });

  it("an act that throws after the 202 ends its run failed, saying only that the act failed", async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const base = await serveAddress({
        act: async () => {
          await sleep(50);
          throw new Error("secret detail");
        },
        runs: { store: new MemoryRunStore(LIMITS) },
      });
      const answer = await post(base, FEEDBACK, { prefer: "respond-async" });
      expect(answer.status).toBe(202);
      const failed = await pollUntil(`${base}${answer.headers.get("location")}`, "failed");
      expect(JSON.stringify(failed)).not.toContain("secret");
      expect(failed.statusMessage).toBe("the act failed");
      expect(errors.flat().some((logged) => logged instanceof Error && logged.message === "secret detail")).toBe(true);
    } finally {
      console.error = original;
    }
  });

  it("the preflight allows Prefer and Idempotency-Key; run reads are counted by the rate limit (429 with Retry-After)", async () => {
    let reads = 0;
    const rateLimit: RateLimit = {
      arrival: {
        limit: async () =>
          ++reads > 2 ? { allowed: false, retryAfterSeconds: 7 } : { allowed: true, retryAfterSeconds: 0 },
      },
    } as RateLimit;
    const held = heldAct();
    const base = await serveAddress({ act: held.act, rateLimit, runs: { store: new MemoryRunStore(LIMITS) } });
    const preflight = await fetch(`${base}/feedback`, { method: "OPTIONS" });
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Prefer, Idempotency-Key/);
    const answer = await post(base, FEEDBACK, { prefer: "respond-async" });
    const url = `${base}${answer.headers.get("location")}`;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(url)).status);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await fetch(url);
    expect(limited.headers.get("retry-after")).toBe("7");
    held.release();
  });
});
