/**
 * The example address's page stores, outside any server: SQLite on `node:sqlite` (the same
 * class serves `bun:sqlite`, exercised by the Bun wire suite), Deno KV's chunking over a
 * stand-in with Deno KV's value limit (the real Deno KV is exercised by the Deno wire
 * suite), and the Upstash REST store against a fake service on loopback.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
});

/** An in-memory Deno.Kv subset that enforces Deno KV's 65,536-byte value limit. */
function fakeDenoKv(): DenoKv & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  const name = (key: DenoKvKey) => JSON.stringify(key);
  const size = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
  return {
    entries,
    async get(key) {
      return { value: entries.get(name(key)) ?? null };
    },
    async getMany(keys) {
      if (keys.length > 10) throw new TypeError("Too many ranges (max 10)");
      return keys.map((key) => ({ value: entries.get(name(key)) ?? null }));
    },
    atomic() {
      const pending: [string, unknown][] = [];
      const operation: DenoKvAtomic = {
        set(key, value) {
          if (size(value) > 65_536) throw new TypeError("Value too large (max 65536 bytes)");
          pending.push([name(key), value]);
          return operation;
        },
        async commit() {
          for (const [key, value] of pending) entries.set(key, value);
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
    const store = new DenoKvPageStore(kv);
    const big = "𝄞é<p>".repeat(CHUNK_LENGTH * 3);
    await store.put("big", big);
    expect(kv.entries.get(JSON.stringify(["pages", "big"]))).toBeGreaterThan(10);
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

  it("throws when nothing answers at the URL", async () => {
    const store = new UpstashPageStore({ url: "http://127.0.0.1:9/", token: "secret" });
    await expect(store.put("a1", html)).rejects.toThrow();
  });
});
