/**
 * Rate limits kept in the SQLite database that keeps the pages (Node's `node:sqlite`, Bun's
 * `bun:sqlite`), so that every process serving from one database file shares one budget per
 * client: rate-limiter-flexible's `RateLimiterSQLite`, a fixed window per key in one table
 * (`rate_limits`), counted by one `INSERT … ON CONFLICT DO UPDATE … RETURNING` statement.
 *
 * `RateLimiterSQLite` drives the `sqlite3` and `better-sqlite3` packages. Neither built-in
 * driver has the `better-sqlite3` shape it checks for (`node:sqlite` has no `transaction()`;
 * `bun:sqlite` has a `run()` on the database, which the check refuses), so
 * {@link BetterSqliteShape} gives it that shape over either: `prepare(sql)` (statements cached
 * by their text) and `transaction(fn)` as `BEGIN IMMEDIATE` … `COMMIT`.
 *
 * @module
 */
import { RateLimiterSQLite } from "rate-limiter-flexible";
import type { RateLimiter } from "../../../src/address/rate-limit.ts";
import { flexibleLimiter, REFUSED_IN_MEMORY, WINDOW_SECONDS } from "../rate-limiters.ts";
import { prepareConnection, type SqliteDatabase, type SqliteStatement, type SqliteValue } from "./sqlite.ts";

/** The table of the budgets: `key TEXT PRIMARY KEY, points INTEGER, expire INTEGER` (ms since the epoch). */
export const RATE_LIMIT_TABLE = "rate_limits";

/**
 * A `better-sqlite3`-shaped handle over a `node:sqlite` or `bun:sqlite` database, the subset
 * `RateLimiterSQLite` calls (`storeType: "better-sqlite3"`).
 */
export class BetterSqliteShape {
  readonly #database: SqliteDatabase;
  readonly #statements = new Map<string, SqliteStatement>();

  constructor(database: SqliteDatabase) {
    this.#database = database;
  }

  /** The compiled statement for `sql`, compiled once. `get` answers `undefined` for no row, as `better-sqlite3` does. */
  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      const compiled = this.#database.prepare(sql);
      statement = {
        get: (...parameters: SqliteValue[]) => compiled.get(...parameters) ?? undefined,
        run: (...parameters: SqliteValue[]) => compiled.run(...parameters),
      };
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** `fn` wrapped in `BEGIN IMMEDIATE` … `COMMIT`, rolled back when it throws. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    return (...args) => {
      this.#database.exec("BEGIN IMMEDIATE");
      try {
        const result = fn(...args);
        this.#database.exec("COMMIT");
        return result;
      } catch (error) {
        // SQLite may have rolled back already (a failed write ends the transaction itself):
        // then ROLLBACK throws "no transaction is active", which must not hide the real error.
        try {
          this.#database.exec("ROLLBACK");
        } catch {}
        throw error;
      }
    };
  }
}

/**
 * Makes limiters of the budgets in `database`, which may be shared with other processes on
 * the same host. Sets the connection up with `prepareConnection` (lock wait, WAL mode with
 * `synchronous = NORMAL`: every request is a write, and a commit then does not wait for the
 * disk), creates
 * {@link RATE_LIMIT_TABLE} if missing, and deletes windows that ended over an hour ago every
 * five minutes (a failure there is logged).
 *
 * @returns a function making a limiter of `points` requests per client per minute, whose keys
 *   are prefixed by `kind` (`act:203.0.113.7`).
 * @throws the driver's error when the pragma or the table cannot be set up.
 */
export function sqliteLimiters(database: SqliteDatabase): (points: number, kind: string) => RateLimiter {
  prepareConnection(database);
  const storeClient = new BetterSqliteShape(database);
  // RateLimiterSQLite would create it asynchronously and throw, unhandled, on a failure.
  storeClient
    .prepare(
      `CREATE TABLE IF NOT EXISTS ${RATE_LIMIT_TABLE} (key TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire INTEGER)`,
    )
    .run();
  const sweep = storeClient.prepare(`DELETE FROM ${RATE_LIMIT_TABLE} WHERE expire < ?`);
  const timer = setInterval(() => {
    try {
      sweep.run(Date.now() - 3_600_000);
    } catch (error) {
      console.error("gpt-address example: deleting ended rate-limit windows failed", error);
    }
  }, 300_000);
  (timer as { unref?: () => void }).unref?.();
  return (points, kind) =>
    flexibleLimiter(
      new RateLimiterSQLite({
        storeClient,
        storeType: "better-sqlite3",
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        keyPrefix: kind,
        points,
        duration: WINDOW_SECONDS,
        ...REFUSED_IN_MEMORY(points),
      }),
    );
}
