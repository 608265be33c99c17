/**
 * `maxLength`: at most this many Unicode code points (not UTF-16 code units).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectCount } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const maxLength: Keyword = {
  name: "maxLength",
  instance: "string",
  check: expectCount,
  emit({ value, at, data, body, compiler }) {
    // A string never has more code points than code units: count only when `length` exceeds.
    const limit = value as number;
    body.line(
      js`if (${data}.length > ${limit} && ${compiler.helper("codePointLength")}(${data}) > ${limit}) ${compiler.fail(at)}`,
    );
  },
};
