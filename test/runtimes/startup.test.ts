/**
 * The Node, Bun and Deno entries given a store they cannot use: each exits with status 1 and
 * one line on stderr naming the file, the cause and the setting to change, never a stack
 * trace, and never a server that starts and then fails every act. A directory that does not
 * exist, a write-ahead log whose `-shm` file is read-only (next to a running connection, in a
 * read-only directory), a file that is not a database, a read-only Deno KV file.
 *
 * Permissions do not bind root, so when the suite runs as root the read-only cases run the
 * entry as `nobody` (uid 65534), for whom the root-owned files are read-only.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { command, freePort, root } from "./harness.ts";

const bin = (name: string) => join(root, "node_modules", ".bin", name);
const asRoot = process.getuid?.() === 0;
/**
 * Whether the read-only cases can run: as another user than root, always; as root, only when
 * `nobody` may read the project and its runtimes (a clone under a private home may not, and
 * those cases are then skipped rather than failing on an unreadable script).
 */
const readOnlyCases =
  !asRoot ||
  spawnSync(process.execPath, ["-e", "require('node:fs').accessSync('examples/pages/node.ts')"], {
    cwd: root,
    uid: 65534,
    gid: 65534,
    stdio: "ignore",
    timeout: 10_000,
  }).status === 0;

/** Runs one entry to its exit (at most 20 s) and returns its status and what it wrote. */
async function start(
  runtime: "node" | "bun" | "deno",
  env: Record<string, string>,
  { unprivileged = false, scratch = "" } = {},
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  // The harness's own command line for the entry; its store settings are replaced by `env`.
  const { file, args } = command(runtime, 0, scratch || tmpdir(), env.DENO_KV_PATH);
  const child = spawn(file, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(await freePort()),
      RATE_LIMIT: "off",
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      DENO_NO_PROMPT: "1",
      // nobody has no home: Deno's cache and Bun's home go to a directory anyone may write.
      ...(unprivileged && asRoot ? { HOME: join(scratch, "home"), DENO_DIR: join(scratch, "home", "deno") } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    ...(unprivileged && asRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
    child.once("exit", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  clearTimeout(timer);
  return { code, signal, stdout, stderr };
}

/** Asserts one failed start: exit 1 (not a signal, not a server), one line naming `parts`. */
function expectOneLine(outcome: Awaited<ReturnType<typeof start>>, parts: (string | RegExp)[]): void {
  const lines = outcome.stderr.trim().split("\n");
  expect({ code: outcome.code, signal: outcome.signal, lines: lines.length }, outcome.stderr).toEqual({
    code: 1,
    signal: null,
    lines: 1,
  });
  expect(outcome.stdout).not.toMatch(/listening/);
  const [line] = lines;
  expect(line).toMatch(/^gpt-address example: cannot use the /);
  for (const part of parts) expect(line).toMatch(part);
}

describe("an entry whose store cannot be used exits 1 with one line", { timeout: 60_000 }, () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "gpt-address-startup-"));
    chmodSync(scratch, 0o755);
    mkdirSync(join(scratch, "home"), { mode: 0o777 });
    chmodSync(join(scratch, "home"), 0o777);
  });
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  for (const runtime of ["node", "bun"] as const) {
    it(`${runtime}: PAGES_DB in a directory that does not exist`, async () => {
      const file = join(scratch, "missing", "pages.sqlite");
      expectOneLine(await start(runtime, { PAGES_DB: file }), [file, /ENOENT/, /does not exist/, /Set PAGES_DB to/]);
    });

    it(`${runtime}: PAGES_DB that is not an SQLite database`, async () => {
      const file = join(scratch, `${runtime}-not-a-database.sqlite`);
      writeFileSync(file, "not a database, but long enough to be read as a header of one. ".repeat(2));
      expectOneLine(await start(runtime, { PAGES_DB: file }), [file, /SQLITE_NOTADB/, /Set PAGES_DB to/]);
    });

    it.skipIf(!readOnlyCases)(
      `${runtime}: a WAL database whose -shm file and directory are read-only (another connection open)`,
      async () => {
        const directory = join(scratch, `${runtime}-read-only`);
        const file = join(directory, "pages.sqlite");
        mkdirSync(directory);
        const running = new DatabaseSync(file);
        try {
          running.exec("PRAGMA journal_mode = WAL; CREATE TABLE pages (id TEXT PRIMARY KEY, html TEXT NOT NULL)");
          running.prepare("INSERT INTO pages VALUES (?, ?)").run("a", "<p>a</p>");
          // The database and its log may be written; its shared-memory index and the directory not.
          chmodSync(file, 0o666);
          chmodSync(`${file}-wal`, 0o666);
          chmodSync(`${file}-shm`, 0o444);
          chmodSync(directory, 0o555);
          const outcome = await start(runtime, { PAGES_DB: file }, { unprivileged: true, scratch });
          expectOneLine(outcome, [`${file}-shm is not writable`, /EACCES/, /Set PAGES_DB to/]);
        } finally {
          running.close();
          chmodSync(directory, 0o755);
        }
      },
    );
  }

  it("deno: DENO_KV_PATH in a directory that does not exist", async () => {
    const file = join(scratch, "missing", "kv.sqlite3");
    expectOneLine(await start("deno", { DENO_KV_PATH: file }), [file, /unable to open/, /Set DENO_KV_PATH to/]);
  });

  it.skipIf(!readOnlyCases)(
    "deno: a read-only Deno KV file (its directory writable: it opens, and the write check fails)",
    async () => {
      const directory = join(scratch, "deno-read-only");
      mkdirSync(directory);
      const file = join(directory, "kv.sqlite3");
      // Made by Deno itself, then made read-only.
      const made = spawnSync(
        bin("deno"),
        ["eval", "--unstable-kv", `(await Deno.openKv(${JSON.stringify(file)})).close()`],
        {
          env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" },
        },
      );
      expect(made.status, String(made.stderr)).toBe(0);
      chmodSync(file, 0o444);
      chmodSync(directory, 0o777);
      const outcome = await start("deno", { DENO_KV_PATH: file }, { unprivileged: true, scratch });
      expectOneLine(outcome, [file, /a write failed/, /read-only/, /Set DENO_KV_PATH to/]);
    },
  );
});
