import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildForms, FormFileError } from "../../../src/compile/build-forms.ts";
import type { Finding } from "../../../src/lint/finding.ts";

const p = "To act, send one HTTP POST to this address whose body is one JSON value valid against s.";
const folders: string[] = [];

async function project(s: unknown): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "gpt-address-build-lint-"));
  folders.push(root);
  await mkdir(join(root, "forms"));
  await writeFile(join(root, "forms", "x.json"), JSON.stringify({ p, m: [], s }));
  return root;
}

afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("S2 npm run build lints the forms: errors fail it, warnings are handed over", () => {
  it("S2 an open object fails the build with the file, the pointer and the rule; nothing is written", async () => {
    const root = await project({ type: "object", properties: { n: { type: "integer", minimum: 0, maximum: 9 } } });
    const seen: Finding[] = [];
    const error = await buildForms({ root, outDir: "out", onLint: (_file, found) => seen.push(...found) }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(FormFileError);
    expect((error as FormFileError).file).toBe(join("forms", "x.json"));
    expect((error as FormFileError).pointer).toBe("/s");
    expect((error as FormFileError).message).toContain("(lint rule use-closed-object)");
    expect(seen.map((finding) => finding.rule)).toEqual(["use-closed-object"]);
    expect(existsSync(join(root, "out"))).toBe(false);
  });

  it("S2 the closed control builds; its warning (an unbounded number) is handed to onLint", async () => {
    const root = await project({ type: "object", additionalProperties: false, properties: { n: { type: "integer" } } });
    const seen: Finding[] = [];
    const built = await buildForms({ root, outDir: "out", onLint: (_file, found) => seen.push(...found) });
    expect(built.map((form) => form.name)).toEqual(["x"]);
    expect(seen.map((finding) => `${finding.severity} ${finding.rule} ${finding.pointer}`)).toEqual([
      "warning use-number-bounds /s/properties/n",
    ]);
  });

  it("without onLint the build does not lint (the open object builds)", async () => {
    const root = await project({ type: "object", properties: { n: { type: "integer", minimum: 0, maximum: 9 } } });
    expect((await buildForms({ root, outDir: "out" })).map((form) => form.name)).toEqual(["x"]);
  });
});
