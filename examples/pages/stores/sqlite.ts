/**
 * A {@link PageStore} on SQLite, for Node (`node:sqlite`) and Bun (`bun:sqlite`).
 *
 * The store takes an open database rather than opening one, so this file imports neither
 * module: the runtime entry (`examples/pages/node.ts`, `examples/pages/bun.ts`) opens the
 * database with its own runtime's driver and hands it over. Both drivers offer the same
 * `prepare(sql).get(...)` / `.run(...)` subset described by {@link SqliteDatabase}.
 *
 * @module
 */
import type { PageStore } from "../store.ts";

/** A value bound to a statement's `?` parameter. */
export type SqliteValue = string | number | null;

/** The subset of a prepared statement that both `node:sqlite` and `bun:sqlite` provide. */
export interface SqliteStatement {
  /** Runs the statement and returns its first row, or `undefined` (Node) / `null` (Bun). */
  get(...parameters: SqliteValue[]): unknown;
  /** Runs the statement for its effect. */
  run(...parameters: SqliteValue[]): unknown;
}

/** The subset of a database handle that both `node:sqlite` and `bun:sqlite` provide. */
export interface SqliteDatabase {
  /** Executes one or more statements with no parameters. */
  exec(sql: string): unknown;
  /** Compiles one statement. */
  prepare(sql: string): SqliteStatement;
}

/**
 * How long a statement waits for another process's write lock before failing with "database
 * is locked" (`PRAGMA busy_timeout`), in ms: processes sharing one file (starting together,
 * or counting rate limits) take turns.
 */
export const BUSY_TIMEOUT_MS = 2_000;

/**
 * Sets up a connection the way every user of the example's database needs it (the page store
 * and the rate limits; the pragmas are idempotent): `busy_timeout` {@link BUSY_TIMEOUT_MS}, and
 * write-ahead-log mode with `synchronous = NORMAL` (https://sqlite.org/wal.html): a stored page
 * or count survives a crash of the server, and only a power loss or an operating-system crash
 * may lose the last ones. Both drivers are synchronous, so a write holds the event loop; in the
 * default rollback journal with `synchronous = FULL` every write waited for several `fsync`
 * calls, milliseconds each, and every request behind it waited too (issue 15, `npm run
 * bench:hostile`: about 3.7 ms per page, against 0.1 ms). A database in memory (`:memory:`)
 * keeps its own journal mode.
 *
 * @throws the driver's error when a pragma cannot be set.
 */
export function prepareConnection(database: SqliteDatabase): void {
  database.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  database.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
}

/**
 * Stores rendered pages in one table, `pages(id TEXT PRIMARY KEY, html TEXT)`, created on
 * first use. Statements are prepared once, at construction, after {@link prepareConnection}.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * const store = new SqlitePageStore(new DatabaseSync("pages.sqlite"));
 * ```
 */
export class SqlitePageStore implements PageStore {
  readonly #insert: SqliteStatement;
  readonly #select: SqliteStatement;

  constructor(database: SqliteDatabase) {
    prepareConnection(database);
    database.exec("CREATE TABLE IF NOT EXISTS pages (id TEXT PRIMARY KEY, html TEXT NOT NULL)");
    this.#insert = database.prepare("INSERT OR REPLACE INTO pages (id, html) VALUES (?, ?)");
    this.#select = database.prepare("SELECT html FROM pages WHERE id = ?");
  }

  async put(id: string, html: string): Promise<void> {
    this.#insert.run(id, html);
  }

  async get(id: string): Promise<string | null> {
    const row = this.#select.get(id) as { html: string } | null | undefined;
    return row == null ? null : row.html;
  }
}
