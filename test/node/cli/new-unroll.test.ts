import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LintedFile } from "../../../src/cli/lint.ts";
import { runCli } from "./run-cli.ts";

let folder = "";

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "gpt-address-new-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("gpt-address new <name>", () => {
  it("adds a form that lints clean, the address and its test to a project init made, mounted in src/app.ts", async () => {
    const project = join(folder, "project");
    expect((await runCli(["init", project, "--runtime", "node"], folder)).code).toBe(0);
    const made = await runCli(["new", "guest-book", "--dir", project], folder);
    expect(made.code).toBe(0);
    for (const file of ["forms/guest-book.json", "src/guest-book.ts", "test/guest-book.test.ts", "src/app.ts"])
      expect(made.stdout).toContain(`wrote ${file}\n`);
    const app = await readFile(join(project, "src", "app.ts"), "utf8");
    expect(app).toContain('import hello from "./hello.ts";\nimport guestBook from "./guest-book.ts";\n');
    expect(app).toContain('app.route("/hello", hello);\napp.route("/guest-book", guestBook);\n');
    const lint = await runCli(["lint", "--format", "json", join(project, "forms", "guest-book.json")], folder);
    expect(lint.code).toBe(0);
    expect((JSON.parse(lint.stdout) as LintedFile[])[0]?.findings).toEqual([]);
    expect(await readFile(join(project, "src", "guest-book.ts"), "utf8")).toContain(
      'import { form } from "./generated/guest-book.js";',
    );
    const again = await runCli(["new", "guest-book", "--dir", project], folder);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("exists");
    expect(await readFile(join(project, "src", "app.ts"), "utf8")).toBe(app);
  });

  it("in a project without src/app.ts, writes the address and prints the two lines that mount it", async () => {
    const made = await runCli(["new", "guest-book", "--dir", join(folder, "bare")], folder);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('import guestBook from "./guest-book.ts";\napp.route("/guest-book", guestBook);');
    expect(existsSync(join(folder, "bare", "src", "app.ts"))).toBe(false);
  });

  it("refuses a name that cannot be a path segment and module name (paired with a good one)", async () => {
    expect((await runCli(["new", "Guest Book", "--dir", join(folder, "bad")], folder)).code).toBe(2);
    expect((await runCli(["new", "guest", "--dir", join(folder, "good")], folder)).code).toBe(0);
  });
});

describe("gpt-address unroll <form.json> --depth N", () => {
  const tree = {
    p: "To act, send one HTTP POST to this address whose body is one JSON value valid against s.",
    m: [],
    s: {
      $defs: {
        node: { type: "array", maxItems: 3, items: { anyOf: [{ type: "boolean" }, { $ref: "#/$defs/node" }] } },
      },
      $ref: "#/$defs/node",
    },
  };

  it("F4 turns a form the linter flags for recursion into one it accepts, keeping p and m", async () => {
    await writeFile(join(folder, "tree.json"), JSON.stringify(tree));
    const before = await runCli(["lint", "--format", "json", "tree.json"], folder);
    expect(before.code).toBe(1);
    expect((JSON.parse(before.stdout) as LintedFile[])[0]?.findings.map((f) => f.rule)).toEqual([
      "use-bounded-recursion",
    ]);
    const run = await runCli(["unroll", "tree.json", "--depth", "3", "--out", "tree-3.json"], folder);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("unrolled node into 3 level(s)");
    const unrolled = JSON.parse(await readFile(join(folder, "tree-3.json"), "utf8"));
    expect(unrolled.p).toBe(tree.p);
    expect(Object.keys(unrolled.s.$defs)).toEqual(["node", "node_2", "node_3"]);
    const after = await runCli(["lint", "--format", "json", "tree-3.json"], folder);
    expect(after.code).toBe(0);
    expect((JSON.parse(after.stdout) as LintedFile[])[0]?.findings).toEqual([]);
  });

  it("prints to standard output without --out; usage errors exit 2", async () => {
    const run = await runCli(["unroll", "tree.json", "--depth=1"], folder);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).s.$defs.node.items).toEqual({ anyOf: [{ type: "boolean" }] });
    expect((await runCli(["unroll", "tree.json", "--depth", "0"], folder)).code).toBe(2);
    expect((await runCli(["unroll", "tree.json"], folder)).code).toBe(2);
    expect((await runCli(["unroll", "missing.json", "--depth", "2"], folder)).code).toBe(2);
    expect((await runCli(["unroll", "--help"], folder)).stdout).toContain("--depth");
  });

  it("reads a form module as the build does and prints its unrolled form as JSON; a module that fails to import exits 1 naming it", async () => {
    await writeFile(join(folder, "tree.mjs"), `export default ${JSON.stringify(tree)};\n`);
    const run = await runCli(["unroll", "tree.mjs", "--depth", "2"], folder);
    expect(run.code).toBe(0);
    const unrolled = JSON.parse(run.stdout);
    expect(unrolled.p).toBe(tree.p);
    expect(Object.keys(unrolled.s.$defs)).toEqual(["node", "node_2"]);
    await writeFile(join(folder, "broken.mjs"), "export default {;\n");
    const broken = await runCli(["unroll", "broken.mjs", "--depth", "2"], folder);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("broken.mjs#");
    expect(broken.stdout).toBe("");
  });

  it("a form the compiler refuses exits 1, naming the file and the pointer", async () => {
    await writeFile(join(folder, "refused.json"), JSON.stringify({ ...tree, s: { $ref: "#/$defs/none" } }));
    const run = await runCli(["unroll", "refused.json", "--depth", "2"], folder);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("refused.json#/s/$ref");
  });
});
