/**
 * `minProperties`: at least this many own properties.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectCount } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const minProperties: Keyword = {
  name: "minProperties",
  instance: "object",
  widening: "a validator that skips minProperties accepts smaller objects",
  check: expectCount,
  emit({ value, at, data, body, compiler }) {
    if (value === 0) return;
    body.line(js`if (Object.keys(${data}).length < ${value as number}) ${compiler.fail(at)}`);
  },
};
