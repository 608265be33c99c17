/**
 * A {@link PageStore} on SQLite, for Node (`node:sqlite`) and Bun (`bun:sqlite`).
 *
 * The store takes an open database rather than opening one, so this file imports neither
 * module: the runtime entry (`examples/pages/node.ts`, `examples/pages/bun.ts`) opens the
 * database with its own runtime's driver and hands it over. Both drivers offer the same
 * `prepare(sql).get(...)` / `.run(...)` subset described by {@link SqliteDatabase}, the one
 * the run store (`gpt-address/run/sqlite`) takes.
 *
 * @module
 */
import { accessSync, constants } from "node:fs";
import { dirname, resolve } from "node:path";

import type { SqlValue } from "../../../src/run/sql.ts";
import type { SqliteDatabase, SqliteStatement } from "../../../src/run/sqlite.ts";
import { StartupError } from "../startup.ts";
import { DEFAULT_PAGE_LIMITS, type PageLimits, PageQuotaExceeded, type PageStore, pageSize } from "../store.ts";

export type { SqliteDatabase, SqliteStatement, SqlValue as SqliteValue };

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
  // Turning a new file to WAL takes its exclusive lock; two processes doing it at once can
  // deadlock, and SQLite then fails one at once without waiting (https://sqlite.org/c3ref/busy_handler.html):
  // "database is locked" in 6 of 80 processes started in pairs on a new file. So it is tried again.
  untilNotBusy(() => database.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL"));
}

/** A word to wait on between tries (`Atomics.wait`: a synchronous pause, as the drivers are). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `statement`, and again every 10 ms while it fails with `SQLITE_BUSY`, for up to
 * {@link BUSY_TIMEOUT_MS}.
 *
 * @throws the driver's error when it is not `SQLITE_BUSY`, or still is at the end.
 */
function untilNotBusy(statement: () => void): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      statement();
      return;
    } catch (error) {
      const { code, errcode } = (error ?? {}) as Record<string, unknown>;
      const busy = code === "SQLITE_BUSY" || (typeof errcode === "number" && (errcode & 0xff) === 5);
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

/** Names of SQLite's primary result codes that a database can fail to open or write with. */
const SQLITE_CODES: Readonly<Record<number, string>> = {
  3: "SQLITE_PERM",
  5: "SQLITE_BUSY",
  8: "SQLITE_READONLY",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
  23: "SQLITE_AUTH",
  26: "SQLITE_NOTADB",
};

/**
 * The cause of a driver's or the file system's error, as a code and its message:
 * `SQLITE_CANTOPEN: unable to open database file`. `bun:sqlite` names the code
 * (`SQLITE_READONLY_DIRECTORY`); `node:sqlite` gives the number (`errcode`, extended codes
 * named by their primary code); `node:fs` gives `code` (`EACCES`).
 */
function causeOf(error: unknown): string {
  const { code, errcode, errstr, message } = (error ?? {}) as Record<string, unknown>;
  const text = typeof errstr === "string" ? errstr : typeof message === "string" ? message : String(error);
  if (typeof code === "string" && code !== "ERR_SQLITE_ERROR") return text.startsWith(code) ? text : `${code}: ${text}`;
  if (typeof errcode === "number") return `${SQLITE_CODES[errcode & 0xff] ?? `SQLite error ${errcode}`}: ${text}`;
  return text;
}

/**
 * Opens the example's page database at `file` with `open` (the runtime's driver) and makes
 * sure it can be written before the server starts: a database that opens but cannot be
 * written (a read-only file, or a directory where SQLite cannot create the write-ahead log's
 * `-wal` and `-shm` files) otherwise fails every act, and a `-shm` file that cannot be
 * written was seen to end the process with SIGBUS. In order:
 * 1. the file and its `-wal` and `-shm` files, where they exist, and otherwise their
 *    directory, must be writable (`access(W_OK)`: `ENOENT`, `EACCES`, `EROFS`);
 * 2. the driver opens the file and {@link prepareConnection} sets it up;
 * 3. a write inside a transaction that is rolled back (`BEGIN IMMEDIATE`, `CREATE TABLE`,
 *    `ROLLBACK`): `SQLITE_READONLY`, `SQLITE_BUSY` past the lock wait, `SQLITE_NOTADB`.
 * `:memory:` is opened as it is.
 *
 * @param setting - the environment variable that chose `file`, named in the message.
 * @throws {StartupError} naming the file, the cause and what to do; the driver's own error
 *   is its `cause`.
 * @see https://sqlite.org/wal.html (the `-wal` and `-shm` files), https://sqlite.org/rescode.html
 */
export function openPageDatabase<D extends SqliteDatabase>(
  file: string,
  open: (file: string) => D,
  setting = "PAGES_DB",
): D {
  const path = file === ":memory:" ? file : resolve(file);
  const fail = (what: string, error: unknown): never => {
    throw new StartupError(
      `cannot use the page database ${path} (${setting}): ${what}${causeOf(error).replace(/\.$/, "")}. Set ${setting} to an SQLite file (or a new one) in a directory this process can write, or ${setting}=:memory: to keep nothing.`,
      { cause: error },
    );
  };
  if (path !== ":memory:") {
    for (const wanted of [path, `${path}-wal`, `${path}-shm`]) {
      // The file itself first; where it does not exist (or another process removed it
      // between two calls: the last connection to close deletes the `-wal` file), the
      // directory it would be created in.
      try {
        accessSync(wanted, constants.W_OK);
        continue;
      } catch (error) {
        if ((error as { code?: unknown }).code !== "ENOENT") fail(`${wanted} is not writable: `, error);
      }
      const directory = dirname(wanted);
      try {
        accessSync(directory, constants.W_OK);
      } catch (error) {
        const missing = (error as { code?: unknown }).code === "ENOENT";
        fail(missing ? `its directory ${directory} does not exist: ` : `cannot create files in ${directory}: `, error);
      }
    }
  }
  let database: D | undefined;
  try {
    database = open(path);
  } catch (error) {
    fail("", error);
  }
  try {
    prepareConnection(database!);
    database!.exec("BEGIN IMMEDIATE");
  } catch (error) {
    fail("", error);
  }
  try {
    database!.exec("CREATE TABLE gpt_address_write_check (x)");
  } catch (error) {
    fail("a write failed: ", error);
  } finally {
    try {
      database!.exec("ROLLBACK");
    } catch {}
  }
  return database!;
}

/**
 * Stores rendered pages in one table, `pages(id TEXT PRIMARY KEY, html TEXT, bytes INTEGER,
 * expires INTEGER)` (`bytes`: the HTML's UTF-8 length; `expires`: ms since the epoch), created
 * on first use; a table of an earlier version without the last two columns gets them, its pages
 * counted and set to expire one TTL from then. The bytes of all pages are kept in the one row of
 * `page_usage`, by triggers on `pages`, so that the quota costs one read however many pages
 * there are, for every process sharing the file.
 *
 * A put is one `BEGIN IMMEDIATE` transaction (processes sharing the file take turns): it deletes
 * the pages that have expired (by the index on `expires`), then inserts the page unless that
 * would take the usage past the quota; then it throws {@link PageQuotaExceeded}, with the
 * seconds until the next page expires. A get never returns an expired page. Statements are
 * prepared once, at construction, after {@link prepareConnection}.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * const store = new SqlitePageStore(new DatabaseSync("pages.sqlite"), pageLimits((name) => process.env[name]));
 * ```
 */
export class SqlitePageStore implements PageStore {
  readonly #database: SqliteDatabase;
  readonly #limits: PageLimits;
  readonly #now: () => number;
  readonly #sweep: SqliteStatement;
  readonly #usage: SqliteStatement;
  readonly #size: SqliteStatement;
  readonly #next: SqliteStatement;
  readonly #insert: SqliteStatement;
  readonly #select: SqliteStatement;

  /**
   * @param limits - the store's bounds; default {@link DEFAULT_PAGE_LIMITS}.
   * @param now - the clock, in ms since the epoch (tests set it).
   * @throws the driver's error when the tables cannot be set up.
   */
  constructor(database: SqliteDatabase, limits: PageLimits = DEFAULT_PAGE_LIMITS, now: () => number = Date.now) {
    this.#database = database;
    this.#limits = limits;
    this.#now = now;
    prepareConnection(database);
    transaction(database, () => {
      database.exec("CREATE TABLE IF NOT EXISTS pages (id TEXT PRIMARY KEY, html TEXT NOT NULL)");
      const { names } = database
        .prepare("SELECT group_concat(name, ' ') AS names FROM pragma_table_info('pages')")
        .get() as { names: string };
      const columns = new Set(names.split(" "));
      if (!columns.has("bytes")) {
        database.exec("ALTER TABLE pages ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0");
        database.exec("UPDATE pages SET bytes = length(CAST(html AS BLOB))");
      }
      if (!columns.has("expires")) {
        database.exec("ALTER TABLE pages ADD COLUMN expires INTEGER NOT NULL DEFAULT 0");
        database.prepare("UPDATE pages SET expires = ?").run(now() + limits.ttlSeconds * 1000);
      }
      database.exec(`CREATE INDEX IF NOT EXISTS pages_expires ON pages (expires);
CREATE TABLE IF NOT EXISTS page_usage (id INTEGER PRIMARY KEY CHECK (id = 1), bytes INTEGER NOT NULL);
INSERT OR IGNORE INTO page_usage (id, bytes) SELECT 1, coalesce(sum(bytes), 0) FROM pages;
CREATE TRIGGER IF NOT EXISTS pages_added AFTER INSERT ON pages BEGIN
  UPDATE page_usage SET bytes = bytes + NEW.bytes WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS pages_removed AFTER DELETE ON pages BEGIN
  UPDATE page_usage SET bytes = bytes - OLD.bytes WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS pages_replaced AFTER UPDATE OF bytes ON pages BEGIN
  UPDATE page_usage SET bytes = bytes - OLD.bytes + NEW.bytes WHERE id = 1; END;`);
    });
    this.#sweep = database.prepare("DELETE FROM pages WHERE expires <= ?");
    this.#usage = database.prepare("SELECT bytes FROM page_usage WHERE id = 1");
    this.#size = database.prepare("SELECT bytes FROM pages WHERE id = ?");
    this.#next = database.prepare("SELECT min(expires) AS next FROM pages");
    this.#insert = database.prepare(
      "INSERT INTO pages (id, html, bytes, expires) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET html = excluded.html, bytes = excluded.bytes, expires = excluded.expires",
    );
    this.#select = database.prepare("SELECT html FROM pages WHERE id = ? AND expires > ?");
  }

  /** Bytes of the pages kept, expired ones not yet deleted included. */
  get bytes(): number {
    return (this.#usage.get() as { bytes: number }).bytes;
  }

  async put(id: string, html: string): Promise<void> {
    const bytes = pageSize(html, this.#limits);
    const now = this.#now();
    const refusal = transaction(this.#database, () => {
      this.#sweep.run(now);
      const used = (this.#usage.get() as { bytes: number }).bytes;
      const replaced = (this.#size.get(id) as { bytes: number } | null | undefined)?.bytes ?? 0;
      if (used - replaced + bytes > this.#limits.quotaBytes) {
        const next = (this.#next.get() as { next: number | null }).next;
        return new PageQuotaExceeded(next === null ? 1 : (next - now) / 1000);
      }
      this.#insert.run(id, html, bytes, now + this.#limits.ttlSeconds * 1000);
      return null;
    });
    if (refusal !== null) throw refusal;
  }

  async get(id: string): Promise<string | null> {
    const row = this.#select.get(id, this.#now()) as { html: string } | null | undefined;
    return row == null ? null : row.html;
  }
}

/** Runs `fn` in a `BEGIN IMMEDIATE` transaction: committed, or rolled back when it throws. */
function transaction<T>(database: SqliteDatabase, fn: () => T): T {
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
}
