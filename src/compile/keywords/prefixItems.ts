/**
 * `prefixItems`: the item at each index, when present, satisfies the schema at that index.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchemaList, list } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";
import { js } from "../safe-format.ts";

export const prefixItems: Keyword = {
  name: "prefixItems",
  instance: "array",
  check: expectSchemaList,
  subschemas: list,
  applies: "child",
  emit({ value, at, data, body, compiler }) {
    (value as unknown[]).forEach((schema, index) => {
      if (schema === true) return;
      body.open(js`if (${data}.length > ${index}) {`);
      const item = body.local("d");
      body.line(js`const ${item} = ${data}[${index}];`);
      compiler.inline(childPointer(at, index), item, body);
      body.close();
    });
  },
};
