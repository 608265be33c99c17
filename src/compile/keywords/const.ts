/**
 * `const`: deep equality that ignores member order and treats 1 and 1.0 (and 0 and -0) as equal.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectJson, valueDepth, valueStringLength } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const $const: Keyword = {
  name: "const",
  instance: "any",
  depth: ({ value }) => valueDepth(value),
  stringLength: ({ value }) => valueStringLength(value),
  listed: (value) => [value],
  check: expectJson,
  emit({ value, at, data, body, compiler }) {
    if (typeof value !== "object" || value === null) {
      body.line(js`if (${data} !== ${value as string | number | boolean | null}) ${compiler.fail(at)}`);
    } else {
      body.line(js`if (!${compiler.helper("equal")}(${data}, ${compiler.constant(value)})) ${compiler.fail(at)}`);
    }
  },
};
