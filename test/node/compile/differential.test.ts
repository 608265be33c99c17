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

  it("documented difference: contains still applies beside a prefixItems $ref (ajv lenient accepts [])", async () => {
    const form = { contains: { type: "string" }, prefixItems: [{ $ref: "#/$defs/d0" }], $defs: { d0: {} } };
    const [module] = await loadModules([compileForm(form)]);
    expect(module?.validate([])).toBe(false); // contains needs at least one matching item
    expect(module?.validate([1])).toBe(false);
    expect(module?.validate([1, "x"])).toBe(true); // control
  });
});
