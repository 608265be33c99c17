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
  check: expectSchemaList,
  subschemas: list,
  emit({ value, at, data, body, compiler }) {
    (value as unknown[]).forEach((_, index) => {
      compiler.inline(childPointer(at, index), data, body);
    });
  },
};
