/**
 * `required`: each name is an own property (presence never counts inherited names).
 *
 * Up to {@link inlineWeight} names, each is a line of the node's code (its read folded by V8
 * into the check of the value's shape). More would make a function too large to be optimized,
 * whose every call pays for a frame of one register a name and runs in the interpreter (5,000
 * names, each in `properties`: 0.87 µs to fail on a value of one member; alone, 0.64 ms for a
 * valid value; measured, src/compile/README.md): the names are
 * then a module-scope array that the `hasMembers` helper reads in order, stopping at the first
 * missing, so a call reads at most one name more than the value holds.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectNames } from "../keyword-values.ts";
import { js, member } from "../safe-format.ts";
import { present } from "./presence.ts";
import { inlineWeight } from "./properties.ts";

export const required: Keyword = {
  name: "required",
  instance: "object",
  check: expectNames,
  emit({ node, value, at, data, body, members, compiler }) {
    const names = value as string[];
    if (names.length > inlineWeight) {
      body.line(js`if (!${compiler.helper("hasMembers")}(${data}, ${compiler.constant(names)})) ${compiler.fail(at)}`);
      return;
    }
    const declared = (node.properties ?? {}) as Record<string, unknown>;
    for (const name of names) {
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
