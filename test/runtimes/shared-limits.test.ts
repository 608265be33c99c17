/**
 * The example's rate limits kept in the store that keeps its pages (issue 15, section 1): two
 * server processes sharing one store share one budget per client. Node and Bun share one
 * SQLite file (each through its own driver), two Deno processes one Deno KV path, two Vercel
 * edge instances one Upstash (the loopback fake, which runs `@upstash/ratelimit`'s Lua script).
 * Controls: with `RATE_LIMIT_STORE=process` each process has its own budget. A store that
 * fails lets the request through and is logged.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { BUSY_TIMEOUT_MS } from "../../examples/pages/stores/sqlite.ts";
import { type FakeUpstash, startFakeUpstash } from "./fake-upstash.ts";
import { launch, type Running, type RuntimeName } from "./harness.ts";

const scratch = mkdtempSync(join(tmpdir(), "gpt-address-shared-limits-"));
const running: Running[] = [];
const fakes: FakeUpstash[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()));
  await Promise.all(fakes.map((fake) => fake.close()));
  rmSync(scratch, { recursive: true, force: true });
});

async function start(name: RuntimeName, env: Record<string, string>): Promise<Running> {
  const server = await launch(name, env);
  running.push(server);
  return server;
}

/** Status and `Retry-After` of an invalid act (204 while the budget lasts) and of an arrival. */
const act = async (server: Running) => {
  const response = await fetch(`${server.url}/page`, { method: "POST", body: "{}" });
  await response.arrayBuffer();
  return `${response.status}${response.status === 429 ? ` retry-after ${response.headers.get("retry-after")}` : ""}`;
};
const arrive = async (server: Running) => {
  const response = await fetch(`${server.url}/page`);
  await response.arrayBuffer();
  return response.status;
};
const limited = /^429 retry-after ([1-9]|[1-5]\d|60)$/;

/** Sends `count` acts at once, alternately to each server; how many were not refused. */
async function burst(servers: Running[], count: number): Promise<number> {
  const statuses = await Promise.all(Array.from({ length: count }, (_, i) => act(servers[i % servers.length]!)));
  for (const status of statuses) expect(status === "204" || limited.test(status), status).toBe(true);
  return statuses.filter((status) => status === "204").length;
}

describe("Node and Bun sharing one SQLite file share one budget", { timeout: 120_000 }, () => {
  it("S4 acts spent on Node are refused on Bun, arrivals spent on Bun are refused on Node", async () => {
    const env = { RATE_LIMIT: "3,4", RATE_LIMIT_STORE: "shared", PAGES_DB: join(scratch, "pages.sqlite") };
    const [node, bun] = await Promise.all([start("node", env), start("bun", env)]);
    expect([await act(node), await act(node), await act(node)]).toEqual(["204", "204", "204"]);
    expect(await act(bun)).toMatch(limited);
    expect(await act(node)).toMatch(limited);
    const arrivals = [await arrive(bun), await arrive(bun), await arrive(bun), await arrive(bun)];
    expect(arrivals).toEqual([200, 200, 200, 200]);
    expect([await arrive(node), await arrive(bun)]).toEqual([429, 429]);
  });

  it("S4 a concurrent burst over both processes lets exactly the budget through", async () => {
    const env = { RATE_LIMIT: "10,100", RATE_LIMIT_STORE: "shared", PAGES_DB: join(scratch, "burst.sqlite") };
    const servers = await Promise.all([start("node", env), start("bun", env)]);
    expect(await burst(servers, 40)).toBe(10);
  });

  for (const store of ["process", undefined]) {
    it(`control: with RATE_LIMIT_STORE=${store ?? "unset (the default)"} each process has its own budget`, async () => {
      const file = join(scratch, `process-${store ?? "default"}.sqlite`);
      const env = { RATE_LIMIT: "2,100", PAGES_DB: file, ...(store === undefined ? {} : { RATE_LIMIT_STORE: store }) };
      const [first, second] = await Promise.all([start("node", env), start("node", env)]);
      expect([await act(first), await act(first)]).toEqual(["204", "204"]);
      expect(await act(first)).toMatch(limited);
      expect([await act(second), await act(second)]).toEqual(["204", "204"]);
    });
  }

  it("a database locked past the busy timeout lets the request through, and the fault is logged", async () => {
    const file = join(scratch, "locked.sqlite");
    const server = await start("node", { RATE_LIMIT: "1,1", RATE_LIMIT_STORE: "shared", PAGES_DB: file });
    const holder = new DatabaseSync(file);
    holder.exec("BEGIN EXCLUSIVE");
    try {
      const started = Date.now();
      expect([await arrive(server), await arrive(server)]).toEqual([200, 200]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    expect(server.output()).toMatch(/the arrival rate limiter of the address "page" threw[\s\S]*database is locked/);
    // Once the lock is gone the budget counts again: the one arrival a minute, then 429.
    expect([await arrive(server), await arrive(server)]).toEqual([200, 429]);
  });
});

describe("two Deno processes sharing one Deno KV share one budget", { timeout: 120_000 }, () => {
  it("S4 acts spent on one are refused on the other; a concurrent burst lets exactly the budget through", async () => {
    const env = { RATE_LIMIT: "3,100", RATE_LIMIT_STORE: "shared", DENO_KV_PATH: join(scratch, "kv.sqlite3") };
    const first = await start("deno", env);
    const second = await start("deno", env);
    expect([await act(first), await act(first), await act(first)]).toEqual(["204", "204", "204"]);
    expect(await act(second)).toMatch(limited);
    const burstEnv = {
      RATE_LIMIT: "10,100",
      RATE_LIMIT_STORE: "shared",
      DENO_KV_PATH: join(scratch, "burst-kv.sqlite3"),
    };
    const servers = [await start("deno", burstEnv), await start("deno", burstEnv)];
    expect(await burst(servers, 40)).toBe(10);
  });

  it("control: with RATE_LIMIT_STORE=process each process has its own budget", async () => {
    const env = { RATE_LIMIT: "1,100", RATE_LIMIT_STORE: "process", DENO_KV_PATH: join(scratch, "process-kv.sqlite3") };
    const first = await start("deno", env);
    const second = await start("deno", env);
    expect(await act(first)).toBe("204");
    expect(await act(first)).toMatch(limited);
    expect(await act(second)).toBe("204");
  });
});

describe("two Vercel edge instances sharing one Upstash share one budget", { timeout: 120_000 }, () => {
  it("S4 acts spent on one are refused on the other, counted by the library's script in Redis", async () => {
    const upstash = await startFakeUpstash();
    fakes.push(upstash);
    const env = { RATE_LIMIT: "3,100", UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token };
    const [first, second] = await Promise.all([start("vercel", env), start("vercel", env)]);
    expect([await act(first), await act(first), await act(first)]).toEqual(["204", "204", "204"]);
    expect(await act(second)).toMatch(limited);
    expect(await act(first)).toMatch(limited);
    // The first count loads the script (NOSCRIPT, then EVAL); later counts run it by its SHA-1.
    expect(upstash.commands.slice(0, 2)).toEqual(["EVALSHA", "EVAL"]);
    expect(new Set(upstash.commands.slice(2))).toEqual(new Set(["EVALSHA"]));
    const counts = [...upstash.data].filter(([key]) => key.startsWith("rate_limits:act:"));
    expect(counts.map(([, value]) => value)).toEqual(["5"]);
  });

  it("control: without Upstash each instance has its own budget in memory", async () => {
    const env = { RATE_LIMIT: "1,100", UPSTASH_REDIS_REST_URL: "", UPSTASH_REDIS_REST_TOKEN: "" };
    const [first, second] = await Promise.all([start("vercel", env), start("vercel", env)]);
    expect(await act(first)).toBe("204");
    expect(await act(first)).toMatch(limited);
    expect(await act(second)).toBe("204");
  });

  it("an Upstash that is gone lets the request through, and the fault is logged", async () => {
    const upstash = await startFakeUpstash();
    const server = await start("vercel", {
      RATE_LIMIT: "1,1",
      UPSTASH_REDIS_REST_URL: upstash.url,
      UPSTASH_REDIS_REST_TOKEN: upstash.token,
    });
    expect(await arrive(server)).toBe(200);
    expect(upstash.commands).toEqual(["EVALSHA", "EVAL"]);
    await upstash.close();
    // The budget (one arrival a minute) is spent, but the store is gone: the limiter fails,
    // so the arrival goes through.
    expect(await arrive(server)).toBe(200);
    expect(server.output()).toMatch(/the arrival rate limiter of the address "page" threw/);
  });
});
