/**
 * `contains` with `minContains` (default 1) and `maxContains`: the number of items that
 * satisfy the schema lies within the bounds.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchema, one } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";
import { js } from "../safe-format.ts";

export const contains: Keyword = {
  name: "contains",
  instance: "array",
  widening: "a validator that skips contains accepts arrays without the required item",
  check: expectSchema,
  subschemas: one,
  applies: "child",
  emit({ node, pointer, at, data, body, compiler }) {
    const min = typeof node.minContains === "number" ? node.minContains : 1;
    const max = typeof node.maxContains === "number" ? node.maxContains : undefined;
    // The items it validated, when an unevaluated* check reads them: every item is tested.
    const matches = compiler.recorded(at, data);
    if (min === 0 && max === undefined && matches === undefined) return;
    const count = body.local("n");
    const index = body.local("i");
    const test = compiler.test(at, js`${data}[${index}]`);
    body.line(js`let ${count} = 0;`);
    if (matches !== undefined) {
      body.line(js`${matches} = new Uint8Array(${data}.length);`);
      body.line(
        js`for (let ${index} = 0; ${index} < ${data}.length; ${index}++) if (${test}) { ${count}++; ${matches}[${index}] = 1; }`,
      );
    } else if (max === undefined) {
      // Stop as soon as enough items matched.
      body.line(
        js`for (let ${index} = 0; ${index} < ${data}.length && ${count} < ${min}; ${index}++) if (${test}) ${count}++;`,
      );
    } else {
      body.line(js`for (let ${index} = 0; ${index} < ${data}.length; ${index}++) if (${test}) ${count}++;`);
    }
    const where = (name: string): string => (Object.hasOwn(node, name) ? childPointer(pointer, name) : at);
    if (min > 0)
      body.line(
        js`if (${count} < ${min}) ${compiler.fail(min === 1 && !Object.hasOwn(node, "minContains") ? at : where("minContains"))}`,
      );
    if (max !== undefined) body.line(js`if (${count} > ${max}) ${compiler.fail(where("maxContains"))}`);
  },
};
