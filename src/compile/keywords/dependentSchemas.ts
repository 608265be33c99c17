/**
 * `dependentSchemas`: when a named property is present, the whole object satisfies the schema.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchemaMap, map } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";
import { js } from "../safe-format.ts";
import { present } from "./presence.ts";

export const dependentSchemas: Keyword = {
  name: "dependentSchemas",
  instance: "object",
  widening: "a validator that skips dependentSchemas accepts objects its schemas exclude",
  check: expectSchemaMap,
  subschemas: map,
  applies: "in-place",
  emit({ value, at, data, body, compiler }) {
    for (const [name, schema] of Object.entries(value as Record<string, unknown>)) {
      if (schema === true) continue;
      body.open(js`if (${present(compiler, data, name)}) {`);
      compiler.inline(childPointer(at, name), data, body);
      body.close();
    }
  },
};
