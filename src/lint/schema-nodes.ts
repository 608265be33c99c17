/**
 * Every schema location of a form, walked once (iteratively) through the subschemas each
 * keyword file declares, with the keyword that holds it.
 *
 * @module
 */

import { childPointer } from "../compile/pointer.ts";
import { keywordOf } from "../compile/vocabulary.ts";
import { isJsonObject } from "../json/is-json-object.ts";

/** One schema location. */
export interface SchemaNode {
  /** JSON Pointer into `s` (`""` is the root). */
  readonly at: string;
  /** JSON Pointer into the form file (`/s` + `at`). */
  readonly pointer: string;
  readonly schema: unknown;
  /** The keyword whose value holds this schema (`properties`, `anyOf`); absent at the root. */
  readonly via?: string;
  /** The schema object holding `via`, and its pointer into `s`. */
  readonly parent?: Readonly<Record<string, unknown>>;
  readonly parentAt?: string;
}

/** The schema locations of `schema` in document order (the root first). */
export function schemaNodes(schema: unknown, prefix = "/s"): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  const stack: SchemaNode[] = [{ at: "", pointer: prefix, schema }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    nodes.push(node);
    const value = node.schema;
    if (!isJsonObject(value)) continue;
    const children: SchemaNode[] = [];
    for (const name of Object.keys(value)) {
      for (const [tokens, sub] of keywordOf(name)?.subschemas?.(value[name]) ?? []) {
        const at = childPointer(node.at, name, ...tokens);
        children.push({ at, pointer: prefix + at, schema: sub, via: name, parent: value, parentAt: node.at });
      }
    }
    // One push per child: spreading a form of 300,000 properties into push() overflows the stack.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return nodes;
}

/** The JSON type names a schema object's `type` allows, or undefined when `type` is absent. */
export function typesOf(schema: Readonly<Record<string, unknown>>): string[] | undefined {
  if (schema.type === undefined) return undefined;
  return ([] as string[]).concat(schema.type as string | string[]);
}

/** Does the node's `type` name `kind` (`integer` counts as `number`)? */
export function allowsType(schema: Readonly<Record<string, unknown>>, kind: string): boolean {
  const types = typesOf(schema);
  if (types === undefined) return false;
  return types.includes(kind) || (kind === "number" && types.includes("integer"));
}
