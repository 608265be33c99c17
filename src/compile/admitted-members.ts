/**
 * `admittedMembers`: the most members any one object of any instance valid against a form can
 * have, computed from the schema alone (an upper bound; null when no bound follows from it).
 *
 * @module
 */
import {
  AdmittedBound,
  admitsNoMember,
  admittedTypes,
  type Measure,
  type SchemaNode,
  type UnevaluatedMembers,
} from "./admitted-bound.ts";
import { FormDocument } from "./document.ts";

/** The most members of one object anywhere in a JSON value: the object itself or any below it. */
export function valueMembers(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let most = Array.isArray(value) ? 0 : Object.keys(value).length;
  for (const member of Object.values(value)) most = Math.max(most, valueMembers(member));
  return most;
}

/**
 * The most members an object the node admits can have by its own keywords: `maxProperties`,
 * or, when its names are closed (`additionalProperties` admits nothing and neither does any
 * `patternProperties` schema), the `properties` whose schema admits something; +∞ when open.
 */
function ownMembers(
  node: SchemaNode,
  of: (...tokens: string[]) => number,
  unevaluated: UnevaluatedMembers | undefined,
): number {
  if (admitsNoMember(node)) return 0;
  const most = typeof node.maxProperties === "number" ? node.maxProperties : Infinity;
  // Closed by unevaluatedProperties: no name but those the schemas in place evaluate.
  if (unevaluated !== undefined) return Math.min(most, unevaluated.names?.length ?? Infinity);
  if (!Object.hasOwn(node, "additionalProperties") || of("additionalProperties") !== -Infinity) return most;
  const patterns = Object.keys((node.patternProperties ?? {}) as object);
  if (patterns.some((pattern) => of("patternProperties", pattern) !== -Infinity)) return most;
  const names = Object.keys((node.properties ?? {}) as object).filter((name) => of("properties", name) !== -Infinity);
  return Math.min(most, names.length);
}

/** Members of one object: a scalar or an array holds none of its own; containers add their children's. */
const members: Measure = {
  own(node, { of, items, memberValues, unevaluatedMembers }) {
    const types = admittedTypes(node);
    let bound = types.some((name) => name !== "array" && name !== "object") ? 0 : -Infinity;
    if (types.includes("array")) bound = Math.max(bound, items());
    if (types.includes("object")) bound = Math.max(bound, ownMembers(node, of, unevaluatedMembers()), memberValues());
    return bound;
  },
  value: valueMembers,
};

/**
 * The most members any one object (the instance or any object inside it) of any instance valid
 * against `schema` can have, or null when the schema sets no bound (an object whose names are
 * open and without `maxProperties`, a place that admits any object, a recursive `$ref`). An
 * upper bound: a parser limit of this many members (`maxMembers`) never rejects a valid act.
 *
 * The rules, each sound: an object is bounded by `maxProperties`, and when its names are closed
 * (`additionalProperties` admitting nothing, no `patternProperties` admitting anything) by the
 * number of `properties` whose schema admits something; under `unevaluatedProperties` that
 * admits nothing, by the names of the `properties` applied in place (src/compile/evaluated.ts)
 * unless a pattern or an `additionalProperties` in place admits something; `const` and `enum` by the values they
 * list; `allOf` takes the least of its branches, `anyOf` and `oneOf` the greatest, `$ref` its
 * target's, and a reference cycle is unbounded unless the node itself bounds it.
 *
 * @param schema - the form `s`.
 * @returns the bound, a non-negative integer (0 when no valid instance holds a member), or null.
 * @see DESIGN.md §6 "Limits"
 * @throws {FormError} when the form itself is refused (as by {@link compileForm}).
 */
export function admittedMembers(schema: unknown): number | null {
  const bound = new AdmittedBound(new FormDocument(schema), members).of("");
  if (bound === Infinity) return null;
  return bound === -Infinity ? 0 : bound;
}
