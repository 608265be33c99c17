/**
 * `anyOf`: the instance satisfies at least one subschema (tried in order, first match wins).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchemaList, list } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";
import { join, js } from "../safe-format.ts";

export const anyOf: Keyword = {
  name: "anyOf",
  instance: "any",
  bound: ({ value, of }) =>
    (value as unknown[]).reduce<number>((deepest, _, index) => Math.max(deepest, of("anyOf", index)), -Infinity),
  check: expectSchemaList,
  subschemas: list,
  applies: "in-place",
  emit({ value, at, data, body, compiler }) {
    const schemas = value as unknown[];
    const branches = schemas.map((_, index) => childPointer(at, index));
    // Branches whose annotations an unevaluated* check reads are all evaluated (2020-12 Core
    // §10.2.1.2: annotations are collected from every valid branch), each result recorded.
    const recorded = branches.map((branch) => compiler.recorded(branch, data));
    for (const [index, variable] of recorded.entries())
      if (variable !== undefined) compiler.record(branches[index] as string, data, body);
    if (schemas.includes(true)) return;
    const tests = branches.map((branch, index) => recorded[index] ?? compiler.test(branch, data));
    body.line(js`if (!(${join(tests, js` || `)})) ${compiler.fail(at)}`);
  },
};
