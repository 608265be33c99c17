/**
 * `then`: a branch of `if`; emitted by `if`, and without effect when `if` is absent.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchema, one } from "../keyword-values.ts";

export const $then: Keyword = {
  name: "then",
  instance: "any",
  check: expectSchema,
  subschemas: one,
  applies: "in-place",
};
