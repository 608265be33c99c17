/**
 * `multipleOf`: decided on the numbers' shortest decimal forms, without float error
 * (19.99 is a multiple of 0.01).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectNumber, refuseValue } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const multipleOf: Keyword = {
  name: "multipleOf",
  instance: "number",
  widening: "a validator that skips multipleOf accepts any number in range",
  check(value, at) {
    expectNumber(value, at);
    if ((value as number) <= 0) refuseValue(at, "must be greater than 0");
  },
  emit({ value, at, data, body, compiler }) {
    const divisor = value as number;
    if (Number.isSafeInteger(divisor)) {
      // Both safe integers: the remainder is exact. Otherwise fall back to decimal arithmetic.
      body.line(
        js`if (Number.isSafeInteger(${data}) ? ${data} % ${divisor} !== 0 : !${compiler.helper("multipleOf")}(${data}, ${divisor})) ${compiler.fail(at)}`,
      );
    } else {
      body.line(js`if (!${compiler.helper("multipleOf")}(${data}, ${divisor})) ${compiler.fail(at)}`);
    }
  },
};
