/**
 * `minItems`: at least this many items.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectCount } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const minItems: Keyword = {
  name: "minItems",
  instance: "array",
  check: expectCount,
  emit({ value, at, data, body, compiler }) {
    if (value === 0) return;
    body.line(js`if (${data}.length < ${value as number}) ${compiler.fail(at)}`);
  },
};
