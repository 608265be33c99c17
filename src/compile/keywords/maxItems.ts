/**
 * `maxItems`: at most this many items.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectCount } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const maxItems: Keyword = {
  name: "maxItems",
  instance: "array",
  check: expectCount,
  emit({ value, at, data, body, compiler }) {
    body.line(js`if (${data}.length > ${value as number}) ${compiler.fail(at)}`);
  },
};
