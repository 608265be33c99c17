/**
 * The project's own wrangler (`node_modules/wrangler`), run on the running Node (the pinned
 * one under `npm run`), offline and quiet: no telemetry, no `Request.cf` download, no banner
 * (and with it no npm-registry version check). One place for the path and the switches; the
 * build (`wrangler types`), the deploy tests and the workerd launcher of the wire suite
 * (`wrangler deploy --dry-run`) all run wrangler through it.
 *
 * @module
 */
import { type ExecFileSyncOptions, execFile, execFileSync } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

/** The wrangler CLI script of this checkout. */
export const wranglerCli = join(import.meta.dirname, "..", "node_modules", "wrangler", "bin", "wrangler.js");

/** Environment variables that keep wrangler off the network and its banner off the output. */
export const offlineWrangler: Readonly<Record<string, string>> = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};

/** Where and how to run wrangler; `env` is added to this process's environment and {@link offlineWrangler}. */
export interface WranglerOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Milliseconds before the run is killed; default none. */
  readonly timeout?: number;
}

function environment(env: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...offlineWrangler, ...env };
}

/**
 * Runs `wrangler <args>` and waits for it.
 *
 * @throws Error (from `execFileSync`) when wrangler exits non-zero or times out.
 */
export function wranglerSync(
  args: readonly string[],
  options: WranglerOptions & { readonly stdio?: ExecFileSyncOptions["stdio"] },
): void {
  execFileSync(process.execPath, [wranglerCli, ...args], {
    cwd: options.cwd,
    env: environment(options.env),
    stdio: options.stdio ?? "inherit",
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  });
}

/**
 * Runs `wrangler <args>`, collecting what it prints.
 *
 * @returns its standard output and standard error, once it exited 0.
 * @throws Error (from `execFile`, with `stdout`/`stderr`) when it exits non-zero or times out.
 */
export async function wrangler(
  args: readonly string[],
  options: WranglerOptions,
): Promise<{ stdout: string; stderr: string }> {
  return await promisify(execFile)(process.execPath, [wranglerCli, ...args], {
    cwd: options.cwd,
    env: environment(options.env),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  });
}
