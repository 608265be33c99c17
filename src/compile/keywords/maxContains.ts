/**
 * `maxContains`: a bound on how many items satisfy `contains`; emitted by `contains`, and
 * without effect when `contains` is absent.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectCount } from "../keyword-values.ts";

export const maxContains: Keyword = {
  name: "maxContains",
  instance: "array",
  widening: "a validator that skips maxContains accepts more matching items",
  check: expectCount,
};
