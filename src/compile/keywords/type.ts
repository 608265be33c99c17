/**
 * `type`: one type name or an array of distinct names; `integer` means a number whose
 * fractional part is zero (1.0 is an integer).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { refuseValue } from "../keyword-values.ts";
import { join, js } from "../safe-format.ts";
import { type TypeName, typeNames, typeTest } from "./type-guards.ts";

function isTypeName(value: unknown): value is TypeName {
  return typeof value === "string" && (typeNames as ReadonlyArray<string>).includes(value);
}

export const type: Keyword = {
  name: "type",
  instance: "any",
  check(value, at) {
    if (isTypeName(value)) return;
    if (!Array.isArray(value) || value.length === 0 || !value.every(isTypeName)) {
      refuseValue(at, "must be a type name or a non-empty array of type names");
    }
    if (new Set(value).size !== value.length) refuseValue(at, "must not repeat a type name");
  },
  emit({ value, at, data, body, compiler }) {
    let names = (Array.isArray(value) ? value : [value]) as TypeName[];
    if (names.includes("number")) names = names.filter((name) => name !== "integer");
    const tests = names.map((name) =>
      names.length > 1 && name === "object" ? js`(${typeTest(name, data)})` : typeTest(name, data),
    );
    body.line(js`if (!(${join(tests, js` || `)})) ${compiler.fail(at)}`);
  },
};
