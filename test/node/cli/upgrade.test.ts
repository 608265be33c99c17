import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LintedFile } from "../../../src/cli/lint.ts";
import { runCli } from "./run-cli.ts";

let folder = "";

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "gpt-address-upgrade-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const p = "To act, send one HTTP POST to this address whose body is one JSON value valid against s.";
const draft07 = {
  p,
  m: [],
  s: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    additionalProperties: false,
    properties: {
      tags: { type: "array", maxItems: 3, items: [{ $ref: "#/definitions/tag" }], additionalItems: false },
    },
    definitions: { tag: { enum: ["a", "b"] } },
  },
};

describe("gpt-address upgrade <form.json>", () => {
  it("writes a draft-07 form back in 2020-12, which then builds and lints as one (p and m kept)", async () => {
    await writeFile(join(folder, "old.json"), JSON.stringify(draft07));
    // The linter reads an older draft's form as the 2020-12 form the build publishes.
    const before = await runCli(["lint", "--format", "json", "old.json"], folder);
    expect((JSON.parse(before.stdout) as LintedFile[])[0]?.findings.filter((f) => f.rule === "valid-form")).toEqual([]);
    const run = await runCli(["upgrade", "old.json"], folder);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("old.json: upgraded from draft-07 to 2020-12, written to old.json");
    const upgraded = JSON.parse(await readFile(join(folder, "old.json"), "utf8"));
    expect(upgraded.p).toBe(p);
    expect(upgraded.s).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      additionalProperties: false,
      properties: { tags: { type: "array", maxItems: 3, prefixItems: [{ $ref: "#/$defs/tag" }], items: false } },
      $defs: { tag: { enum: ["a", "b"] } },
    });
    const lint = await runCli(["lint", "--format", "json", "old.json"], folder);
    expect((JSON.parse(lint.stdout) as LintedFile[])[0]?.findings.filter((f) => f.rule === "valid-form")).toEqual([]);
    const again = await runCli(["upgrade", "old.json"], folder);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("already 2020-12; unchanged");
  });

  it("removes a keyword whose meaning changed, reports it and exits 1; --from names the draft of a bare schema", async () => {
    const bare = {
      definitions: { list: { type: "array" } },
      properties: { a: { $ref: "#/definitions/list", maxItems: 2 } },
    };
    await writeFile(join(folder, "bare.json"), JSON.stringify(bare));
    const unchanged = await runCli(["upgrade", "bare.json"], folder);
    expect(unchanged.code).toBe(0);
    expect(unchanged.stderr).toContain("give --from");
    const run = await runCli(["upgrade", "bare.json", "--from", "draft-07", "--out", "bare-2020.json"], folder);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("bare.json#/properties/a/maxItems: beside $ref, maxItems applied nothing in draft-07");
    expect(JSON.parse(await readFile(join(folder, "bare-2020.json"), "utf8"))).toEqual({
      $defs: { list: { type: "array" } },
      properties: { a: { $ref: "#/$defs/list" } },
    });
    expect(JSON.parse(await readFile(join(folder, "bare.json"), "utf8"))).toEqual(bare);
    // The linter, as the build, refuses the form until its author decides.
    await writeFile(
      join(folder, "sibling.json"),
      JSON.stringify({ p, m: [], s: { ...bare, $schema: "http://json-schema.org/draft-07/schema#" } }),
    );
    const lint = await runCli(["lint", "--format", "json", "sibling.json"], folder);
    expect((JSON.parse(lint.stdout) as LintedFile[])[0]?.findings.map((f) => [f.rule, f.pointer])).toEqual([
      ["valid-form", "/s/properties/a/maxItems"],
    ]);
  });

  it("usage errors exit 2; a form the upgrade cannot keep exits 1 naming the pointer", async () => {
    expect((await runCli(["upgrade", "old.json", "--from", "draft-03"], folder)).code).toBe(2);
    expect((await runCli(["upgrade", "missing.json"], folder)).code).toBe(2);
    expect((await runCli(["upgrade", "--help"], folder)).stdout).toContain("--from");
    await writeFile(join(folder, "module.mjs"), `export default ${JSON.stringify(draft07)};\n`);
    const module = await runCli(["upgrade", "module.mjs"], folder);
    expect(module.code).toBe(2);
    expect(module.stderr).toContain("module.mjs is a form module");
    expect(await readFile(join(folder, "module.mjs"), "utf8")).toBe(`export default ${JSON.stringify(draft07)};\n`);

    await writeFile(
      join(folder, "dynamic.json"),
      JSON.stringify({ $schema: "https://json-schema.org/draft/2019-09/schema", items: { $recursiveRef: "x" } }),
    );
    const run = await runCli(["upgrade", "dynamic.json"], folder);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("dynamic.json#/items/$recursiveRef");
  });
});
