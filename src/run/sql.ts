/**
 * The runs of a {@link RunStore} in SQLite tables, shared by the SQLite store (`node:sqlite`,
 * `bun:sqlite`) and the Durable Object store (its SQLite storage): the same statements through
 * a {@link SqlDriver} that each of them adapts.
 *
 * Tables (created on first use):
 * - `gpt_address_runs(id TEXT PRIMARY KEY, expires INTEGER, record TEXT)`: `record` is the
 *   {@link RunRecord} as JSON, `expires` its `expiresAt` (ms since the epoch), indexed;
 * - `gpt_address_run_keys(key TEXT PRIMARY KEY, fingerprint TEXT, id TEXT, expires INTEGER)`:
 *   the idempotency claims, each expiring with its run.
 *
 * Every operation is one transaction of the driver's (`BEGIN IMMEDIATE` in a file shared by
 * processes, `transactionSync` in a Durable Object), so a claim is an insert-if-absent and the
 * quota a count no concurrent creation can pass.
 *
 * @module
 */
import {
  applyChange,
  type CreateOutcome,
  type IdempotencyClaim,
  IdempotencyKeyReused,
  type RunChange,
  type RunLimits,
  RunQuotaExceeded,
  type RunRecord,
} from "./run.ts";

/** A value bound to a statement's `?` parameter. */
export type SqlValue = string | number | null;

/** What {@link SqlRuns} needs of a SQLite connection. */
export interface SqlDriver {
  /** Executes statements with no parameters (the schema). */
  exec(sql: string): void;
  /** The first row of `sql`, or `undefined`. */
  one(sql: string, ...parameters: SqlValue[]): Record<string, SqlValue> | undefined;
  /** Runs `sql` for its effect. */
  run(sql: string, ...parameters: SqlValue[]): void;
  /** Runs `fn` in one transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(fn: () => T): T;
}

export const SCHEMA = `CREATE TABLE IF NOT EXISTS gpt_address_runs (id TEXT PRIMARY KEY, expires INTEGER NOT NULL, record TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS gpt_address_runs_expires ON gpt_address_runs (expires);
CREATE TABLE IF NOT EXISTS gpt_address_run_keys (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, id TEXT NOT NULL, expires INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS gpt_address_run_keys_expires ON gpt_address_run_keys (expires);`;

/** The run operations on a driver, synchronous (each one transaction). */
export class SqlRuns {
  readonly #driver: SqlDriver;

  /** Creates the tables when absent. */
  constructor(driver: SqlDriver) {
    this.#driver = driver;
    driver.transaction(() => driver.exec(SCHEMA));
  }

  /** {@link RunStore.create} within `limits`, at `now`. */
  create(run: RunRecord, claim: IdempotencyClaim | undefined, limits: RunLimits, now: number): CreateOutcome {
    const db = this.#driver;
    return db.transaction(() => {
      db.run("DELETE FROM gpt_address_runs WHERE expires <= ?", now);
      db.run("DELETE FROM gpt_address_run_keys WHERE expires <= ?", now);
      if (claim !== undefined) {
        const held = db.one("SELECT fingerprint, id FROM gpt_address_run_keys WHERE key = ?", claim.key);
        if (held !== undefined) {
          if (held.fingerprint !== claim.fingerprint) throw new IdempotencyKeyReused();
          return { created: false, id: String(held.id) };
        }
      }
      const { count, oldest } = db.one("SELECT count(*) AS count, min(expires) AS oldest FROM gpt_address_runs")!;
      if (Number(count) >= limits.maxRuns) {
        // With no run kept (maxRuns 0) room comes no sooner than a TTL.
        throw new RunQuotaExceeded(((oldest === null ? now + limits.ttlMs : Number(oldest)) - now) / 1000);
      }
      db.run(
        "INSERT INTO gpt_address_runs (id, expires, record) VALUES (?, ?, ?)",
        run.id,
        run.expiresAt,
        JSON.stringify(run),
      );
      if (claim !== undefined) {
        db.run(
          "INSERT INTO gpt_address_run_keys (key, fingerprint, id, expires) VALUES (?, ?, ?, ?)",
          claim.key,
          claim.fingerprint,
          run.id,
          run.expiresAt,
        );
      }
      return { created: true };
    });
  }

  /** {@link RunStore.get} at `now`. */
  get(id: string, now: number): RunRecord | null {
    const row = this.#driver.one("SELECT record FROM gpt_address_runs WHERE id = ? AND expires > ?", id, now);
    return row === undefined ? null : (JSON.parse(String(row.record)) as RunRecord);
  }

  /** {@link RunStore.update} at `now`. */
  update(id: string, change: RunChange, now: number): RunRecord | null {
    const db = this.#driver;
    return db.transaction(() => {
      const run = this.get(id, now);
      if (run === null) return null;
      const changed = applyChange(run, change, now);
      if (changed === null) return run;
      db.run("UPDATE gpt_address_runs SET record = ? WHERE id = ?", JSON.stringify(changed), id);
      return changed;
    });
  }

  /** {@link RunStore.delete}. */
  delete(id: string): void {
    this.#driver.run("DELETE FROM gpt_address_runs WHERE id = ?", id);
  }
}
