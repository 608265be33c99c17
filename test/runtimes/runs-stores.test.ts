/**
 * The run stores of issue 34 inside their own runtimes: every check of test/node/run/checks.ts
 * on Deno KV in a Deno process (one KV file opened twice) and on `bun:sqlite` in a Bun process
 * (one file, two connections). The scripts print the outcome of each check; each must be "ok".
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { CHECKS } from "../node/run/checks.ts";
import { root } from "./harness.ts";

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "gpt-address-run-stores-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The outcome of each check printed by `args` run with `file` (the last line of its output). */
async function outcomes(file: string, args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run(file, args, {
    cwd: root,
    timeout: 90_000,
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1", NO_COLOR: "1" },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, string>;
}

const allOk = Object.fromEntries(Object.keys(CHECKS).map((name) => [name, "ok"]));

describe("run stores in their runtimes", () => {
  it("DenoKvRunStore passes every check on a real Deno KV (deno 2.9.6, one file, two handles)", async () => {
    const dir = mkdtempSync(join(scratch, "deno-"));
    const results = await outcomes(join(root, "node_modules/.bin/deno"), [
      "run",
      "--unstable-kv",
      "--node-modules-dir=manual",
      `--allow-read=${root},${dir}`,
      `--allow-write=${dir}`,
      "test/runtimes/deno/run-checks.ts",
      dir,
    ]);
    expect(results).toEqual(allOk);
  });

  it("SqliteRunStore passes every check on bun:sqlite (one file, two connections)", async () => {
    const dir = mkdtempSync(join(scratch, "bun-"));
    const results = await outcomes(join(root, "node_modules/.bin/bun"), [
      "run",
      "test/runtimes/bun/run-checks.ts",
      dir,
    ]);
    expect(results).toEqual(allOk);
  });
});
