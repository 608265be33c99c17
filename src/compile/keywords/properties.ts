/**
 * `properties`: each present own property satisfies its schema. A property the node also
 * `required` is known present and already read (that check ran first and returns on failure).
 *
 * Up to an {@link inlineWeight} of schemas, each is a block of the node's code that reads its member
 * (`d.name !== undefined && own`), in the form's order: V8 folds the reads of members a value
 * lacks into one check of its shape. Above it, such blocks would make a function too large to
 * be optimized, whose every call pays for its frame of one register a member (issue 31: 5,000
 * names, about 1 µs a call to fail `required`); the value's own members are looped over
 * instead (for…in, the `checkMembers` helper), each looked up in a `Map` of functions, one a
 * distinct schema ({@link sharedChecks}), so that a call costs what the value holds, not what
 * the form declares. Both report the first failing member: in the form's order inline, in the
 * value's looped.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchemaMap, map } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";
import { js, member } from "../safe-format.ts";
import { present } from "./presence.ts";

/**
 * Up to this {@link weight}, the schemas are blocks of the node's code. V8 (Node 24) stops
 * optimizing a function of about 1,100: 550 names of `{"type": "string"}`, 100 of an object of
 * two members with 7 keywords (measured); this leaves room for the rest of the function.
 */
export const inlineWeight = 512;

/**
 * The size of `properties`' code, in the unit of its JSON: each member name, each keyword and
 * array item below it (a `$ref` counts once, whatever its target). Generated code grows with it,
 * about 100 to 150 bytes a unit.
 */
export function weight(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + 1 + weight(item), 0);
  if (typeof value !== "object" || value === null) return 0;
  let sum = 0;
  for (const member of Object.values(value)) sum += 1 + weight(member);
  return sum;
}

/** Keywords whose meaning depends on where the schema is: a schema holding one is never shared. */
const located = new Set(["$ref", "$dynamicRef", "$id", "$anchor", "$dynamicAnchor"]);

/** Does the JSON value hold, at any depth, a member named as a {@link located} keyword? */
function isLocated(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isLocated);
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([name, member]) => located.has(name) || isLocated(member));
}

/**
 * Each member name, its schema's pointer, and the pointer of the schema whose function checks
 * it: the first member (in the form's order) of equal JSON, when neither refers to any location
 * (no `$ref`, no identifier: see {@link located}), so that their code differs only in the
 * pointers it names, which the loop moves to the member's on failure. A wide form whose members
 * repeat a few schemas calls a few functions (V8 inlines the call when all the members a value
 * holds share one) and emits one function a distinct schema, not one a name.
 */
function sharedChecks(
  entries: ReadonlyArray<readonly [string, unknown]>,
  at: string,
): Array<[name: string, pointer: string, checkedAt: string]> {
  const first = new Map<string, string>();
  return entries.map(([name, schema]) => {
    const pointer = childPointer(at, name);
    if (isLocated(schema)) return [name, pointer, pointer];
    const text = JSON.stringify(schema);
    const checkedAt = first.get(text) ?? pointer;
    if (checkedAt === pointer) first.set(text, pointer);
    return [name, pointer, checkedAt];
  });
}

export const properties: Keyword = {
  name: "properties",
  instance: "object",
  check: expectSchemaMap,
  subschemas: map,
  applies: "child",
  emit({ value, at, data, body, members, compiler }) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, schema]) => schema !== true);
    if (weight(value) > inlineWeight) {
      const checks = compiler.memberChecks(sharedChecks(entries, at));
      body.line(js`if (!${compiler.helper("checkMembers")}(${data}, ${checks})) ${compiler.leave()}`);
      return;
    }
    for (const [name, schema] of entries) {
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
