/**
 * `oneOf`: the instance satisfies exactly one subschema (stops at the second match).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchemaList, list } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";
import { js } from "../safe-format.ts";

export const oneOf: Keyword = {
  name: "oneOf",
  instance: "any",
  bound: ({ value, of }) =>
    (value as unknown[]).reduce<number>((deepest, _, index) => Math.max(deepest, of("oneOf", index)), -Infinity),
  check: expectSchemaList,
  subschemas: list,
  applies: "in-place",
  emit({ value, at, data, body, compiler }) {
    const branches = (value as unknown[]).map((_, index) => childPointer(at, index));
    // A branch whose annotations an unevaluated* check reads has its result recorded.
    const recorded = branches.map((branch) => compiler.recorded(branch, data));
    for (const [index, variable] of recorded.entries())
      if (variable !== undefined) compiler.record(branches[index] as string, data, body);
    const count = body.local("n");
    body.line(js`let ${count} = 0;`);
    branches.forEach((branch, index) => {
      const test = recorded[index] ?? compiler.test(branch, data);
      body.line(js`if (${test} && ++${count} > 1) ${compiler.fail(at)}`);
    });
    body.line(js`if (${count} === 0) ${compiler.fail(at)}`);
  },
};
