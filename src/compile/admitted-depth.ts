/**
 * `admittedDepth`: the deepest container nesting any instance valid against a form can have,
 * computed from the schema alone (an upper bound; null when no bound follows from it).
 *
 * @module
 */
import { AdmittedBound, type Measure } from "./admitted-bound.ts";
import { FormDocument } from "./document.ts";

const scalarTypes = new Set(["null", "boolean", "number", "integer", "string"]);

/** Container depth: a scalar is 0, `[]` is 1; an array or object one more than its deepest child. */
const depth: Measure = {
  hook: "depth",
  own(node, { items, memberValues }) {
    const types =
      node.type === undefined ? ["object", "array", "null"] : ([] as string[]).concat(node.type as string | string[]);
    let bound = types.some((name) => scalarTypes.has(name)) ? 0 : -Infinity;
    if (types.includes("array")) bound = Math.max(bound, 1 + items());
    if (types.includes("object")) bound = Math.max(bound, 1 + memberValues());
    return bound;
  },
};

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
  const bound = new AdmittedBound(new FormDocument(schema), depth).of("");
  if (bound === Infinity) return null;
  return bound === -Infinity ? 0 : bound;
}
