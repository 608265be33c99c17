/**
 * The rule of each keyword location of a form, in words, for the page for people: written at
 * build time, looked up in the browser by the `keywordLocation` the generated validator
 * reports (`lastFailure()`). Plain words only: a `pattern` is never shown (a regular
 * expression means nothing to most people; the field's `description` is its hint), and a
 * `format` is named as what it is ("a date", "an email address"), with an example where the
 * text form matters.
 *
 * @module
 */
import { isJsonObject } from "../../json/is-json-object.ts";
import { stringifyJson } from "../../json/stringify.ts";
import { childPointer } from "../pointer.ts";
import { keywordOf } from "../vocabulary.ts";

type Words = (value: unknown) => string;

const text = (value: unknown): string => stringifyJson(value);
const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
const characters = (value: unknown): string => plural(value as number, "character", "characters");
const items = (value: unknown): string => plural(value as number, "item", "items");
const members = (value: unknown): string => plural(value as number, "member", "members");

const typeNames: Readonly<Record<string, string>> = {
  string: "text",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  null: "null",
};

/** What a value of each asserted format is, in words (`format` in the compiler's vocabulary). */
const formatNames: Readonly<Record<string, string>> = {
  date: "a date, such as 2025-06-01",
  time: "a time with its offset from UTC, such as 14:30:00+02:00",
  "date-time": "a date and time with its offset from UTC, such as 2025-06-01T14:30:00+02:00",
  duration: "a duration, such as P3D or PT2H30M",
  email: "an email address",
  hostname: "a host name, such as example.org",
  ipv4: "an IPv4 address, such as 192.0.2.1",
  ipv6: "an IPv6 address, such as 2001:db8::1",
  uri: "an absolute address (URI), such as https://example.org/",
  "uri-reference": "an address (URI) or a relative one",
  uuid: "a UUID, such as 123e4567-e89b-12d3-a456-426614174000",
  "json-pointer": "a JSON Pointer, such as /a/0",
  "relative-json-pointer": "a relative JSON Pointer, such as 0/a",
  regex: "a regular expression",
};

/** The words of each asserting keyword; a keyword without an entry is named as itself. */
const rules: ReadonlyMap<string, Words> = new Map(
  Object.entries({
    type: (value) =>
      `must be ${([] as string[])
        .concat(value as string | string[])
        .map((t) => typeNames[t] ?? t)
        .join(" or ")}`,
    enum: (value) => `must be one of ${(value as unknown[]).map(text).join(", ")}`,
    const: (value) => `must be ${text(value)}`,
    minLength: (value) => (value === 1 ? "must not be empty" : `must be at least ${characters(value)} long`),
    maxLength: (value) => `must be at most ${characters(value)} long`,
    // Not the expression itself, and not the description spliced into a sentence: the
    // description is shown beside the field as its hint.
    pattern: () => "does not have the expected form",
    format: (value) => `must be ${formatNames[value as string] ?? `a valid ${value as string}`}`,
    minimum: (value) => `must be at least ${value as number}`,
    maximum: (value) => `must be at most ${value as number}`,
    exclusiveMinimum: (value) => `must be greater than ${value as number}`,
    exclusiveMaximum: (value) => `must be less than ${value as number}`,
    multipleOf: (value) => `must be a multiple of ${value as number}`,
    minItems: (value) => `must have at least ${items(value)}`,
    maxItems: (value) => `must have at most ${items(value)}`,
    uniqueItems: () => "must not repeat an item",
    contains: () => "must contain a matching item",
    minContains: (value) => `must contain at least ${items(value)} that match`,
    maxContains: (value) => `must contain at most ${items(value)} that match`,
    minProperties: (value) => `must have at least ${members(value)}`,
    maxProperties: (value) => `must have at most ${members(value)}`,
    required: () => "is required",
    dependentRequired: () => "needs the members that go with it",
    additionalProperties: () => "is not a member the form allows",
    propertyNames: () => "has a member name the form does not allow",
    anyOf: () => "must match one of the alternatives",
    oneOf: () => "must match exactly one of the alternatives",
    allOf: () => "must match every part of the form",
    not: () => "must not match the excluded form",
    if: () => "must match the condition's consequence",
    // A computed key: an object literal with a plain `then` member would be a thenable.
    ["then" as string]: () => "must match what the condition requires",
    else: () => "must match what the condition requires otherwise",
  }),
);

/**
 * The words of every keyword of every schema location in `schema`, by `keywordLocation`
 * (`/properties/title/maxLength` → `"must be at most 200 characters long"`), plus, for a
 * `false` subschema, its own location (`"must be absent"`).
 *
 * @param schema - the form `s`.
 * @returns a plain object from keyword location to words.
 */
export function ruleWords(schema: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (node: unknown, pointer: string): void => {
    if (node === false) out[pointer] = "must be absent";
    if (!isJsonObject(node)) return;
    for (const [name, value] of Object.entries(node)) {
      const words = rules.get(name);
      if (words !== undefined) out[childPointer(pointer, name)] = words(value);
      for (const [tokens, sub] of keywordOf(name)?.subschemas?.(value) ?? [])
        walk(sub, childPointer(pointer, name, ...tokens));
    }
  };
  walk(schema, "");
  return out;
}

/**
 * The constraints of one field, in words, for its help text (`"must not be empty; …"`): not
 * its `pattern` (see the module summary), and its `format` only when `native` is false (a
 * date input needs no "must be a date").
 */
export function constraintWords(node: Readonly<Record<string, unknown>>, native = false): string[] {
  const out: string[] = [];
  for (const name of [
    "minLength",
    "maxLength",
    ...(native ? [] : ["format"]),
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
  ]) {
    const words = rules.get(name);
    if (words !== undefined && Object.hasOwn(node, name)) out.push(words(node[name]));
  }
  return out;
}
