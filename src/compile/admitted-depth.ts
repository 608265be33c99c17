/**
 * `admittedDepth`: the deepest container nesting any instance valid against a form can have,
 * computed from the schema alone (an upper bound; null when no bound follows from it).
 *
 * @module
 */
import { isJsonObject } from "../json/is-json-object.ts";
import { FormDocument } from "./document.ts";
import { childPointer } from "./pointer.ts";
import { vocabulary } from "./vocabulary.ts";

const scalarTypes = new Set(["null", "boolean", "number", "integer", "string"]);

class Depth {
  readonly #document: FormDocument;
  readonly #active = new Set<string>();
  readonly #memo = new Map<string, number>();

  constructor(document: FormDocument) {
    this.#document = document;
  }

  /** −∞: nothing is valid; +∞: unbounded. */
  of(pointer: string): number {
    const known = this.#memo.get(pointer);
    if (known !== undefined) return known;
    if (this.#active.has(pointer)) return Infinity; // a reference cycle: no bound from the schema
    this.#active.add(pointer);
    const depth = this.#compute(pointer);
    this.#active.delete(pointer);
    this.#memo.set(pointer, depth);
    return depth;
  }

  #compute(pointer: string): number {
    const schema = this.#document.node(pointer);
    if (schema === true) return Infinity;
    if (!isJsonObject(schema)) return -Infinity;
    const has = (name: string): boolean => Object.hasOwn(schema, name);
    let depth = this.#own(schema, pointer);
    // The keywords that bound the depth by themselves (each keyword file says how).
    for (const keyword of vocabulary) {
      if (keyword.depth === undefined || !has(keyword.name)) continue;
      const bound = keyword.depth({
        node: schema,
        value: schema[keyword.name],
        of: (...tokens) => this.of(childPointer(pointer, ...tokens)),
        target: () => this.of(this.#document.refTarget(pointer)),
      });
      depth = Math.min(depth, bound);
    }
    return depth;
  }

  /** The bound from `type` and the array and object keywords of the node itself. */
  #own(schema: Readonly<Record<string, unknown>>, pointer: string): number {
    const types =
      schema.type === undefined
        ? ["object", "array", "null"]
        : ([] as string[]).concat(schema.type as string | string[]);
    let depth = types.some((name) => scalarTypes.has(name)) ? 0 : -Infinity;
    if (types.includes("array")) depth = Math.max(depth, 1 + this.#items(schema, pointer));
    if (types.includes("object")) depth = Math.max(depth, 1 + this.#members(schema, pointer));
    return depth;
  }

  #items(schema: Readonly<Record<string, unknown>>, pointer: string): number {
    const max = typeof schema.maxItems === "number" ? schema.maxItems : Infinity;
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
    let depth = 0; // an empty array
    for (let i = 0; i < Math.min(prefix, max); i++)
      depth = Math.max(depth, this.of(childPointer(pointer, "prefixItems", i)));
    if (max > prefix)
      depth = Math.max(depth, Object.hasOwn(schema, "items") ? this.of(childPointer(pointer, "items")) : Infinity);
    return depth;
  }

  #members(schema: Readonly<Record<string, unknown>>, pointer: string): number {
    if (schema.maxProperties === 0 || schema.propertyNames === false) return 0;
    let depth = 0; // an empty object
    for (const name of ["properties", "patternProperties"]) {
      for (const key of Object.keys((schema[name] ?? {}) as object))
        depth = Math.max(depth, this.of(childPointer(pointer, name, key)));
    }
    return Math.max(
      depth,
      Object.hasOwn(schema, "additionalProperties") ? this.of(childPointer(pointer, "additionalProperties")) : Infinity,
    );
  }
}

/**
 * The deepest nesting of arrays and objects (a scalar is 0, `[]` is 1, `[[1]]` is 2) that any
 * instance valid against `schema` can have, or null when the schema sets no bound (a
 * recursive `$ref`, or a place that admits arbitrary arrays or objects). An upper bound: a
 * parser limit of this depth never rejects a valid act.
 *
 * @see DESIGN.md §6 "Limits"
 * @throws {FormError} when the form itself is refused (as by {@link compileForm}).
 */
export function admittedDepth(schema: unknown): number | null {
  const depth = new Depth(new FormDocument(schema)).of("");
  if (depth === Infinity) return null;
  return depth === -Infinity ? 0 : depth;
}
