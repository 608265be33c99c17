/**
 * `not`: the instance does not satisfy the subschema.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchema, one } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const not: Keyword = {
  name: "not",
  instance: "any",
  widening: "a validator that skips not accepts what it excludes",
  check: expectSchema,
  subschemas: one,
  applies: "in-place",
  emit({ at, data, body, compiler }) {
    body.line(js`if (${compiler.test(at, data)}) ${compiler.fail(at)}`);
  },
};
