/**
 * `properties`: each present own property satisfies its schema. A property the node also
 * `required` is known present and already read (that check ran first and returns on failure).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchemaMap, map } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";
import { js, member } from "../safe-format.ts";
import { present } from "./presence.ts";

export const properties: Keyword = {
  name: "properties",
  instance: "object",
  check: expectSchemaMap,
  subschemas: map,
  applies: "child",
  emit({ value, at, data, body, members, compiler }) {
    for (const [name, schema] of Object.entries(value as Record<string, unknown>)) {
      if (schema === true) continue;
      const where = childPointer(at, name);
      if (schema === false) {
        body.line(js`if (${present(compiler, data, name)}) ${compiler.fail(where)}`);
        continue;
      }
      const known = members.get(name);
      if (known !== undefined) {
        compiler.inline(where, known, body);
        continue;
      }
      body.open(js`if (${present(compiler, data, name)}) {`);
      const item = body.local("d");
      body.line(js`const ${item} = ${member(data, name)};`);
      compiler.inline(where, item, body);
      body.close();
    }
  },
};
