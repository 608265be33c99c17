/**
 * gpt-address/run/sqlite: a {@link RunStore} in an SQLite file, for Node (`node:sqlite`) and
 * Bun (`bun:sqlite`): processes sharing the file share the runs (created in one, read, changed
 * and cancelled in another).
 *
 * The store takes an open database rather than opening one, so this module imports neither
 * driver (and no Node API): both offer the `exec` / `prepare(sql).get(...)` / `.run(...)` subset
 * of {@link SqliteDatabase}. Each operation is one `BEGIN IMMEDIATE` transaction (see
 * `./sql.ts`); the connection waits up to {@link BUSY_TIMEOUT_MS} for another process's write
 * lock, in write-ahead-log mode (`synchronous = NORMAL`: a run written survives the process,
 * https://sqlite.org/wal.html). Both drivers are synchronous: an operation holds the event loop
 * for its transaction (tens of µs in WAL mode).
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite"; // Bun: import { Database } from "bun:sqlite"
 * import { SqliteRunStore } from "gpt-address/run/sqlite";
 * const runs = new SqliteRunStore(new DatabaseSync("runs.sqlite"), { maxRuns: 10_000, ttlMs: 3_600_000 });
 * ```
 * @module
 */
import {
  type CreateOutcome,
  DEFAULT_RUN_LIMITS,
  type IdempotencyClaim,
  type RunChange,
  type RunLimits,
  type RunRecord,
  type RunStore,
} from "./run.ts";
import { type SqlDriver, SqlRuns, type SqlValue } from "./sql.ts";

/** The subset of a prepared statement that both `node:sqlite` and `bun:sqlite` provide. */
export interface SqliteStatement {
  /** Runs the statement and returns its first row, or `undefined` (Node) / `null` (Bun). */
  get(...parameters: SqlValue[]): unknown;
  /** Runs the statement for its effect. */
  run(...parameters: SqlValue[]): unknown;
}

/** The subset of a database handle that both `node:sqlite` and `bun:sqlite` provide. */
export interface SqliteDatabase {
  /** Executes one or more statements with no parameters. */
  exec(sql: string): unknown;
  /** Compiles one statement. */
  prepare(sql: string): SqliteStatement;
}

/** How long a statement waits for another process's write lock (`PRAGMA busy_timeout`), in ms. */
export const BUSY_TIMEOUT_MS = 5_000;

/** Whether `error` is SQLite's `SQLITE_BUSY` (Bun names it, Node numbers it). */
function isBusy(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as Record<string, unknown>;
  return code === "SQLITE_BUSY" || (typeof errcode === "number" && (errcode & 0xff) === 5);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * The driver over a database: statements prepared once each, `BEGIN IMMEDIATE` transactions.
 * Turning a new file to WAL takes an exclusive lock that SQLite refuses at once, without the
 * busy wait, when two processes try together: that is tried again every 10 ms.
 */
function driver(database: SqliteDatabase): SqlDriver {
  database.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      database.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
      break;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
  const statements = new Map<string, SqliteStatement>();
  const statement = (sql: string) => {
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      prepared = database.prepare(sql);
      statements.set(sql, prepared);
    }
    return prepared;
  };
  return {
    exec: (sql) => void database.exec(sql),
    one: (sql, ...parameters) =>
      (statement(sql).get(...parameters) ?? undefined) as Record<string, SqlValue> | undefined,
    run: (sql, ...parameters) => void statement(sql).run(...parameters),
    transaction<T>(fn: () => T): T {
      database.exec("BEGIN IMMEDIATE");
      try {
        const result = fn();
        database.exec("COMMIT");
        return result;
      } catch (error) {
        try {
          database.exec("ROLLBACK");
        } catch {}
        throw error;
      }
    },
  };
}

/** Runs in an SQLite database; see the module. */
export class SqliteRunStore implements RunStore {
  readonly limits: RunLimits;
  readonly #runs: SqlRuns;
  readonly #now: () => number;

  /**
   * @param now - the clock, in ms since the epoch (tests set it).
   * @throws the driver's error when the connection or the tables cannot be set up.
   */
  constructor(database: SqliteDatabase, limits: RunLimits = DEFAULT_RUN_LIMITS, now: () => number = Date.now) {
    this.limits = limits;
    this.#now = now;
    this.#runs = new SqlRuns(driver(database));
  }

  async create(run: RunRecord, claim?: IdempotencyClaim): Promise<CreateOutcome> {
    return this.#runs.create(run, claim, this.limits, this.#now());
  }

  async get(id: string): Promise<RunRecord | null> {
    return this.#runs.get(id, this.#now());
  }

  async update(id: string, change: RunChange): Promise<RunRecord | null> {
    return this.#runs.update(id, change, this.#now());
  }

  async delete(id: string): Promise<void> {
    this.#runs.delete(id);
  }
}
