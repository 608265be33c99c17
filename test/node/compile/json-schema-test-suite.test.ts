/**
 * JSON-Schema-Test-Suite draft2020-12, every test run through the generated module (V4).
 * Groups of refused keywords are asserted to be refused at build; the ledger
 * (`suite-ledger.ts`) gives the reason for every refusal and every differing answer.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { FormError } from "../../../src/compile/form-error.ts";
import { type GeneratedModule, loadModules } from "./load-modules.ts";
import { suiteGroups } from "./suite-files.ts";
import { differingTests, refusedGroups } from "./suite-ledger.ts";

const groups = suiteGroups();
const usedRefusals = new Set<number>();
const usedDifferences = new Set<string>();

function refusalOf(file: string, description: string): number {
  return refusedGroups.findIndex(
    (rule) => rule.file === file && (rule.description === undefined || rule.description.test(description)),
  );
}

const compiled = new Map<string, string>();
const outcomes = new Map<string, unknown>();
for (const group of groups) {
  try {
    compiled.set(group.id, compileForm(group.schema));
  } catch (error) {
    outcomes.set(group.id, error);
  }
}
let modules = new Map<string, GeneratedModule>();

beforeAll(async () => {
  const ids = [...compiled.keys()];
  const loaded = await loadModules(ids.map((id) => compiled.get(id) as string));
  modules = new Map(ids.map((id, index) => [id, loaded[index] as GeneratedModule]));
});

const byFile = new Map<string, typeof groups>();
for (const group of groups) byFile.set(group.file, [...(byFile.get(group.file) ?? []), group]);
for (const [file, fileGroups] of byFile) {
  describe(`V4 JSON-Schema-Test-Suite draft2020-12 ${file}`, () => {
    for (const group of fileGroups) {
      const refusal = refusalOf(group.file, group.description);
      if (refusal >= 0) {
        usedRefusals.add(refusal);
        const rule = refusedGroups[refusal];
        it(`refuses at build: ${group.description}`, () => {
          const error = outcomes.get(group.id);
          expect(error, rule?.reason).toBeInstanceOf(FormError);
          expect((error as FormError).code).toBe(rule?.code);
        });
        continue;
      }
      it(group.description, () => {
        const error = outcomes.get(group.id);
        if (error !== undefined) throw error;
        const module = modules.get(group.id) as GeneratedModule;
        for (const test of group.tests) {
          const key = `${group.id} › ${test.description}`;
          const differs = differingTests.has(key);
          if (differs) usedDifferences.add(key);
          const expected = differs ? !test.valid : test.valid;
          const what = `${test.description}${differs ? ` (ledger: ${differingTests.get(key)})` : ""}`;
          expect(module.validate(test.data), what).toBe(expected);
          // The suite's data come from JSON files: values validateParsed is exact for.
          expect(module.validateParsed(test.data), `validateParsed: ${what}`).toBe(expected);
        }
      });
    }
  });
}

describe("the suite ledger", () => {
  it("has no stale entry: every refusal rule and every differing test matched a group", () => {
    expect(refusedGroups.filter((_, index) => !usedRefusals.has(index))).toEqual([]);
    expect([...differingTests.keys()].filter((key) => !usedDifferences.has(key))).toEqual([]);
  });
});
