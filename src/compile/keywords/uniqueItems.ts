/**
 * `uniqueItems`: no two items are deep-equal (member order ignored, 1 equals 1.0).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectBoolean } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const uniqueItems: Keyword = {
  name: "uniqueItems",
  instance: "array",
  widening: "most constrained decoders ignore uniqueItems; without it repeated items are accepted",
  check: expectBoolean,
  emit({ value, at, data, body, compiler }) {
    if (value !== true) return;
    body.line(js`if (${data}.length > 1 && !${compiler.helper("unique")}(${data})) ${compiler.fail(at)}`);
  },
};
