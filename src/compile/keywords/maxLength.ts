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
  // A code point is one or two UTF-16 code units (RFC 8259 §7), so L code points are at most 2·L units.
  stringLength: ({ value }) => 2 * (value as number),
  // Its JSON text: the quotes and at most 12 bytes a code point (`\uD83D\uDE00`; a code point
  // of the BMP is at most 6, `\u00E9`).
  bytes: ({ value }) => 2 + 12 * (value as number),
  check: expectCount,
  emit({ value, at, data, body, compiler }) {
    // A string has between length / 2 and length code points (a surrogate pair is two code
    // units): count only when `length` lies between the limit and twice it. Counting a 900 KB
    // string against a limit of 200 took longer than parsing it (issue 15, bench:hostile).
    const limit = value as number;
    body.line(
      js`if (${data}.length > ${limit} && (${data}.length > ${2 * limit} || ${compiler.helper("codePointLength")}(${data}) > ${limit})) ${compiler.fail(at)}`,
    );
  },
};
