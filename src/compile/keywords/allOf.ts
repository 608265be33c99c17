/**
 * `allOf`: the instance satisfies every subschema (inlined one after the other).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchemaList, list } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";

export const allOf: Keyword = {
  name: "allOf",
  instance: "any",
  bound: ({ value, of }) =>
    (value as unknown[]).reduce<number>((shallowest, _, index) => Math.min(shallowest, of("allOf", index)), Infinity),
  widening: "several decoders merge or drop allOf branches; a validator that skips one accepts what it excludes",
  check: expectSchemaList,
  subschemas: list,
  applies: "in-place",
  emit({ value, at, data, body, compiler }) {
    (value as unknown[]).forEach((_, index) => {
      compiler.inline(childPointer(at, index), data, body);
    });
  },
};
