/**
 * `pattern`: an unanchored ECMAScript regular expression search with the `u` flag, compiled
 * once per module.
 *
 * @module
 */
import { FormError } from "../form-error.ts";
import type { Keyword } from "../keyword.ts";
import { expectString } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

/** @throws {FormError} `invalid-pattern` when `source` is not an ECMAScript regex with the `u` flag. */
export function checkRegex(source: string, at: string, keyword: string): void {
  try {
    new RegExp(source, "u");
  } catch (error) {
    throw new FormError(
      "invalid-pattern",
      at,
      keyword,
      `not an ECMAScript regular expression with the u flag: ${(error as Error).message}`,
    );
  }
}

export const pattern: Keyword = {
  name: "pattern",
  instance: "string",
  check(value, at) {
    expectString(value, at);
    checkRegex(value as string, at, "pattern");
  },
  emit({ value, at, data, body, compiler }) {
    body.line(js`if (!${compiler.regex(value as string)}.test(${data})) ${compiler.fail(at)}`);
  },
};
