/**
 * `minContains`: a bound on how many items satisfy `contains`; emitted by `contains`, and
 * without effect when `contains` is absent.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectCount } from "../keyword-values.ts";

export const minContains: Keyword = {
  name: "minContains",
  instance: "array",
  widening: "a validator that skips minContains accepts fewer matching items",
  check: expectCount,
};
