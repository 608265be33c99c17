/**
 * `exclusiveMinimum`: the number is greater than the value.
 *
 * A `bigint` value (an int64 bound of a form file) is compared exactly: a number and a BigInt
 * literal compare by their mathematical values.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectBound } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const exclusiveMinimum: Keyword = {
  name: "exclusiveMinimum",
  instance: "number",
  check: expectBound,
  emit({ value, at, data, body, compiler }) {
    body.line(js`if (${data} <= ${value as number | bigint}) ${compiler.fail(at)}`);
  },
};
