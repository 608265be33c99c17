/**
 * `minLength`: at least this many Unicode code points (not UTF-16 code units).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectCount } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const minLength: Keyword = {
  name: "minLength",
  instance: "string",
  check: expectCount,
  emit({ value, at, data, body, compiler }) {
    // Code points ≤ code units ≤ 2 × code points: count only when `length` cannot decide.
    const limit = value as number;
    if (limit === 0) return;
    const count = compiler.helper("codePointLength");
    body.line(
      js`if (${data}.length < ${limit * 2} && (${data}.length < ${limit} || ${count}(${data}) < ${limit})) ${compiler.fail(at)}`,
    );
  },
};
