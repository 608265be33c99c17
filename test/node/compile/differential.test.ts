/**
 * A sample of the differential run (the long run is `npm run fuzz:compile`): random forms ×
 * random instances, the generated validator against @cfworker/json-schema and ajv (V3, V4).
 */
import { describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { explain, runDifferential } from "./differential.ts";
import { loadModules } from "./load-modules.ts";

describe("V3 the generated validator agrees with ajv and @cfworker/json-schema", () => {
  it("on 400 random forms × 10 instances (fixed seed)", async () => {
    const result = await runDifferential(400, 10, 20261130);
    expect(result.pairs).toBe(4000);
    expect(result.disagreements.filter((disagreement) => explain(disagreement) === undefined)).toEqual([]);
  });

  it("documented difference: contains needs a matching item in every array it applies to (ajv accepts [] here)", async () => {
    const besidePrefix = { contains: { type: "string" }, prefixItems: [{ $ref: "#/$defs/d0" }], $defs: { d0: {} } };
    const underItems = { type: "array", items: { type: "array", contains: { type: "number" } } };
    const [prefix, items] = await loadModules([compileForm(besidePrefix), compileForm(underItems)]);
    expect(prefix?.validate([])).toBe(false);
    expect(prefix?.validate([1])).toBe(false);
    expect(prefix?.validate([1, "x"])).toBe(true); // control
    expect(items?.validate([[1], []])).toBe(false); // the second array has no number
    expect(items?.validate([[1], [2]])).toBe(true); // control
  });

  it("documented differences under unevaluatedItems: a failing branch evaluates nothing; a valid if, contains: {} and a branch behind $ref do (ajv answers otherwise)", async () => {
    const failingBranch = { anyOf: [{ items: true, maxItems: 0 }, {}], unevaluatedItems: false };
    const failingNested = { oneOf: [{ unevaluatedItems: false }, {}], unevaluatedItems: false };
    const lonelyIf = { if: { prefixItems: [{ type: "integer" }] }, unevaluatedItems: false };
    const everyItem = { contains: {}, unevaluatedItems: false };
    const behindRef = {
      $ref: "#/$defs/t",
      unevaluatedItems: false,
      $defs: { t: { anyOf: [{ type: "integer" }, { type: "array", items: true }] } },
    };
    const modules = await loadModules(
      [failingBranch, failingNested, lonelyIf, everyItem, behindRef].map((s) => compileForm(s)),
    );
    const [branch, nested, test, every, ref] = modules;
    expect(branch?.validate([1])).toBe(false);
    expect(branch?.validate([])).toBe(true); // control
    expect(nested?.validate([1])).toBe(false);
    expect(test?.validate([1])).toBe(true); // the valid if evaluated item 0
    expect(test?.validate(["x"])).toBe(false); // control: if fails, nothing evaluated
    expect(every?.validate([1, "x"])).toBe(true);
    expect(ref?.validate([4, []])).toBe(true);
  });
});
