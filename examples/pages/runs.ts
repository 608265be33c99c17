/**
 * The example's runs (docs/runs.md): the bounds of its run store, read from the settings. Each
 * runtime entry gives the app its own store (SQLite on Node and Bun, Deno KV on Deno, a Durable
 * Object on Workers, memory on Vercel), which the render address offers runs in; every store
 * keeps {@link RunLimits}: at most `maxRuns` runs at once (a request for one more is answered
 * 503 with `Retry-After`), each forgotten `ttlMs` after it was created (then its URL is 404).
 *
 * @module
 */
import type { RunLimits } from "../../src/run/run.ts";

/**
 * The example's run store bounds: 200 runs, each kept 10 minutes. Smaller than the library's
 * `DEFAULT_RUN_LIMITS` (1,000 runs, an hour): a run of the example is a rendering anyone may
 * ask for, and its result is on its page for 30 days anyway.
 */
export const EXAMPLE_RUN_LIMITS: RunLimits = { maxRuns: 200, ttlMs: 600_000 };

/**
 * Reads the run store's bounds from the settings `RUNS_MAX` (the most runs kept at once) and
 * `RUNS_TTL_SECONDS` (how long a run is kept after it was created), positive integers; each
 * unset or empty is its {@link EXAMPLE_RUN_LIMITS} value.
 *
 * @throws {RangeError} naming the setting, for a value that is not a positive integer (a TTL of
 *   at most a day).
 */
export function runLimits(setting: (name: string) => string | undefined): RunLimits {
  const read = (name: string, fallback: number, most: number): number => {
    const value = setting(name);
    if (value === undefined || value === "") return fallback;
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > most) {
      throw new RangeError(`${name} must be an integer from 1 to ${most}, got "${value}"`);
    }
    return Number(value);
  };
  return {
    maxRuns: read("RUNS_MAX", EXAMPLE_RUN_LIMITS.maxRuns, 1_000_000),
    ttlMs: read("RUNS_TTL_SECONDS", EXAMPLE_RUN_LIMITS.ttlMs / 1000, 86_400) * 1000,
  };
}
