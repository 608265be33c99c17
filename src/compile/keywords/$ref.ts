/**
 * `$ref`: a reference inside the document (JSON Pointer, `$anchor`, or `$id`-relative). The
 * referenced schema applies beside the node's other keywords. Remote references are refused
 * by the document walk.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectString } from "../keyword-values.ts";

export const $ref: Keyword = {
  name: "$ref",
  instance: "any",
  bound: ({ target }) => target(),
  check: expectString,
  emit({ pointer, data, body, compiler }) {
    compiler.reference(compiler.document.refTarget(pointer), data, body);
  },
};
