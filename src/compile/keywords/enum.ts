/**
 * `enum`: the instance deep-equals one of the listed values (see `const` for equality).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectJson, refuseValue, valueDepth, valueStringLength } from "../keyword-values.ts";
import { type Code, join, js } from "../safe-format.ts";

/** Up to this many primitive members, `enum` is a chain of `===`; above it, a `Set`. */
const chainLimit = 8;

export const $enum: Keyword = {
  name: "enum",
  instance: "any",
  depth: ({ value }) =>
    (value as unknown[]).reduce<number>((deepest, member) => Math.max(deepest, valueDepth(member)), -Infinity),
  stringLength: ({ value }) =>
    (value as unknown[]).reduce<number>((longest, member) => Math.max(longest, valueStringLength(member)), -Infinity),
  listed: (value) => value as unknown[],
  check(value, at) {
    if (!Array.isArray(value)) refuseValue(at, "must be an array");
    expectJson(value, at);
  },
  emit({ value, at, data, body, compiler }) {
    const members = value as unknown[];
    const primitive = members.every((member) => typeof member !== "object" || member === null);
    let test: Code;
    if (members.length === 0) test = js`false`;
    else if (primitive && members.length <= chainLimit) {
      test = join(
        members.map((member) => js`${data} === ${member as string | number | boolean | null}`),
        js` || `,
      );
    } else if (primitive) {
      test = js`${compiler.constant(members, "Set")}.has(${data})`;
    } else {
      const list = compiler.constant(members);
      const equal = compiler.helper("equal");
      test = js`${list}.some((member) => ${equal}(${data}, member))`;
    }
    body.line(js`if (!(${test})) ${compiler.fail(at)}`);
  },
};
