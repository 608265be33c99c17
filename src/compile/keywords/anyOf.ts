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
    if (schemas.includes(true)) return;
    const tests = schemas.map((_, index) => compiler.test(childPointer(at, index), data));
    body.line(js`if (!(${join(tests, js` || `)})) ${compiler.fail(at)}`);
  },
};
