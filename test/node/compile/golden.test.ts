/**
 * Golden files: the generated code for a few sample forms is committed under `test/golden/`,
 * so a change in the emitter shows up as a readable diff. `UPDATE_GOLDEN=1` rewrites them.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";

const directory = fileURLToPath(new URL("../../golden/", import.meta.url).href);
/**
 * Each sample: its golden name and its schema file (from the project root). The page sample is
 * the page workload's form itself, `bench/page.form.json` (one copy of it in the project).
 */
const samples: { name: string; file: string }[] = [
  ...readdirSync(directory)
    .filter((file) => file.endsWith(".schema.json"))
    .map((file) => ({ name: file.slice(0, -".schema.json".length), file: `test/golden/${file}` })),
  { name: "page", file: "bench/page.form.json" },
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const root = fileURLToPath(new URL("../../../", import.meta.url).href);

describe("V3 generated code matches the committed golden files", () => {
  it("has samples", () => {
    expect(samples.length).toBeGreaterThanOrEqual(3);
  });
  for (const { name, file } of samples) {
    it(`${name}: test/golden/${name}.validate.js`, () => {
      const schema = JSON.parse(readFileSync(root + file, "utf8")) as unknown;
      const generated = compileForm(schema, { source: file });
      const golden = `${directory}${name}.validate.js`;
      if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden, generated);
      expect(generated).toBe(readFileSync(golden, "utf8"));
    });
  }
});
