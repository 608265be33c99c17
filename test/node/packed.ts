/**
 * The package as `npm pack` makes it from the working tree, for the tests that use it as a
 * user's project does (package.test.ts, init.test.ts), and npm run as a user runs it.
 *
 * @module
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cp, mkdir, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const run = promisify(execFile);
export const repo = fileURLToPath(new URL("../../", import.meta.url).href);

/** The Node 22 a user's project runs on in these tests: npm package `node`, which installs that release's binary. */
export const NODE_22 = "22.23.3";
/** The Node 20 release the package's `engines` (>=20.19) is checked on. */
export const NODE_20 = "20.20.2";

/** The environment without npm's variables of an enclosing `npm test`, which would steer a nested npm. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))), ...extra };
}

/**
 * `npm <args>` in `cwd`, from npm's cache when it can (`--prefer-offline`), else the registry.
 *
 * @returns what npm printed on stdout and stderr.
 */
export async function npm(
  cwd: string,
  args: string[],
  options: { readonly timeout?: number; readonly env?: NodeJS.ProcessEnv; readonly loglevel?: string } = {},
): Promise<{ stdout: string; stderr: string }> {
  return run(
    "npm",
    [...args, "--no-audit", "--no-fund", "--prefer-offline", `--loglevel=${options.loglevel ?? "error"}`],
    {
      cwd,
      env: options.env ?? cleanEnv(),
      timeout: options.timeout ?? 240_000,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
}

/**
 * Copies the working tree as git sees it (tracked and untracked, not ignored) to `source`: what
 * a clone of this commit would hold.
 */
export async function copyWorkingTree(source: string): Promise<void> {
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repo,
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const file of stdout.split("\0").filter((name) => name !== "")) {
    await cp(join(repo, file), join(source, file), { recursive: true, force: true }).catch((error: unknown) => {
      // A file deleted in the working tree but still in the index is not there to copy.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    });
  }
}

/**
 * `npm pack` of the copy at `source` (its `prepack` builds dist/ with this repository's own
 * tools, through a link to its node_modules) into `destination`.
 *
 * @returns the tarball's path.
 */
export async function pack(source: string, destination: string): Promise<string> {
  await symlink(join(repo, "node_modules"), join(source, "node_modules"), "dir");
  await npm(source, ["pack", "--pack-destination", destination]);
  return join(destination, "gpt-address-0.1.0.tgz");
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The package as a user installs a tool: the working tree packed into `scratch`, then the
 * tarball and Node 22 installed in a folder of their own (`scratch/tool`).
 *
 * @param runtimes - commands of this repository's devDependencies to put on PATH too (`bun`,
 *   `deno`), and nothing else of it.
 * @returns the tarball, and the environment of every command the user types: the tool and Node
 *   22 first on PATH, wrangler offline (no telemetry, no `Request.cf` download, no update
 *   check), no colours.
 */
export async function userTool(
  scratch: string,
  runtimes: ReadonlyArray<string> = [],
): Promise<{ readonly tarball: string; readonly env: NodeJS.ProcessEnv }> {
  const source = join(scratch, "source");
  await copyWorkingTree(source);
  const tarball = await pack(source, scratch);
  const tool = join(scratch, "tool");
  await mkdir(tool);
  await writeFile(join(tool, "package.json"), JSON.stringify({ private: true, allowScripts: { node: true } }));
  await npm(tool, ["install", "--save-exact", tarball, `node@${NODE_22}`]);
  const commands = join(scratch, "commands");
  await mkdir(commands);
  for (const name of runtimes) await symlink(join(repo, "node_modules", ".bin", name), join(commands, name));
  const inherited = (process.env.PATH ?? "").split(delimiter).filter((entry) => !entry.startsWith(repo));
  const env = cleanEnv({
    PATH: [join(tool, "node_modules", ".bin"), commands, ...inherited].join(delimiter),
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_HIDE_BANNER: "true",
    DENO_NO_UPDATE_CHECK: "1",
    NO_COLOR: "1",
  });
  delete env.FORCE_COLOR;
  return { tarball, env };
}

/**
 * Runs `command` in a process group of its own, asks `url` every 500 ms until an answer's status
 * passes `ready` (0 stands for no answer yet), hands that status and the output so far to `use`,
 * then ends the whole group (SIGTERM), whatever happened.
 *
 * @throws Error with the output when the command exits, or no ready answer came within 90 s.
 */
export async function whileServing<T>(
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv },
  url: string,
  use: (status: number, log: () => string) => Promise<T>,
  ready: (status: number) => boolean = (status) => status === 200,
): Promise<T> {
  const child: ChildProcess = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}:\n${log}`);
      const status = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
        (response) => response.status,
        () => 0,
      );
      if (ready(status)) return await use(status, () => log);
      if (Date.now() > deadline) throw new Error(`${command} did not serve ${url} within 90 s:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
  }
}
