/**
 * Checks of keyword values against the 2020-12 meta-schema's types, raising {@link FormError}.
 *
 * @module
 */
import { isJsonObject } from "../json/is-json-object.ts";
import { FormError } from "./form-error.ts";
import { unescapeToken } from "./pointer.ts";

function keywordName(at: string): string {
  return unescapeToken(at.slice(at.lastIndexOf("/") + 1));
}

/** Throws `invalid-keyword-value` at `at`. */
export function refuseValue(at: string, rule: string): never {
  throw new FormError("invalid-keyword-value", at, keywordName(at), rule);
}

/**
 * Why a `bigint` (an integer literal beyond ±(2⁵³−1) in a form file, parsed exactly) is refused
 * where it is: only bounds and counts compare exactly with an instance's number.
 */
const bigIntegerRule =
  "an integer beyond ±(2^53−1) is kept exact only in minimum, maximum, exclusiveMinimum and exclusiveMaximum; write it within that range or as a double (with an exponent)";

/** A non-negative integer (1.0 counts as an integer). */
export function expectCount(value: unknown, at: string): void {
  if (typeof value === "bigint") refuseValue(at, bigIntegerRule);
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    refuseValue(at, "must be a non-negative integer");
}

/**
 * A bound to compare a number with (`maximum`): a finite number, or a `bigint` from a form file
 * (`9223372036854775807`), compared exactly in the generated code, never rounded to a double.
 */
export function expectBound(value: unknown, at: string): void {
  if (typeof value === "bigint") return;
  expectNumber(value, at);
}

/** A JSON value: null, a boolean, a finite number, a string, or arrays and plain objects of them. */
export function expectJson(value: unknown, at: string): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || typeof item === "boolean" || typeof item === "string") continue;
    if (typeof item === "number" && Number.isFinite(item)) continue;
    if (typeof item === "bigint") refuseValue(at, bigIntegerRule);
    // One push per member: spreading a 10^5-member array into push() overflows the stack.
    if (Array.isArray(item)) for (const member of item) pending.push(member);
    else if (typeof item === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(item)))
      for (const member of Object.values(item)) pending.push(member);
    else refuseValue(at, "must be a JSON value (finite numbers, strings, booleans, null, arrays, objects)");
  }
}

/** A finite number. */
export function expectNumber(value: unknown, at: string): void {
  if (typeof value === "bigint") refuseValue(at, bigIntegerRule);
  if (typeof value !== "number" || !Number.isFinite(value)) refuseValue(at, "must be a number");
}

export function expectString(value: unknown, at: string): void {
  if (typeof value !== "string") refuseValue(at, "must be a string");
}

export function expectBoolean(value: unknown, at: string): void {
  if (typeof value !== "boolean") refuseValue(at, "must be a boolean");
}

/** An array of distinct strings. */
export function expectNames(value: unknown, at: string): void {
  if (!Array.isArray(value) || !value.every((name) => typeof name === "string"))
    refuseValue(at, "must be an array of strings");
  if (new Set(value).size !== value.length) refuseValue(at, "must not repeat a name");
}

/** A schema: an object or a boolean (checked in depth by the document walk). */
export function expectSchema(value: unknown, at: string): void {
  if (typeof value !== "boolean" && !isJsonObject(value)) {
    refuseValue(at, "must be a schema (an object or a boolean)");
  }
}

/** A non-empty array of schemas. */
export function expectSchemaList(value: unknown, at: string): void {
  if (!Array.isArray(value) || value.length === 0) refuseValue(at, "must be a non-empty array of schemas");
  value.forEach((item, index) => {
    expectSchema(item, `${at}/${index}`);
  });
}

/** An object whose member values are schemas. */
export function expectSchemaMap(value: unknown, at: string): void {
  if (!isJsonObject(value)) refuseValue(at, "must be an object of schemas");
}

/** The subschemas of a keyword whose value is one schema. */
export function one(value: unknown): Array<[ReadonlyArray<string | number>, unknown]> {
  return [[[], value]];
}

/** The subschemas of a keyword whose value is an array of schemas. */
export function list(value: unknown): Array<[ReadonlyArray<string | number>, unknown]> {
  return (value as unknown[]).map((schema, index) => [[index], schema]);
}

/** The subschemas of a keyword whose value is an object of schemas. */
export function map(value: unknown): Array<[ReadonlyArray<string | number>, unknown]> {
  return Object.entries(value as Record<string, unknown>).map(([name, schema]) => [[name], schema]);
}

/** Container depth of a JSON value: a scalar is 0, `[]` is 1, `[[1]]` is 2. */
export function valueDepth(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let deepest = 0;
  for (const member of Object.values(value)) deepest = Math.max(deepest, valueDepth(member));
  return deepest + 1;
}

/**
 * The longest string in a JSON value, in UTF-16 code units: a string itself, any string item or
 * member value, any member name, at any depth; 0 for a value without strings.
 */
export function valueStringLength(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (typeof value !== "object" || value === null) return 0;
  let longest = 0;
  for (const [name, member] of Object.entries(value)) {
    longest = Math.max(longest, Array.isArray(value) ? 0 : name.length, valueStringLength(member));
  }
  return longest;
}
