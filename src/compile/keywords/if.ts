/**
 * `if` / `then` / `else`: when the instance satisfies `if` it must satisfy `then`, otherwise
 * `else`; each absent branch is `true`.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchema, one } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";
import { js } from "../safe-format.ts";

export const $if: Keyword = {
  name: "if",
  instance: "any",
  bound({ node, of }) {
    const then = Object.hasOwn(node, "then") ? Math.min(of("if"), of("then")) : Infinity;
    const otherwise = Object.hasOwn(node, "else") ? of("else") : Infinity;
    return Math.max(then, otherwise);
  },
  widening: "a validator that skips if/then/else accepts values its branches exclude",
  check: expectSchema,
  subschemas: one,
  applies: "in-place",
  emit({ node, pointer, at, data, body, compiler }) {
    const then = Object.hasOwn(node, "then") && node.then !== true;
    const otherwise = Object.hasOwn(node, "else") && node.else !== true;
    // When an unevaluated* check reads its annotations, `if` is evaluated and its result
    // recorded even without `then` and `else` (2020-12 Core §10.2.2.1).
    const recorded = compiler.recorded(at, data);
    if (recorded !== undefined) compiler.record(at, data, body);
    if (!then && !otherwise) return;
    const test = recorded ?? compiler.test(at, data);
    if (then) {
      body.open(js`if (${test}) {`);
      compiler.inline(childPointer(pointer, "then"), data, body);
      if (otherwise) {
        body.otherwise();
        compiler.inline(childPointer(pointer, "else"), data, body);
      }
    } else {
      body.open(js`if (!${test}) {`);
      compiler.inline(childPointer(pointer, "else"), data, body);
    }
    body.close();
  },
};
