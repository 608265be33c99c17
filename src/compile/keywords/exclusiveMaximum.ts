/**
 * `exclusiveMaximum`: the number is less than the value.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectNumber } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const exclusiveMaximum: Keyword = {
  name: "exclusiveMaximum",
  instance: "number",
  check: expectNumber,
  emit({ value, at, data, body, compiler }) {
    body.line(js`if (${data} >= ${value as number}) ${compiler.fail(at)}`);
  },
};
