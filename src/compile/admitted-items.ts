/**
 * `admittedItems`: the most items any one array of any instance valid against a form can have,
 * computed from the schema alone (an upper bound; null when no bound follows from it).
 *
 * @module
 */
import {
  AdmittedBound,
  admittedTypes,
  type Measure,
  type SchemaNode,
  type UnevaluatedItems,
} from "./admitted-bound.ts";
import { FormDocument } from "./document.ts";

/** The most items of one array anywhere in a JSON value: the array itself or any below it. */
export function valueItems(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let most = Array.isArray(value) ? value.length : 0;
  for (const member of Object.values(value)) most = Math.max(most, valueItems(member));
  return most;
}

/**
 * The most items an array the node admits can have by its own keywords: `maxItems`, the index
 * of the first `prefixItems` schema that admits nothing, and the length of `prefixItems` when
 * `items` admits nothing; +∞ otherwise.
 */
function ownItems(
  node: SchemaNode,
  of: (...tokens: Array<string | number>) => number,
  unevaluated: UnevaluatedItems | undefined,
): number {
  // Closed by unevaluatedItems: no item past the longest prefixItems applied in place.
  let most = Math.min(typeof node.maxItems === "number" ? node.maxItems : Infinity, unevaluated?.count ?? Infinity);
  const prefix = Array.isArray(node.prefixItems) ? node.prefixItems.length : 0;
  for (let i = 0; i < Math.min(prefix, most); i++) if (of("prefixItems", i) === -Infinity) most = i;
  if (most > prefix && Object.hasOwn(node, "items") && of("items") === -Infinity) most = prefix;
  return most;
}

/** Items of one array: a scalar or an object holds none of its own; containers add their children's. */
const items: Measure = {
  own(node, { of, items: itemBound, memberValues, unevaluatedItems }) {
    const types = admittedTypes(node);
    let bound = types.some((name) => name !== "array" && name !== "object") ? 0 : -Infinity;
    if (types.includes("object")) bound = Math.max(bound, memberValues());
    if (types.includes("array")) bound = Math.max(bound, ownItems(node, of, unevaluatedItems()), itemBound());
    return bound;
  },
  value: valueItems,
};

/**
 * The most items any one array (the instance or any array inside it) of any instance valid
 * against `schema` can have, or null when the schema sets no bound (an array without
 * `maxItems` whose `items` admits something, a place that admits any array, a recursive
 * `$ref`). An upper bound: a parser limit of this many items (`maxItems`) never rejects a
 * valid act.
 *
 * The rules, each sound: an array is bounded by `maxItems`, by the length of `prefixItems` when
 * `items` admits nothing (`items: false`), by the index of a `prefixItems` schema that
 * admits nothing, and under `unevaluatedItems` that admits nothing by the longest `prefixItems`
 * applied in place, unless an `items` or `contains` in place admits something; `const` and `enum` by the values they list; `allOf` takes the least of its
 * branches, `anyOf` and `oneOf` the greatest, `$ref` its target's, and a reference cycle is
 * unbounded unless the node itself bounds it.
 *
 * @param schema - the form `s`.
 * @returns the bound, a non-negative integer (0 when no valid instance holds an item), or null.
 * @see DESIGN.md §6 "Limits"
 * @throws {FormError} when the form itself is refused (as by {@link compileForm}).
 */
export function admittedItems(schema: unknown): number | null {
  const bound = new AdmittedBound(new FormDocument(schema), items).of("");
  if (bound === Infinity) return null;
  return bound === -Infinity ? 0 : bound;
}
