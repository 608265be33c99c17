/**
 * `required`: each name is an own property (presence never counts inherited names).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectNames } from "../keyword-values.ts";
import { js, member } from "../safe-format.ts";
import { present } from "./presence.ts";

export const required: Keyword = {
  name: "required",
  instance: "object",
  check: expectNames,
  emit({ node, value, at, data, body, members, compiler }) {
    const declared = (node.properties ?? {}) as Record<string, unknown>;
    for (const name of value as string[]) {
      if (!Object.hasOwn(declared, name)) {
        body.line(js`if (!(${present(compiler, data, name)})) ${compiler.fail(at)}`);
        continue;
      }
      // Read the member once: `properties` checks this local instead of reading it again.
      const local = body.local("d");
      body.line(js`const ${local} = ${member(data, name)};`);
      body.line(js`if (${local} === undefined || !${compiler.own(data, name)}) ${compiler.fail(at)}`);
      members.set(name, local);
    }
  },
};
