/**
 * `admittedBytes`: the length of the longest JSON text of any instance valid against a form, as
 * a serializer writes it, computed from the schema alone (an upper bound; null when no bound
 * follows from it). The default `maxBytes` of an address whose form bounds it.
 *
 * JSON admits unbounded whitespace and unbounded spellings of a number (`1.000…0`), so no byte
 * bound holds every valid text; this one holds every text a serializer writes, however it
 * escapes and indents:
 *
 * - every string with every character escaped (`\u00E9`: 6 bytes a UTF-16 code unit, so 12 a
 *   code point outside the BMP, `\uD83D\uDE00`);
 * - every number in {@link NUMBER_BYTES} bytes (the longest a double takes in JavaScript,
 *   Python, Go or Java is 25, `-0.0000012345678901234567`);
 * - pretty-printed: before every value, member and closing bracket a margin of
 *   {@link whitespace}(depth) bytes, a CR LF and 4 spaces of indentation for each level of the
 *   deepest nesting the form admits, and 2 more (a space after a colon); the same again after
 *   the value.
 *
 * @module
 */
import {
  AdmittedBound,
  admitsNoMember,
  admittedTypes,
  type Measure,
  type SchemaNode,
  type UnevaluatedItems,
  type UnevaluatedMembers,
} from "./admitted-bound.ts";
import { admittedDepth } from "./admitted-depth.ts";
import { FormDocument } from "./document.ts";

/** The bytes counted for any number: more than any serializer spells a double in. */
export const NUMBER_BYTES = 32;

/** Indentation counted for each level of nesting (4 spaces, or a tab and more). */
const INDENT_BYTES = 4;

/**
 * The whitespace margin counted before each value, member and closing bracket of a text whose
 * containers nest `depth` deep: a line break (CR LF), {@link INDENT_BYTES} for each level, and
 * 2 more.
 */
export function whitespace(depth: number): number {
  return 2 + INDENT_BYTES * depth + 2;
}

/** The bytes of a JSON string of `units` UTF-16 code units, each escaped as `\uXXXX`, with its quotes. */
const stringBytes = (units: number): number => 2 + 6 * units;

/** The bytes of the longest text of one JSON value (a `const` or `enum` member), as {@link admittedBytes} counts. */
function valueBytes(value: unknown, margin: number): number {
  if (value === null) return margin + 4;
  if (typeof value === "boolean") return margin + 5;
  if (typeof value === "number") return margin + NUMBER_BYTES;
  if (typeof value === "string") return margin + stringBytes(value.length);
  let bytes = margin + 2 + margin; // the brackets, the margin before the closing one
  if (Array.isArray(value)) for (const item of value) bytes += valueBytes(item, margin) + 1;
  else {
    for (const [name, member] of Object.entries(value as object)) {
      bytes += margin + stringBytes(name.length) + 1 + valueBytes(member, margin) + 1;
    }
  }
  return bytes;
}

/** The measure, for a margin of `margin` bytes of whitespace before each value, member and bracket. */
function bytesMeasure(margin: number): Measure {
  /** Bytes of the items of an array the node admits, commas included. */
  function items(
    node: SchemaNode,
    of: (...tokens: Array<string | number>) => number,
    unevaluated: UnevaluatedItems | undefined,
  ): number {
    const most = Math.min(typeof node.maxItems === "number" ? node.maxItems : Infinity, unevaluated?.count ?? Infinity);
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems.length : 0;
    let bytes = 0;
    for (let i = 0; i < Math.min(prefix, most); i++) {
      const item = of("prefixItems", i);
      if (item === -Infinity) return bytes; // no item here, so none after
      bytes += item + 1;
    }
    if (most <= prefix) return bytes;
    const item = Object.hasOwn(node, "items") ? of("items") : (unevaluated?.value ?? Infinity);
    if (item === -Infinity) return bytes;
    return bytes + (most - prefix) * (item + 1);
  }

  /**
   * Bytes of the members of an object the node admits, commas included: its `maxProperties`
   * largest members, where any number of members outside `properties` (names of at most
   * `names` bytes) may stand beside those of `properties`.
   */
  function members(
    node: SchemaNode,
    of: (...tokens: string[]) => number,
    names: number,
    unevaluated: UnevaluatedMembers | undefined,
  ): number {
    if (admitsNoMember(node)) return 0;
    const most = typeof node.maxProperties === "number" ? node.maxProperties : Infinity;
    const member = (name: number, value: number) => margin + name + 1 + value + 1;
    const own = (node.properties ?? {}) as object;
    const listed: number[] = [];
    for (const name of Object.keys(own)) {
      const value = of("properties", name);
      if (value !== -Infinity) listed.push(member(stringBytes(name.length), value));
    }
    // Closed by unevaluatedProperties: the other names evaluated in place, each value within theirs.
    if (unevaluated?.names != null) {
      for (const name of unevaluated.names)
        if (!Object.hasOwn(own, name) && unevaluated.value !== -Infinity)
          listed.push(member(stringBytes(name.length), unevaluated.value));
      listed.sort((a, b) => b - a);
      let bytes = 0;
      for (let k = 0; k < Math.min(most, listed.length); k++) bytes += listed[k]!;
      return bytes;
    }
    listed.sort((a, b) => b - a);
    // Members outside `properties`: under `patternProperties`, `additionalProperties`, or what
    // `unevaluatedProperties` reads.
    let value = Object.hasOwn(node, "additionalProperties")
      ? of("additionalProperties")
      : (unevaluated?.value ?? Infinity);
    for (const pattern of Object.keys((node.patternProperties ?? {}) as object)) {
      value = Math.max(value, of("patternProperties", pattern));
    }
    const other = value === -Infinity || names === -Infinity ? -Infinity : member(names, value);
    let bytes = 0;
    for (let k = 0; k < Math.min(most, listed.length); k++) bytes += Math.max(listed[k]!, other);
    if (other === -Infinity || most <= listed.length) return bytes;
    return bytes + (most - listed.length) * other; // +∞ when `most` or `other` is
  }

  return {
    hook: "bytes",
    own(node, { of, keywords, unevaluatedItems, unevaluatedMembers }) {
      const types = admittedTypes(node);
      let bytes = -Infinity;
      if (types.includes("null")) bytes = Math.max(bytes, 4);
      if (types.includes("boolean")) bytes = Math.max(bytes, 5);
      if (types.includes("number") || types.includes("integer")) bytes = Math.max(bytes, NUMBER_BYTES);
      if (types.includes("string")) bytes = Math.max(bytes, keywords("string"));
      if (types.includes("array")) bytes = Math.max(bytes, 2 + margin + items(node, of, unevaluatedItems()));
      if (types.includes("object"))
        bytes = Math.max(bytes, 2 + margin + members(node, of, keywords("object"), unevaluatedMembers()));
      return margin + bytes;
    },
    value: (value) => valueBytes(value, margin),
  };
}

/**
 * The length in bytes of the longest JSON text of any instance valid against `schema`, as any
 * serializer writes it (every character escaped, numbers in {@link NUMBER_BYTES} bytes,
 * pretty-printed within the {@link whitespace} margin: see the module's summary), or null when
 * the schema sets no bound (a string without `maxLength`, an array without `maxItems`, an
 * object with open names and without `maxProperties`, a recursive `$ref`, unbounded nesting).
 * A text longer than this is padded beyond what any serializer writes, or not valid.
 *
 * The rules, each sound: an array is at most its brackets and its items, `maxItems` of them
 * (the `prefixItems` up to the first that admits nothing, then `items`); an object its braces
 * and its `maxProperties` largest members, or every member of `properties` when its names are
 * closed, each with its name (6 bytes a code unit, bounded by `propertyNames` for names outside
 * `properties`); a string 2 + 12 bytes a code point of `maxLength`; `const` and `enum` the
 * longest of the values they list; `allOf` takes the least of its branches, `anyOf` and `oneOf`
 * the greatest, `$ref` its target's.
 *
 * @param schema - the form `s`.
 * @returns the bound in bytes (0 when nothing is valid), or null.
 * @see DESIGN.md §6 "Limits"
 * @throws {FormError} when the form itself is refused (as by {@link compileForm}).
 */
export function admittedBytes(schema: unknown): number | null {
  const depth = admittedDepth(schema);
  if (depth === null) return null;
  const margin = whitespace(depth);
  const bound = new AdmittedBound(new FormDocument(schema), bytesMeasure(margin)).of("");
  if (bound === Infinity) return null;
  return bound === -Infinity ? 0 : bound + margin;
}
