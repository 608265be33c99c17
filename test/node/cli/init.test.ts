/**
 * `gpt-address init` in-process (the whole flow from the packed tarball is test/node/init.test.ts):
 * what it writes for each runtime, where `--from` points npm, and what it refuses.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES, runtimeNames } from "../../../src/cli/runtimes.ts";
import { runCli } from "./run-cli.ts";

let folder = "";
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "gpt-address-init-cli-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const manifestOf = async (project: string) => JSON.parse(await readFile(join(project, "package.json"), "utf8"));

describe("gpt-address init", () => {
  it.each(runtimeNames)(
    "--runtime %s: a module package with the runtime's scripts and engines, and no template key left",
    async (runtime) => {
      const project = join(folder, `p-${runtime}`);
      const made = await runCli(["init", project, "--runtime", runtime], folder);
      expect(made.code).toBe(0);
      expect(made.stdout).toContain(`  cd p-${runtime}\n  npm install\n  npm run dev\n`);
      const manifest = await manifestOf(project);
      expect(manifest).toMatchObject({ type: "module", private: true, engines: { node: RUNTIMES[runtime].node } });
      expect(manifest.dependencies["gpt-address"]).toBe("^0.1.0");
      expect(manifest.scripts.build).toBe("gpt-address build");
      expect(manifest.scripts.dev).toBeDefined();
      for (const file of made.stdout.match(/(?<=^wrote ).*$/gm) ?? [])
        expect(await readFile(join(project, file), "utf8"), file).not.toMatch(/\{\{\w+\}\}/);
      expect(await readFile(join(project, "src", "app.ts"), "utf8")).toContain('app.route("/hello", hello);');
      // What npm run dev rebuilds: on Node a changed form was served stale until npm run build.
      expect(await readFile(join(project, "README.md"), "utf8")).toContain(`\n\n${RUNTIMES[runtime].devReload}\n`);
    },
  );

  it("--from: a tarball or folder becomes a file: path relative to the project; a git URL or range passes as it is", async () => {
    await writeFile(join(folder, "gpt-address-0.1.0.tgz"), "");
    const cases: [string, string][] = [
      ["./gpt-address-0.1.0.tgz", "file:../gpt-address-0.1.0.tgz"],
      ["gpt-address-0.1.0.tgz", "file:../gpt-address-0.1.0.tgz"],
      ["file:gpt-address-0.1.0.tgz", "file:../gpt-address-0.1.0.tgz"],
      ["git+https://example.com/gpt-address.git", "git+https://example.com/gpt-address.git"],
      ["^0.2.0", "^0.2.0"],
    ];
    for (const [index, [from, spec]] of cases.entries()) {
      const project = join(folder, `from-${index}`);
      expect((await runCli(["init", project, "--from", from], folder)).code).toBe(0);
      const manifest = await manifestOf(project);
      expect(manifest.dependencies["gpt-address"], from).toBe(spec);
      // A git install runs gpt-address's prepare, which npm 11 runs only when approved by its spec.
      expect(manifest.allowScripts?.[spec], from).toBe(spec.startsWith("git+") ? true : undefined);
    }
  });

  it("refuses a folder that is not empty, and an unknown runtime, writing nothing (paired with an empty one)", async () => {
    const busy = join(folder, "busy");
    await mkdir(busy);
    await writeFile(join(busy, "notes.txt"), "mine");
    const refused = await runCli(["init", busy], folder);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("is not empty");
    expect((await runCli(["init", join(folder, "odd"), "--runtime", "lambda"], folder)).code).toBe(2);
    await expect(readFile(join(folder, "odd", "package.json"))).rejects.toThrow(/ENOENT/);
    await rm(join(busy, "notes.txt"));
    expect((await runCli(["init", busy], folder)).code).toBe(0);
  });
});
