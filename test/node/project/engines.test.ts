/**
 * The engines check of `npm ci`, made against the Node every script runs on: the one the
 * `node` devDependency pins, not the one that runs npm (`.npmrc` explains why npm's own
 * EBADENGINE warnings are off). The check is npm's own (`npm install --dry-run`, which
 * checks the `engines` of every package of the lock file), run on this test's Node.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../../..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
};
const npmCli = process.env.npm_execpath;
const scratch = mkdtempSync(join(tmpdir(), "gpt-address-engines-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** npm's install-time checks on `cwd`, offline, changing nothing; returns what npm logged. */
async function npmDryRun(cwd: string): Promise<string> {
  if (npmCli === undefined) throw new Error("run this test through npm (npm test / npx vitest): npm_execpath is unset");
  const flags = ["install", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"];
  const { stderr } = await promisify(execFile)(process.execPath, [npmCli, ...flags, "--loglevel=warn"], {
    cwd,
    timeout: 60_000,
  });
  return stderr;
}

describe("engines", () => {
  it("tests run on the Node the `node` devDependency pins", () => {
    expect(process.version).toBe(`v${manifest.devDependencies.node}`);
  });

  it("every package of the lock file (and the project itself) accepts that Node", async () => {
    expect(await npmDryRun(root)).not.toMatch(/EBADENGINE/);
  });

  it("control: a package that wants a Node this one is not gets EBADENGINE from the same check", async () => {
    writeFileSync(
      join(scratch, "package.json"),
      JSON.stringify({ name: "engines-control", version: "0.0.0", engines: { node: "<1" } }),
    );
    expect(await npmDryRun(scratch)).toMatch(/EBADENGINE[\s\S]*engines-control[\s\S]*<1/);
  });
});
