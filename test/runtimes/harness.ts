/**
 * Starts one runtime serving the example addresses as a child process on loopback, and
 * stops it. Every runtime comes from the project's own npm binaries (Node is the running
 * one, `process.execPath`); a missing binary makes {@link launch} throw, so the suite fails
 * rather than skips.
 *
 * Each child is the leader of its own process group (`detached`), so that stopping it also
 * stops what it started (wrangler's workerd processes); waits are bounded. Its stdout and
 * stderr go to one file in its scratch directory, never to a pipe: the example writes a log
 * line per act synchronously, and a pipe the parent is too busy to drain (the load generator
 * of `npm run bench:hostile`) would hold the server in `write`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The runtimes the wire suite runs against. */
export type RuntimeName = "node" | "bun" | "deno" | "vercel" | "workerd";

/** A runtime serving the example addresses. */
export interface Running {
  readonly name: RuntimeName;
  /** Base URL, such as `http://127.0.0.1:40123`, without a trailing slash. */
  readonly url: string;
  /** Everything the child wrote to stdout and stderr so far (after {@link stop}: up to then). */
  output(): string;
  /** The child's process id (also its process group's). */
  readonly pid: number;
  /** Settles when the child exits, with its exit code or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops the child and its process group, then removes its scratch directory. */
  stop(): Promise<void>;
}

export const root = join(import.meta.dirname, "../..");
const bin = (name: string) => join(root, "node_modules", ".bin", name);

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export function command(
  name: RuntimeName,
  port: number,
  scratch: string,
  kvPath: string | undefined,
): { file: string; args: string[]; env: Record<string, string> } {
  const env = { PORT: String(port) };
  switch (name) {
    case "node":
      return {
        file: process.execPath,
        args: ["examples/pages/node.ts"],
        env: { ...env, PAGES_DB: join(scratch, "pages.sqlite") },
      };
    case "bun":
      return {
        file: bin("bun"),
        args: ["run", "examples/pages/bun.ts"],
        env: { ...env, PAGES_DB: join(scratch, "pages.sqlite") },
      };
    case "deno":
      return {
        file: bin("deno"),
        args: [
          "run",
          "--unstable-kv",
          "--node-modules-dir=manual",
          "--allow-net=127.0.0.1",
          "--allow-env",
          "--allow-read",
          // A DENO_KV_PATH of the caller's (a KV shared by two processes) is writable too.
          `--allow-write=${kvPath === undefined ? scratch : `${scratch},${dirname(kvPath)}`}`,
          "examples/pages/deno.ts",
        ],
        env: { ...env, DENO_KV_PATH: join(scratch, "kv.sqlite3"), DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" },
      };
    case "vercel":
      return { file: process.execPath, args: ["scripts/serve-vercel.ts"], env };
    case "workerd":
      return { file: process.execPath, args: ["test/runtimes/serve-workerd.ts"], env };
  }
}

/**
 * Starts `name` on a free loopback port and resolves once it answers HTTP.
 *
 * @param extraEnv - more environment for the child (the Vercel store's URL and token).
 * @throws Error when the binary is missing, the child exits, or it does not answer within `timeoutMs`.
 */
export async function launch(
  name: RuntimeName,
  extraEnv: Record<string, string> = {},
  timeoutMs = 90_000,
): Promise<Running> {
  const port = await freePort();
  const scratch = mkdtempSync(join(tmpdir(), `gpt-address-${name}-`));
  const { file, args, env } = command(name, port, scratch, extraEnv.DENO_KV_PATH);
  if (!existsSync(file)) throw new Error(`${name}: ${file} is missing (npm ci installs it)`);
  const outputFile = join(scratch, "output.log");
  const outputFd = openSync(outputFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(file, args, {
      cwd: root,
      // The example's rate limits are off unless a test asks for them: the suites send many
      // requests from one address (test/runtimes/operations.test.ts checks the limits).
      env: { ...process.env, RATE_LIMIT: "off", ...env, ...extraEnv, NO_COLOR: "1" },
      stdio: ["ignore", outputFd, outputFd],
      detached: true,
    });
  } finally {
    closeSync(outputFd); // the child holds its own copy
  }
  let kept = "";
  const output = () => (existsSync(outputFile) ? readFileSync(outputFile, "utf8") : kept);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let alive = true;
  void exited.then(() => (alive = false));

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (alive && child.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {}
      }, 5_000);
      await exited;
      clearTimeout(timer);
    }
    kept = output();
    rmSync(scratch, { recursive: true, force: true });
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive) {
      await stop();
      throw new Error(`${name} exited before answering:\n${kept}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not answer within ${timeoutMs} ms:\n${kept}`);
    }
    try {
      // A CORS preflight of the page address: it answers once the server does, and spends no
      // client's rate budget (every GET does, the index and 404s included: issue 31).
      await fetch(`${url}/page`, { method: "OPTIONS", signal: AbortSignal.timeout(2_000) });
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { name, url, output, pid: child.pid!, exited, stop };
}
