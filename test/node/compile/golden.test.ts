/**
 * Golden files: the generated code for a few sample forms is committed under `test/golden/`,
 * so a change in the emitter shows up as a readable diff. `UPDATE_GOLDEN=1` rewrites them.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";

const directory = fileURLToPath(new URL("../../golden/", import.meta.url).href);
const samples = readdirSync(directory)
  .filter((file) => file.endsWith(".schema.json"))
  .sort();

describe("V3 generated code matches the committed golden files", () => {
  it("has samples", () => {
    expect(samples.length).toBeGreaterThanOrEqual(3);
  });
  for (const sample of samples) {
    const name = sample.slice(0, -".schema.json".length);
    it(`${name}: test/golden/${name}.validate.js`, () => {
      const schema = JSON.parse(readFileSync(directory + sample, "utf8")) as unknown;
      const generated = compileForm(schema, { source: `test/golden/${sample}` });
      const golden = `${directory}${name}.validate.js`;
      if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden, generated);
      expect(generated).toBe(readFileSync(golden, "utf8"));
    });
  }
});
