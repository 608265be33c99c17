/**
 * `maxProperties`: at most this many own properties.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectCount } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const maxProperties: Keyword = {
  name: "maxProperties",
  instance: "object",
  widening: "a validator that skips maxProperties accepts larger objects",
  check: expectCount,
  emit({ value, at, data, body, compiler }) {
    body.line(js`if (Object.keys(${data}).length > ${value as number}) ${compiler.fail(at)}`);
  },
};
