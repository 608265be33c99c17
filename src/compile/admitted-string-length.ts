/**
 * `admittedStringLength`: the longest string, value or member name, that any instance valid
 * against a form can contain, in UTF-16 code units, computed from the schema alone (an upper
 * bound; null when no bound follows from it).
 *
 * @module
 */
import {
  AdmittedBound,
  admitsNoMember,
  admittedTypes,
  type Measure,
  type UnevaluatedMembers,
} from "./admitted-bound.ts";
import { FormDocument } from "./document.ts";

/**
 * The longest string anywhere in the instance: a string value, an item's, a member's value or
 * a member's name; 0 for an instance without strings.
 */
const stringLength: Measure = {
  hook: "stringLength",
  own(node, context) {
    const types = admittedTypes(node);
    let bound = types.some((name) => name !== "string" && name !== "array" && name !== "object") ? 0 : -Infinity;
    if (types.includes("string")) bound = Math.max(bound, context.keywords("string"));
    if (types.includes("array")) bound = Math.max(bound, context.items());
    if (types.includes("object")) {
      bound = Math.max(
        bound,
        context.memberValues(),
        Math.min(closedNames(node, context.of, context.unevaluatedMembers()), context.keywords("object")),
      );
    }
    return bound;
  },
};

/**
 * The longest member name an object the node admits can have when its names are closed: no
 * member can be other than one of `properties` (`additionalProperties` admits nothing and so
 * does every `patternProperties` schema), or by `unevaluatedProperties` (the names of the
 * `properties` applied in place); +∞ when the names are open.
 */
function closedNames(
  node: Readonly<Record<string, unknown>>,
  of: (...tokens: string[]) => number,
  unevaluated: UnevaluatedMembers | undefined,
): number {
  if (admitsNoMember(node)) return -Infinity;
  if (unevaluated !== undefined)
    return unevaluated.names === null
      ? Infinity
      : unevaluated.names.reduce((longest, name) => Math.max(longest, name.length), -Infinity);
  if (!Object.hasOwn(node, "additionalProperties") || of("additionalProperties") !== -Infinity) return Infinity;
  const patterns = Object.keys((node.patternProperties ?? {}) as object);
  if (patterns.some((pattern) => of("patternProperties", pattern) !== -Infinity)) return Infinity;
  let longest = -Infinity;
  for (const name of Object.keys((node.properties ?? {}) as object)) {
    if (of("properties", name) !== -Infinity) longest = Math.max(longest, name.length);
  }
  return longest;
}

/**
 * The longest string, in UTF-16 code units, that any instance valid against `schema` can
 * contain: string values and member names alike, at any depth; null when the schema sets no
 * bound (a string without `maxLength`, an open set of member names, a recursive `$ref`). An
 * upper bound: a parser limit of this length never rejects a valid act.
 *
 * The rules, each sound: a string bounded by `maxLength: L` has at most 2·L code units (a code
 * point is one or two, RFC 8259 §7); `const` and `enum` bound by the longest string or name in
 * their values; member names are bounded when they are closed (`additionalProperties: false`,
 * no `patternProperties`: the longest name of `properties`; `unevaluatedProperties: false`:
 * the longest name of the `properties` applied in place) or by a bounded `propertyNames`;
 * `allOf` takes the least of its branches, `anyOf` and `oneOf` the greatest, `$ref` its
 * target's, and a reference cycle is unbounded unless the node itself bounds it.
 *
 * @param schema - the form `s`.
 * @returns the bound, a non-negative integer (0 when no valid instance holds a string), or null.
 * @see DESIGN.md §6 "Limits"
 * @throws {FormError} when the form itself is refused (as by {@link compileForm}).
 */
export function admittedStringLength(schema: unknown): number | null {
  const bound = new AdmittedBound(new FormDocument(schema), stringLength).of("");
  if (bound === Infinity) return null;
  return bound === -Infinity ? 0 : bound;
}
