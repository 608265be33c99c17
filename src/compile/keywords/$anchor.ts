/**
 * `$anchor`: a plain-name fragment for in-document `$ref` (indexed by the document walk).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectString, refuseValue } from "../keyword-values.ts";

export const $anchor: Keyword = {
  name: "$anchor",
  instance: "any",
  inert: true,
  identifier: true,
  check(value, at) {
    expectString(value, at);
    if (!/^[A-Za-z_][-A-Za-z0-9._]*$/.test(value as string)) refuseValue(at, "must match ^[A-Za-z_][-A-Za-z0-9._]*$");
  },
};
