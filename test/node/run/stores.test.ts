/**
 * The run stores of Node (issue 34): memory (one instance) and SQLite through `node:sqlite`, two
 * connections to one file standing for two instances. Every check of `./checks.ts`: acts
 * finished within the wait, progress and results read through the other instance, a cancel
 * through the other instance aborting the act's signal, failures kept generic, absent and
 * expired runs, 50 concurrent claims of one `Idempotency-Key`, and the quota.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { DurableObjectRunStore, type RunStoreNamespace } from "../../../src/run/durable-object.ts";
import { MemoryRunStore } from "../../../src/run/memory.ts";
import { SqliteRunStore } from "../../../src/run/sqlite.ts";
import { CHECKS, type OpenPair } from "./checks.ts";

const scratch = mkdtempSync(join(tmpdir(), "gpt-address-runs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const memory: OpenPair = (_name, limits, now) => {
  const store = new MemoryRunStore(limits, now);
  return { a: store, b: store };
};

const sqlite: OpenPair = (name, limits, now) => {
  const file = join(scratch, `${name}.sqlite`);
  const first = new DatabaseSync(file);
  const second = new DatabaseSync(file);
  return {
    a: new SqliteRunStore(first, limits, now),
    b: new SqliteRunStore(second, limits, now),
    close() {
      first.close();
      second.close();
    },
  };
};

for (const [store, open] of [
  ["MemoryRunStore", memory],
  ["SqliteRunStore (node:sqlite, two connections to one file)", sqlite],
] as const) {
  describe(store, () => {
    for (const [name, check] of Object.entries(CHECKS)) it(name, () => check(open), 20_000);
  });
}

describe("SqliteRunStore tables", () => {
  it("keeps runs and claims as data (ids and keys never SQL), and sweeps expired rows on creation", async () => {
    let now = 1_000_000;
    const database = new DatabaseSync(":memory:");
    const store = new SqliteRunStore(database, { maxRuns: 10, ttlMs: 1_000 }, () => now);
    const record = {
      id: "'; DROP TABLE x; --",
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      expiresAt: now + 1_000,
      pollIntervalMs: 100,
    } as const;
    expect(await store.create(record, { key: "k'", fingerprint: "f" })).toEqual({ created: true });
    expect(await store.get(record.id)).toEqual(record);
    now += 1_000;
    expect(await store.get(record.id)).toBeNull();
    await store.create({ ...record, id: "other", expiresAt: now + 1_000 });
    expect(
      database
        .prepare("SELECT id FROM gpt_address_runs")
        .all()
        .map((row) => row.id),
    ).toEqual(["other"]);
    expect(database.prepare("SELECT count(*) AS n FROM gpt_address_run_keys").get()).toEqual({ n: 0 });
  });
});

describe("DurableObjectRunStore construction", () => {
  it("refuses a missing namespace binding at once, naming [[durable_objects.bindings]] in wrangler.toml", () => {
    const missing = undefined as unknown as RunStoreNamespace;
    expect(() => new DurableObjectRunStore(missing)).toThrow(TypeError);
    expect(() => new DurableObjectRunStore(missing)).toThrow(
      /undefined.*\[\[durable_objects\.bindings\]\] in wrangler\.toml/,
    );
    expect(() => new DurableObjectRunStore({} as RunStoreNamespace)).toThrow(/not a namespace binding/);
  });
});
