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
    const count = body.local("n");
    body.line(js`let ${count} = 0;`);
    (value as unknown[]).forEach((_, index) => {
      const test = compiler.test(childPointer(at, index), data);
      body.line(js`if (${test} && ++${count} > 1) ${compiler.fail(at)}`);
    });
    body.line(js`if (${count} === 0) ${compiler.fail(at)}`);
  },
};
