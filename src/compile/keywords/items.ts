/**
 * `items`: every item after those `prefixItems` covers satisfies the schema (`false`: there
 * are none).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchema, one } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const items: Keyword = {
  name: "items",
  instance: "array",
  check: expectSchema,
  subschemas: one,
  applies: "child",
  emit({ node, value, at, data, body, compiler }) {
    const start = Array.isArray(node.prefixItems) ? node.prefixItems.length : 0;
    if (value === true) return;
    if (value === false) {
      body.line(js`if (${data}.length > ${start}) ${compiler.fail(at)}`);
      return;
    }
    const index = body.local("i");
    body.open(js`for (let ${index} = ${start}; ${index} < ${data}.length; ${index}++) {`);
    const item = body.local("d");
    body.line(js`const ${item} = ${data}[${index}];`);
    compiler.inline(at, item, body);
    body.close();
  },
};
