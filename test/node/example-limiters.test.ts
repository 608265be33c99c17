/**
 * The example's store-backed rate limiters in one process (the wire suite,
 * test/runtimes/shared-limits.test.ts, runs them across processes): the settings, the Vercel
 * client address, the SQLite shape given to rate-limiter-flexible, and the Deno KV store's
 * handling of races and faults.
 */
import { DatabaseSync } from "node:sqlite";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { vercelClientAddress } from "../../examples/pages/limits.ts";
import { rateLimitStore } from "../../examples/pages/rate-limiters.ts";
import {
  denoKvLimiters,
  MAX_ATTEMPTS,
  RATE_LIMIT_PREFIX,
  type RateLimitKv,
  type RateLimitKvAtomic,
} from "../../examples/pages/stores/deno-kv-rate-limit.ts";
import { prepareConnection, type SqliteDatabase } from "../../examples/pages/stores/sqlite.ts";
import { BetterSqliteShape, RATE_LIMIT_TABLE, sqliteLimiters } from "../../examples/pages/stores/sqlite-rate-limit.ts";
import { rateLimitKey } from "../../src/address/rate-limit.ts";

const context = {} as never;

describe("RATE_LIMIT_STORE", () => {
  it("unset, empty or shared is the shared store; process is memory; anything else is refused by name", () => {
    expect([undefined, ""].map((value) => rateLimitStore(value))).toEqual(["process", "process"]);
    expect([undefined, ""].map((value) => rateLimitStore(value, "shared"))).toEqual(["shared", "shared"]);
    expect(rateLimitStore("shared")).toBe("shared");
    expect(rateLimitStore("process", "shared")).toBe("process");
    expect(() => rateLimitStore("redis")).toThrow(/RATE_LIMIT_STORE must be "shared" or "process", got "redis"/);
  });
});

describe("the Vercel client address", () => {
  const keyOf = async (env: Record<string, string>, headers: Record<string, string>) => {
    const app = new Hono().get("/", (c) => c.text(rateLimitKey(c, { clientAddress: vercelClientAddress(env) })));
    return (await app.request("/", { headers })).text();
  };
  it("S4 X-Real-IP is the key only on Vercel (VERCEL=1), where its edge sets it; elsewhere it is never read", async () => {
    expect(await keyOf({ VERCEL: "1" }, { "x-real-ip": "203.0.113.7" })).toBe("203.0.113.7");
    expect(await keyOf({}, { "x-real-ip": "203.0.113.7", "x-forwarded-for": "198.51.100.1" })).toBe("unknown");
    expect(await keyOf({ VERCEL: "0" }, { "x-real-ip": "203.0.113.7" })).toBe("unknown");
  });
});

describe("a connection to the example's SQLite file", () => {
  /** A database whose WAL statement fails with `failure` the first `times` times. */
  function failing(failure: Record<string, unknown>, times: number): { database: SqliteDatabase; tries: () => number } {
    let tries = 0;
    const database = {
      exec(sql: string) {
        if (!sql.includes("journal_mode")) return;
        tries++;
        if (tries <= times) throw Object.assign(new Error("database is locked"), failure);
      },
      prepare: () => {
        throw new Error("not used");
      },
    } as SqliteDatabase;
    return { database, tries: () => tries };
  }

  it("turning to WAL is tried again while it is SQLITE_BUSY (processes starting together on a new file deadlock on it), as node:sqlite and bun:sqlite report it", () => {
    for (const busy of [{ errcode: 5 }, { errcode: 261 }, { code: "SQLITE_BUSY" }]) {
      const { database, tries } = failing(busy, 3);
      prepareConnection(database);
      expect(tries(), JSON.stringify(busy)).toBe(4);
    }
  });

  it("any other failure is thrown at once", () => {
    for (const other of [{ errcode: 8 }, { code: "SQLITE_READONLY" }]) {
      const { database, tries } = failing(other, 1);
      expect(() => prepareConnection(database)).toThrow("database is locked");
      expect(tries()).toBe(1);
    }
  });

  it("two processes opening one new file together both start (node:sqlite, 10 pairs)", async () => {
    const { spawn } = await import("node:child_process");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const directory = mkdtempSync(join(tmpdir(), "gpt-address-wal-"));
    const script = `import { DatabaseSync } from "node:sqlite";
import { openPageDatabase } from ${JSON.stringify(new URL("../../examples/pages/stores/sqlite.ts", import.meta.url).pathname)};
openPageDatabase(process.argv[1], (file) => new DatabaseSync(file));`;
    // Each process's exit code, and its standard error when it failed (what SQLite said).
    const open = (file: string) =>
      new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", script, file], {
          stdio: ["ignore", "ignore", "pipe"],
        });
        let error = "";
        child.stderr.on("data", (chunk: Buffer) => {
          error += chunk.toString();
        });
        child.on("close", (code) => resolve(code === 0 ? "0" : `${code}: ${error.trim()}`));
      });
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < 10; i++) {
        const file = join(directory, `pages-${i}.sqlite`);
        outcomes.push(...(await Promise.all([open(file), open(file)])));
      }
      expect(outcomes).toEqual(new Array(20).fill("0"));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe("the SQLite limiters (node:sqlite)", () => {
  it("S4 count a budget per key and kind in the pages' database; the refusal says when the window ends, and is remembered", async () => {
    const database = new DatabaseSync(":memory:");
    const make = sqliteLimiters(database);
    const acts = make(2, "act");
    const arrivals = make(1, "arrival");
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push((await acts.limit("203.0.113.7", context)).allowed);
    expect(outcomes).toEqual([true, true, false]);
    const refused = await acts.limit("203.0.113.7", context);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await acts.limit("198.51.100.1", context)).allowed).toBe(true);
    expect((await arrivals.limit("203.0.113.7", context)).allowed).toBe(true);
    const rows = database.prepare(`SELECT key, points FROM ${RATE_LIMIT_TABLE} ORDER BY key`).all();
    expect(rows.map((row) => ({ ...row }))).toEqual([
      { key: "act:198.51.100.1", points: 1 },
      // The refused third was counted; the fourth was refused from memory, without the store.
      { key: "act:203.0.113.7", points: 3 },
      { key: "arrival:203.0.113.7", points: 1 },
    ]);
  });

  it("a closed database is a fault, thrown (the address then lets the request through, logged)", async () => {
    const database = new DatabaseSync(":memory:");
    const acts = sqliteLimiters(database)(2, "act");
    database.close();
    await expect(acts.limit("203.0.113.7", context)).rejects.toThrow(/database is not open/);
  });

  it("the better-sqlite3 shape's transaction commits, or rolls back what it wrote when it throws", () => {
    const database = new DatabaseSync(":memory:");
    database.exec("CREATE TABLE t (n INTEGER)");
    const shape = new BetterSqliteShape(database);
    const insert = (n: number) => shape.prepare("INSERT INTO t (n) VALUES (?)").run(n);
    shape.transaction(insert)(1);
    expect(() =>
      shape.transaction(() => {
        insert(2);
        throw new Error("midway");
      })(),
    ).toThrow("midway");
    expect(shape.prepare("SELECT group_concat(n) AS ns FROM t").get()).toEqual({ ns: "1" });
    expect(shape.prepare("SELECT n FROM t WHERE n = 9").get()).toBeUndefined();
  });
});

/** A Deno.Kv subset in memory with versionstamps, whose commits can be made to fail. */
function memoryKv(failCommit: (attempt: number) => Error | null = () => null) {
  const entries = new Map<string, { value: unknown; versionstamp: string; expireIn?: number }>();
  let version = 0;
  let commits = 0;
  const kv: RateLimitKv & { entries: typeof entries } = {
    entries,
    async get(key) {
      const entry = entries.get(JSON.stringify(key));
      return { key, value: entry?.value ?? null, versionstamp: entry?.versionstamp ?? null };
    },
    async delete(key) {
      entries.delete(JSON.stringify(key));
    },
    atomic() {
      const checks: { key: string; versionstamp: string | null }[] = [];
      const sets: [string, unknown, number | undefined][] = [];
      const operation: RateLimitKvAtomic = {
        check(entry) {
          checks.push({ key: JSON.stringify(entry.key), versionstamp: entry.versionstamp });
          return operation;
        },
        set(key, value, options) {
          sets.push([JSON.stringify(key), value, options?.expireIn]);
          return operation;
        },
        async commit() {
          const failure = failCommit(commits++);
          if (failure !== null) throw failure;
          if (checks.some((check) => (entries.get(check.key)?.versionstamp ?? null) !== check.versionstamp)) {
            return { ok: false };
          }
          version++;
          for (const [key, value, expireIn] of sets)
            entries.set(key, { value, versionstamp: String(version), expireIn });
          return { ok: true };
        },
      };
      return operation;
    },
  };
  return kv;
}

describe("the Deno KV limiters", () => {
  it("S4 count a budget per key under ['rate_limits', kind:key], each window written with expireIn", async () => {
    const kv = memoryKv();
    const acts = denoKvLimiters(kv)(2, "act");
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => acts.limit("203.0.113.7", context)));
    expect(outcomes.map((outcome) => outcome.allowed)).toEqual([true, true, false, false]);
    expect(outcomes[3]!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(outcomes[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    const stored = kv.entries.get(JSON.stringify([RATE_LIMIT_PREFIX, "act:203.0.113.7"]));
    expect(stored?.value).toMatchObject({ points: 4 });
    expect(stored?.expireIn).toBeGreaterThan(59_000);
    expect(stored?.expireIn).toBeLessThanOrEqual(60_000);
    // Once refused, the key is refused from memory until its window ends: the store is not touched.
    const later = await acts.limit("203.0.113.7", context);
    expect(later.allowed).toBe(false);
    expect(later.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(kv.entries.get(JSON.stringify([RATE_LIMIT_PREFIX, "act:203.0.113.7"]))?.value).toMatchObject({ points: 4 });
  });

  it("retry a commit that finds local KV locked by another process, and count once", async () => {
    const locked = () => new TypeError("database is locked");
    const kv = memoryKv((attempt) => (attempt < 3 ? locked() : null));
    const acts = denoKvLimiters(kv)(1, "act");
    expect((await acts.limit("203.0.113.7", context)).allowed).toBe(true);
    expect((await acts.limit("203.0.113.7", context)).allowed).toBe(false);
  });

  it("throw any other KV failure, and a lock that outlasts every attempt (faults: the request goes through, logged)", async () => {
    const broken = denoKvLimiters(memoryKv(() => new Error("KV is gone")))(1, "act");
    await expect(broken.limit("203.0.113.7", context)).rejects.toThrow("KV is gone");
    const stuck = denoKvLimiters(memoryKv(() => new TypeError("database is locked")))(1, "act");
    await expect(stuck.limit("203.0.113.7", context)).rejects.toThrow(`${MAX_ATTEMPTS} attempts lost to other writers`);
  });
});
