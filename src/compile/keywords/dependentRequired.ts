/**
 * `dependentRequired`: when a named property is present, the listed names are present too.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectNames, expectSchemaMap } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";
import { js } from "../safe-format.ts";
import { present } from "./presence.ts";

export const dependentRequired: Keyword = {
  name: "dependentRequired",
  instance: "object",
  widening: "a validator that skips dependentRequired accepts objects missing the dependent members",
  check(value, at) {
    expectSchemaMap(value, at);
    for (const [name, names] of Object.entries(value as Record<string, unknown>))
      expectNames(names, childPointer(at, name));
  },
  emit({ value, at, data, body, compiler }) {
    for (const [name, names] of Object.entries(value as Record<string, string[]>)) {
      if (names.length === 0) continue;
      body.open(js`if (${present(compiler, data, name)}) {`);
      for (const other of names)
        body.line(js`if (!(${present(compiler, data, other)})) ${compiler.fail(childPointer(at, name))}`);
      body.close();
    }
  },
};
