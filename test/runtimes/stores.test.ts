/**
 * The example address's page stores, outside any server: SQLite on `node:sqlite` (the same
 * class serves `bun:sqlite`, exercised by the Bun wire suite), Deno KV's chunking over a
 * stand-in with Deno KV's value limit and the real Deno KV in a Deno process, and the Upstash
 * REST store against a fake service on loopback (Lua scripts in a real Lua VM). Each keeps its
 * bounds (issue 31): a page over the size cap is refused, pages expire after the TTL, and a
 * page past the quota is refused with the seconds until room is made.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageLimits, PageQuotaExceeded, PageTooLarge } from "../../examples/pages/store.ts";
import {
  CHUNK_LENGTH,
  type DenoKv,
  type DenoKvAtomic,
  type DenoKvKey,
  DenoKvPageStore,
} from "../../examples/pages/stores/deno-kv.ts";
import { SqlitePageStore } from "../../examples/pages/stores/sqlite.ts";
import { UpstashPageStore } from "../../examples/pages/stores/upstash.ts";
import { type FakeUpstash, startFakeUpstash } from "./fake-upstash.ts";
import { root } from "./harness.ts";

/** Small bounds: pages of at most 1,000 bytes, 3,000 in all, kept 10 minutes. */
const LIMITS: PageLimits = { maxPageBytes: 1_000, ttlSeconds: 600, quotaBytes: 3_000 };
const KILOBYTE = "x".repeat(1_000);

const html = "<!doctype html><title>é ✓ 𝄞</title><p>a &amp; b</p>";

describe("SqlitePageStore (node:sqlite)", () => {
  it("returns what was put, and null for an id never put", async () => {
    const store = new SqlitePageStore(new DatabaseSync(":memory:"));
    await store.put("a1", html);
    expect(await store.get("a1")).toBe(html);
    expect(await store.get("a2")).toBeNull();
  });

  it("keeps pages in the database it was given (a second store on the same database reads them)", async () => {
    const database = new DatabaseSync(":memory:");
    await new SqlitePageStore(database).put("x", html);
    expect(await new SqlitePageStore(database).get("x")).toBe(html);
  });

  it("puts a database file in write-ahead-log mode, synchronous NORMAL, and a page put is on disk for another connection", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "gpt-address-sqlite-"));
    try {
      const file = join(scratch, "pages.sqlite");
      const database = new DatabaseSync(file);
      await new SqlitePageStore(database).put("w1", html);
      expect(database.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
      expect(database.prepare("PRAGMA synchronous").get()).toEqual({ synchronous: 1 }); // NORMAL
      const other = new DatabaseSync(file, { readOnly: true });
      expect(other.prepare("SELECT html FROM pages WHERE id = ?").get("w1")).toEqual({ html });
      other.close();
      database.close();
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("treats ids as data, never SQL", async () => {
    const store = new SqlitePageStore(new DatabaseSync(":memory:"));
    await store.put("'; DROP TABLE pages; --", html);
    expect(await store.get("'; DROP TABLE pages; --")).toBe(html);
  });

  it("refuses a page over the size cap, and one past the quota with the seconds until the oldest expires; after the TTL the room is used again", async () => {
    let now = 1_000_000;
    const database = new DatabaseSync(":memory:");
    const store = new SqlitePageStore(database, LIMITS, () => now);
    await expect(store.put("big", `${KILOBYTE}é`)).rejects.toThrow(PageTooLarge);
    for (const id of ["a", "b", "c"]) {
      await store.put(id, KILOBYTE);
      now += 1_000;
    }
    const refusal = await store.put("d", "y").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PageQuotaExceeded);
    expect((refusal as PageQuotaExceeded).retryAfterSeconds).toBe(600 - 3);
    expect(store.bytes).toBe(3_000);
    // Replacing a page counts its new size only.
    await store.put("a", "short");
    expect(store.bytes).toBe(2_005);
    now += 598_000; // b (put at +1 s) has expired, c not yet
    expect(await store.get("b")).toBeNull();
    expect(await store.get("c")).toBe(KILOBYTE);
    await store.put("d", KILOBYTE);
    expect(
      database
        .prepare("SELECT id FROM pages ORDER BY id")
        .all()
        .map((row) => row.id),
    ).toEqual(["a", "c", "d"]);
    expect(store.bytes).toBe(2_005);
  });

  it("gives a table of the earlier version (id, html) sizes and an expiry, and counts its pages", async () => {
    const database = new DatabaseSync(":memory:");
    database.exec("CREATE TABLE pages (id TEXT PRIMARY KEY, html TEXT NOT NULL)");
    database.prepare("INSERT INTO pages (id, html) VALUES (?, ?)").run("old", "é".repeat(100));
    const now = 5_000_000;
    const store = new SqlitePageStore(database, LIMITS, () => now);
    expect(store.bytes).toBe(200);
    expect(database.prepare("SELECT bytes, expires FROM pages").get()).toEqual({ bytes: 200, expires: now + 600_000 });
    expect(await store.get("old")).toBe("é".repeat(100));
    // A second store on the same database changes nothing.
    expect(new SqlitePageStore(database, LIMITS, () => now).bytes).toBe(200);
  });
});

/** An in-memory Deno.Kv subset with versionstamps that enforces Deno KV's 65,536-byte value limit. */
function fakeDenoKv(): DenoKv & { entries: Map<string, unknown>; expiries: Map<string, number | undefined> } {
  const entries = new Map<string, unknown>();
  const expiries = new Map<string, number | undefined>();
  const versions = new Map<string, string>();
  let version = 0;
  const name = (key: DenoKvKey) => JSON.stringify(key);
  const size = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
  const entry = (key: DenoKvKey) => ({
    value: entries.get(name(key)) ?? null,
    versionstamp: versions.get(name(key)) ?? null,
  });
  return {
    entries,
    expiries,
    async get(key) {
      return entry(key);
    },
    async getMany(keys) {
      if (keys.length > 10) throw new TypeError("Too many ranges (max 10)");
      return keys.map(entry);
    },
    atomic() {
      const pending: [string, unknown, number | undefined][] = [];
      const checks: [string, string | null][] = [];
      const operation: DenoKvAtomic = {
        check(...list) {
          for (const check of list) checks.push([name(check.key), check.versionstamp]);
          return operation;
        },
        set(key, value, options) {
          if (size(value) > 65_536) throw new TypeError("Value too large (max 65536 bytes)");
          pending.push([name(key), value, options?.expireIn]);
          return operation;
        },
        async commit() {
          if (checks.some(([key, stamp]) => (versions.get(key) ?? null) !== stamp)) return { ok: false };
          version++;
          for (const [key, value, expireIn] of pending) {
            entries.set(key, value);
            expiries.set(key, expireIn);
            versions.set(key, String(version));
          }
          return { ok: true };
        },
      };
      return operation;
    },
  };
}

describe("DenoKvPageStore", () => {
  it("returns what was put, and null for an id never put", async () => {
    const store = new DenoKvPageStore(fakeDenoKv());
    await store.put("a1", html);
    expect(await store.get("a1")).toBe(html);
    expect(await store.get("a2")).toBeNull();
  });

  it("splits a page larger than one Deno KV value into chunks and joins them back", async () => {
    const kv = fakeDenoKv();
    const store = new DenoKvPageStore(kv, { maxPageBytes: 1 << 20, ttlSeconds: 600, quotaBytes: 1 << 20 });
    const big = "𝄞é<p>".repeat(CHUNK_LENGTH * 2);
    await store.put("big", big);
    expect(kv.entries.get(JSON.stringify(["pages", "big"]))).toMatchObject({ chunks: 12 });
    expect(await store.get("big")).toBe(big);
  });

  it("never splits a surrogate pair across chunks (every chunk is well-formed UTF-16)", async () => {
    const kv = fakeDenoKv();
    const store = new DenoKvPageStore(kv);
    const page = `a${"𝄞".repeat(CHUNK_LENGTH)}`;
    await store.put("pairs", page);
    const chunks = [...kv.entries.entries()]
      .filter(([key]) => key.startsWith('["pages","pairs",'))
      .map(([, value]) => value as string);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(() => encodeURIComponent(chunk)).not.toThrow();
    expect(await store.get("pairs")).toBe(page);
  });

  it("stores an empty page", async () => {
    const store = new DenoKvPageStore(fakeDenoKv());
    await store.put("empty", "");
    expect(await store.get("empty")).toBe("");
  });

  it("writes every entry of a page with expireIn the TTL, and returns no page once its expiry has passed", async () => {
    let now = 1_000_000;
    const kv = fakeDenoKv();
    const store = new DenoKvPageStore(kv, LIMITS, () => now);
    await store.put("p", KILOBYTE);
    const pageKeys = [...kv.expiries.keys()].filter((key) => key.startsWith('["pages"'));
    expect(pageKeys).toHaveLength(2);
    for (const key of pageKeys) expect(kv.expiries.get(key)).toBe(600_000);
    now += 600_000;
    expect(await store.get("p")).toBeNull();
  });

  it("refuses a page over the size cap, and one past the quota, counted in buckets that expire after their pages", async () => {
    let now = 1_000_000;
    const kv = fakeDenoKv();
    const store = new DenoKvPageStore(kv, LIMITS, () => now);
    await expect(store.put("big", `${KILOBYTE}é`)).rejects.toThrow(PageTooLarge);
    for (const id of ["a", "b", "c"]) await store.put(id, KILOBYTE);
    expect(await store.usage()).toBe(3_000);
    const refusal = await store.put("d", "y").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PageQuotaExceeded);
    const retryAfter = (refusal as PageQuotaExceeded).retryAfterSeconds;
    expect(retryAfter).toBeGreaterThan(600);
    expect(retryAfter).toBeLessThanOrEqual(600 + 60);
    now += retryAfter * 1000;
    expect(await store.usage()).toBe(0);
    await store.put("d", KILOBYTE);
  });

  it("a put that lost its race to another process reads the usage again (the check on the current bucket)", async () => {
    const kv = fakeDenoKv();
    const store = new DenoKvPageStore(kv, LIMITS);
    const other = new DenoKvPageStore(kv, LIMITS);
    // Both read the usage (2,000), then both commit: one of them must read again and be refused.
    await store.put("a", KILOBYTE);
    await store.put("b", KILOBYTE);
    const outcomes = await Promise.allSettled([store.put("c", KILOBYTE), other.put("d", KILOBYTE)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await store.usage()).toBe(3_000);
  });
});

describe("DenoKvPageStore on Deno KV (a Deno process)", () => {
  it("keeps its quota in a real KV file: puts past it are refused with a Retry-After, the pages put read back", () => {
    const scratch = mkdtempSync(join(tmpdir(), "gpt-address-denokv-"));
    try {
      const script = join(scratch, "check.ts");
      writeFileSync(
        script,
        `import { DenoKvPageStore } from ${JSON.stringify(join(root, "examples/pages/stores/deno-kv.ts"))};
const kv = await Deno.openKv(${JSON.stringify(join(scratch, "kv.sqlite3"))});
const store = new DenoKvPageStore(kv, ${JSON.stringify(LIMITS)});
const outcomes = [];
for (let i = 0; i < 5; i++) {
  try {
    await store.put("p" + i, "x".repeat(900));
    outcomes.push("put");
  } catch (error) {
    outcomes.push(error.name + ":" + error.retryAfterSeconds);
  }
}
const read = await store.get("p0");
console.log(JSON.stringify({ outcomes, usage: await store.usage(), read: read?.length ?? null, gone: await store.get("p4") }));
kv.close();
`,
      );
      const output = execFileSync(
        join(root, "node_modules/.bin/deno"),
        [
          "run",
          "--unstable-kv",
          "--node-modules-dir=manual",
          `--allow-read=${root},${scratch}`,
          `--allow-write=${scratch}`,
          script,
        ],
        {
          cwd: root,
          env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1", NO_COLOR: "1" },
          encoding: "utf8",
        },
      );
      const result = JSON.parse(output.trim().split("\n").at(-1)!) as {
        outcomes: string[];
        usage: number;
        read: number | null;
        gone: string | null;
      };
      expect(result.outcomes.slice(0, 3)).toEqual(["put", "put", "put"]);
      for (const refused of result.outcomes.slice(3)) expect(refused).toMatch(/^PageQuotaExceeded:\d+$/);
      expect(result.usage).toBe(2_700);
      expect(result.read).toBe(900);
      expect(result.gone).toBeNull();
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe("UpstashPageStore (Redis REST)", () => {
  let upstash: FakeUpstash;
  beforeAll(async () => (upstash = await startFakeUpstash("secret")));
  afterAll(() => upstash.close());

  it("SETs and GETs pages under the key prefix, with the bearer token", async () => {
    const store = new UpstashPageStore({ url: upstash.url, token: "secret" });
    await store.put("a1", html);
    expect(upstash.data.get("page:a1")).toBe(html);
    expect(await store.get("a1")).toBe(html);
    // A second page reads the bucket the first one counted in (its time to live is days).
    await store.put("a3", html);
    expect(await store.get("a3")).toBe(html);
    expect(await store.get("a2")).toBeNull();
    const custom = new UpstashPageStore({ url: upstash.url, token: "secret", prefix: "feedback:" });
    await custom.put("a1", "other");
    expect(upstash.data.get("feedback:a1")).toBe("other");
    expect(await store.get("a1")).toBe(html);
  });

  it("throws when the service refuses (a wrong token), so the act fails as a server fault", async () => {
    const store = new UpstashPageStore({ url: upstash.url, token: "wrong" });
    await expect(store.put("a1", html)).rejects.toThrow(/HTTP 401/);
    await expect(store.get("a1")).rejects.toThrow(/HTTP 401/);
  });

  it("puts a page with PX the TTL, refuses one over the size cap, and one past the quota with the bucket's time to live", async () => {
    const store = new UpstashPageStore({ url: upstash.url, token: "secret", prefix: "quota:", limits: LIMITS });
    await expect(store.put("big", `${KILOBYTE}é`)).rejects.toThrow(PageTooLarge);
    for (const id of ["a", "b", "c"]) await store.put(id, KILOBYTE);
    const refusal = await store.put("d", "y").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PageQuotaExceeded);
    const retryAfter = (refusal as PageQuotaExceeded).retryAfterSeconds;
    expect(retryAfter).toBeGreaterThan(600);
    expect(retryAfter).toBeLessThanOrEqual(660);
    expect(upstash.data.has("quota:d")).toBe(false);
    expect(await store.get("a")).toBe(KILOBYTE);
    const usage = [...upstash.data.entries()].filter(([key]) => key.startsWith("quota_usage:"));
    expect(usage.map(([, bytes]) => bytes)).toEqual(["3000"]);
    // Every page key lives the TTL: the fake's PTTL through a script, as Redis answers it.
    const ttl = await fetch(upstash.url, {
      method: "POST",
      headers: { authorization: "Bearer secret" },
      body: JSON.stringify(["PTTL", "quota:a"]),
    });
    const { result } = (await ttl.json()) as { result: number };
    expect(result).toBeGreaterThan(599_000);
    expect(result).toBeLessThanOrEqual(600_000);
  });

  it("throws when nothing answers at the URL", async () => {
    const store = new UpstashPageStore({ url: "http://127.0.0.1:9/", token: "secret" });
    await expect(store.put("a1", html)).rejects.toThrow();
  });
});
