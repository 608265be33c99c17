/**
 * Runs shared by instances (issue 34): a run created through one instance is read, polled to
 * completion and cancelled through another sharing its store, the act running in the first
 * learns of the cancel (its signal aborts), an `Idempotency-Key` sent to both at once is acted
 * on once, and the quota counts both. Each pair is real: two Node processes on one SQLite file,
 * a Node and a Bun process on one SQLite file, two Deno processes on one Deno KV file, and two
 * Workers (isolates) in workerd sharing one Durable Object namespace (Miniflare, worker `b`
 * binding worker `a`'s class by `scriptName`). The instances are test/runtimes/runs/instance.ts.
 *
 * Last, the same through the example's HTTP door: two isolates of the example worker as
 * `wrangler deploy` would upload it, on one Durable Object namespace; a run of its render address
 * created through one is polled to completion and cancelled through the other, and the act in
 * the first stops (its `/metrics`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, describe, expect, it } from "vitest";
import { wrangler } from "../../scripts/wrangler.ts";
import { newRunId, type Run, type RunOutcome } from "../../src/run/index.ts";
import { root } from "./harness.ts";
import { INSTANCE_LIMITS } from "./runs/instance.ts";

const scratch = mkdtempSync(join(tmpdir(), "gpt-address-runs-shared-"));
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  rmSync(scratch, { recursive: true, force: true });
});

/** One instance: `fetch(path, init)` against it. */
interface Instance {
  readonly name: string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

const bin = (name: string) => join(root, "node_modules", ".bin", name);

/** Starts `file args` (its own process group), resolves once it prints `listening <port>`, within 60 s. */
async function spawnInstance(name: string, file: string, args: string[]): Promise<Instance> {
  const child: ChildProcess = spawn(file, args, {
    cwd: root,
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  stops.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {}
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {}
      }, 5_000);
      await exited;
      clearTimeout(timer);
    }
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not listen within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited:\n${output}`));
    });
  });
  return {
    name,
    fetch: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, { ...init, signal: AbortSignal.timeout(20_000) }),
  };
}

async function json<T>(instance: Instance, path: string, init?: RequestInit): Promise<T> {
  const response = await instance.fetch(path, init);
  expect(response.status, `${instance.name} ${path}`).toBe(200);
  return (await response.json()) as T;
}

/** Miniflare's worker `name` as an {@link Instance} (its Fetcher is typed with Miniflare's own Request; only its fetch is used). */
async function miniflareInstance(mf: Miniflare, name: string): Promise<Instance> {
  const fetcher = (await mf.getWorker(name)) as unknown as {
    fetch(
      url: string,
      init?: RequestInit,
    ): Promise<{ status: number; headers: Headers; arrayBuffer(): Promise<ArrayBuffer> }>;
  };
  return {
    name,
    fetch: async (path, init) => {
      const response = await fetcher.fetch(`http://runs.test${path}`, init);
      const headers = new Headers();
      for (const field of ["location", "content-type", "preference-applied", "retry-after"]) {
        const value = response.headers.get(field);
        if (value !== null) headers.set(field, value);
      }
      return new Response(await response.arrayBuffer(), { status: response.status, headers });
    },
  };
}

const start = (instance: Instance, body: Record<string, unknown>) =>
  json<RunOutcome & { refused?: string; retryAfterSeconds?: number }>(instance, "/start", {
    method: "POST",
    body: JSON.stringify(body),
  });
const read = (instance: Instance, id: string) => json<Run | null>(instance, `/runs/${id}`);
const cancel = (instance: Instance, id: string) => json<Run | null>(instance, `/runs/${id}`, { method: "DELETE" });
const state = (instance: Instance) => json<{ acted: number; aborted: string[] }>(instance, "/state");

async function until<T>(get: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The scenario every pair must pass: `a` and `b` share one store with {@link INSTANCE_LIMITS}. */
function sharedSuite(pair: () => Promise<[Instance, Instance]>) {
  let a: Instance;
  let b: Instance;
  it("starts both instances", async () => {
    [a, b] = await pair();
  });

  it("a run created through a is polled to completion through b", async () => {
    const outcome = await start(a, { waitMs: 0, token: "t1", hold: true });
    expect(outcome).toMatchObject({ finished: false, replayed: false, run: { status: "working" } });
    const id = outcome.run.taskId;
    const progress = await until(
      () => read(b, id),
      (run) => run?.statusMessage === `started by ${a.name}`,
      5_000,
    );
    expect(progress).toMatchObject({
      taskId: id,
      status: "working",
      progress: 0.1,
      pollIntervalMs: 100,
      ttlMs: 60_000,
    });
    expect(await json(a, "/release/t1", { method: "POST" })).toBe(true);
    const done = await until(
      () => read(b, id),
      (run) => run?.status === "completed",
      5_000,
    );
    expect(done).toMatchObject({ status: "completed", result: { token: "t1", by: a.name } });
    expect(await read(b, newRunId())).toBeNull();
  });

  it("a run created through a is cancelled through b, and the act in a sees its signal abort within the poll interval", async () => {
    const outcome = await start(a, { waitMs: 0, token: "t2", hold: true });
    const id = outcome.run.taskId;
    const before = Date.now();
    expect(await cancel(b, id)).toMatchObject({ taskId: id, status: "cancelled" });
    const after = await until(
      () => state(a),
      (seen) => seen.aborted.includes("t2"),
      5_000,
    );
    expect(after.aborted).toContain("t2");
    // pollIntervalMs is 100: the instance reads the cancel within about that, plus a store round trip.
    expect(Date.now() - before).toBeLessThan(2_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await read(a, id)).toMatchObject({ status: "cancelled" });
    expect((await read(a, id))?.result).toBeUndefined();
  });

  it("20 acts with one Idempotency-Key sent to both at once are acted on once, and all get the same answer", async () => {
    const acted = (await state(a)).acted + (await state(b)).acted;
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        start(i % 2 === 0 ? a : b, { waitMs: 15_000, token: "t3", delayMs: 300, key: "k-1", bytes: "same" }),
      ),
    );
    expect((await state(a)).acted + (await state(b)).acted - acted).toBe(1);
    expect(new Set(outcomes.map((outcome) => outcome.run.taskId)).size).toBe(1);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ finished: true, run: { status: "completed" } });
    expect(new Set(outcomes.map((outcome) => JSON.stringify(outcome.run.result))).size).toBe(1);
    expect(outcomes.filter((outcome) => !outcome.replayed)).toHaveLength(1);
    expect(await start(b, { waitMs: 0, token: "t4", key: "k-1", bytes: "other" })).toEqual({
      refused: "IdempotencyKeyReused",
      retryAfterSeconds: null,
    });
  });

  it("both count against one quota: the runs past it, through either instance, are refused with Retry-After seconds", async () => {
    // Three runs so far; INSTANCE_LIMITS.maxRuns is 8.
    const outcomes = [];
    for (let i = 0; i < 7; i++) outcomes.push(await start(i % 2 === 0 ? b : a, { waitMs: 5_000, token: `q${i}` }));
    expect(outcomes.slice(0, 5).map((outcome) => outcome.run?.status)).toEqual(Array(5).fill("completed"));
    for (const refusal of outcomes.slice(5)) {
      expect(refusal.refused).toBe("RunQuotaExceeded");
      expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(INSTANCE_LIMITS.ttlMs / 1000 + 4);
    }
  });
}

describe("two Node processes sharing one SQLite file", { timeout: 60_000 }, () => {
  const file = join(scratch, "node-node.sqlite");
  const script = "test/runtimes/runs/node-sqlite.ts";
  sharedSuite(() =>
    Promise.all([
      spawnInstance("node-a", process.execPath, [script, "node-a", file]),
      spawnInstance("node-b", process.execPath, [script, "node-b", file]),
    ]),
  );
});

describe("a Node and a Bun process sharing one SQLite file (node:sqlite and bun:sqlite)", { timeout: 60_000 }, () => {
  const file = join(scratch, "node-bun.sqlite");
  sharedSuite(() =>
    Promise.all([
      spawnInstance("node", process.execPath, ["test/runtimes/runs/node-sqlite.ts", "node", file]),
      spawnInstance("bun", bin("bun"), ["run", "test/runtimes/bun/runs-instance.ts", "bun", file]),
    ]),
  );
});

describe("two Deno processes sharing one Deno KV file", { timeout: 60_000 }, () => {
  const file = join(scratch, "deno.sqlite3");
  const args = (name: string) => [
    "run",
    "--unstable-kv",
    "--node-modules-dir=manual",
    "--allow-net=127.0.0.1",
    `--allow-read=${root},${scratch}`,
    `--allow-write=${scratch}`,
    "test/runtimes/deno/runs-instance.ts",
    name,
    file,
  ];
  // One after the other: two `Deno.openKv` of one new file at once can fail one of them with
  // "database is locked" (the SQLite file turned to WAL by both; seen once in a loaded CI run).
  // Deno's own opening, not the store's; sharing starts once both are open.
  sharedSuite(async () => {
    const a = await spawnInstance("deno-a", bin("deno"), args("deno-a"));
    return [a, await spawnInstance("deno-b", bin("deno"), args("deno-b"))];
  });
});

describe("two Workers in workerd sharing one Durable Object namespace", { timeout: 60_000 }, () => {
  sharedSuite(async () => {
    const outdir = mkdtempSync(join(scratch, "workerd-"));
    const scriptPath = join(outdir, "worker.js");
    await build({
      entryPoints: [join(root, "test/runtimes/runs/worker.ts")],
      bundle: true,
      format: "esm",
      platform: "neutral",
      target: "es2022",
      outfile: scriptPath,
      logLevel: "error",
    });
    const worker = (name: string, scriptName?: string) => ({
      name,
      modules: true,
      scriptPath,
      // Without it, workerd fails to start ("internal error") on a script outside the working directory.
      modulesRoot: outdir,
      compatibilityDate: "2026-08-01",
      bindings: { INSTANCE: name },
      durableObjects: {
        RUNS: { className: "RunStoreObject", useSQLite: true, ...(scriptName === undefined ? {} : { scriptName }) },
      },
    });
    const mf = new Miniflare(convertV4MiniflareOptions({ workers: [worker("a"), worker("b", "a")] }));
    stops.push(() => mf.dispose());
    await mf.ready;
    return [await miniflareInstance(mf, "a"), await miniflareInstance(mf, "b")];
  });
});

describe("two isolates of the example worker on one Durable Object namespace, through the HTTP door", {
  timeout: 60_000,
}, () => {
  const METRICS_TOKEN = "runs-shared-metrics";
  let a: Instance;
  let b: Instance;
  const render = (instance: Instance, pages: number) =>
    instance.fetch("/render", {
      method: "POST",
      headers: { "content-type": "application/json", prefer: "respond-async" },
      body: JSON.stringify({ title: `${pages} pages in two isolates`, pages }),
    });
  const runAt = (instance: Instance, location: string, method = "GET") => json<Run>(instance, location, { method });
  /** The renderings `instance` counts (`/metrics`): running now, stopped by a cancel. */
  const renders = async (instance: Instance) => {
    const response = await instance.fetch("/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    const value = (series: string) =>
      Number(
        text
          .split("\n")
          .find((line) => line.startsWith(`${series} `))
          ?.split(" ")[1],
      );
    return {
      running: value("gpt_address_example_renders_running"),
      stopped: value('gpt_address_example_renders_total{outcome="stopped"}'),
      completed: value('gpt_address_example_renders_total{outcome="completed"}'),
    };
  };
  const accepted = async (response: Response) => {
    expect(response.status).toBe(202);
    const location = response.headers.get("location") ?? "";
    expect(location).toMatch(/^\/render\/runs\/[A-Za-z0-9_-]{22}$/);
    await response.arrayBuffer();
    return location;
  };

  it("starts both isolates of the worker wrangler builds", async () => {
    const outdir = mkdtempSync(join(scratch, "example-"));
    await wrangler(["deploy", "--dry-run", "--outdir", outdir], { cwd: root, timeout: 90_000 });
    // The worker's own bindings (wrangler.toml), b binding a's RunStoreObject by scriptName.
    const worker = (name: string, scriptName?: string) => ({
      name,
      modules: true,
      scriptPath: join(outdir, "worker.js"),
      modulesRoot: outdir,
      compatibilityDate: "2026-08-01",
      kvNamespaces: ["PAGES"],
      bindings: { RATE_LIMIT: "off", METRICS_TOKEN, RENDER_PAGE_MS: "50" },
      durableObjects: {
        RUNS: { className: "RunStoreObject", useSQLite: true, ...(scriptName === undefined ? {} : { scriptName }) },
      },
    });
    const mf = new Miniflare(convertV4MiniflareOptions({ workers: [worker("a"), worker("b", "a")] }));
    stops.push(() => mf.dispose());
    await mf.ready;
    [a, b] = [await miniflareInstance(mf, "a"), await miniflareInstance(mf, "b")];
  });

  it("a run of /render created through a is polled through b, page by page, to completed with the act's result", async () => {
    const location = await accepted(await render(a, 6));
    const seen: Run[] = [];
    const done = await until(
      async () => {
        const run = await runAt(b, location);
        seen.push(run);
        return run;
      },
      (run) => run.status !== "working",
      10_000,
    );
    expect(done).toMatchObject({ status: "completed", result: { pages: 6 } });
    expect(seen.some((run) => /^rendered page [1-6] of 6$/.test(run.statusMessage ?? ""))).toBe(true);
    // Acted in a only.
    expect((await renders(a)).completed).toBe(1);
    expect((await renders(b)).completed).toBe(0);
  });

  it("a run created through a is cancelled through b: cancelled through both, and the act in a stops within the poll interval", async () => {
    const location = await accepted(await render(a, 40));
    await until(
      () => runAt(b, location),
      (run) => run.statusMessage !== undefined,
      5_000,
    );
    expect((await renders(a)).running).toBe(1);
    const cancelledAt = Date.now();
    expect(await runAt(b, location, "DELETE")).toMatchObject({ status: "cancelled" });
    // a reads the cancel from the object every pollIntervalMs (1 s), then its act's signal aborts.
    const stopped = await until(
      () => renders(a),
      (counts) => counts.stopped === 1,
      5_000,
    );
    expect(stopped).toMatchObject({ running: 0, stopped: 1, completed: 1 });
    expect(Date.now() - cancelledAt).toBeLessThan(3_000);
    const cancelled = await runAt(a, location);
    expect(cancelled).toMatchObject({ status: "cancelled" });
    expect(cancelled.result).toBeUndefined();
    expect(await runAt(b, location)).toEqual(cancelled);
  });
});
