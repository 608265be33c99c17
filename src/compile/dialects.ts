/**
 * The JSON Schema dialects a form may declare, and the keywords each one knows: what
 * `upgradeForm` reads (src/compile/upgrade.ts).
 *
 * @module
 */

/** A dialect of JSON Schema, by its draft. */
export type Dialect = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

/** The dialects older than 2020-12 that `upgradeForm` rewrites, oldest first. */
export const olderDialects: ReadonlyArray<Exclude<Dialect, "2020-12">> = [
  "draft-04",
  "draft-06",
  "draft-07",
  "2019-09",
];

/** The meta-schema URI of 2020-12, written as `$schema` by the upgrade. */
export const DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

const uris: ReadonlyArray<[RegExp, Dialect]> = [
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, "draft-04"],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, "draft-06"],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "draft-07"],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, "2019-09"],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
];

/** The dialect a `$schema` value names, or undefined for any other value. */
export function dialectOf(uri: unknown): Dialect | undefined {
  if (typeof uri !== "string") return undefined;
  return uris.find(([pattern]) => pattern.test(uri))?.[1];
}

const draft04 = [
  "id",
  "$schema",
  "$ref",
  "title",
  "description",
  "default",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "additionalItems",
  "items",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "additionalProperties",
  "definitions",
  "properties",
  "patternProperties",
  "dependencies",
  "enum",
  "type",
  "format",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
];
const draft06 = [...draft04.filter((name) => name !== "id"), "$id", "const", "contains", "propertyNames", "examples"];
const draft07 = [
  ...draft06,
  "if",
  "then",
  "else",
  "$comment",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
];
const draft201909 = [
  ...draft07,
  "$anchor",
  "$defs",
  "$recursiveRef",
  "$recursiveAnchor",
  "$vocabulary",
  "dependentRequired",
  "dependentSchemas",
  "maxContains",
  "minContains",
  "unevaluatedItems",
  "unevaluatedProperties",
  "deprecated",
  "contentSchema",
];

/** The keywords each older dialect defines (its meta-schemas' properties). */
export const dialectKeywords: Readonly<Record<Exclude<Dialect, "2020-12">, ReadonlySet<string>>> = {
  "draft-04": new Set(draft04),
  "draft-06": new Set(draft06),
  "draft-07": new Set(draft07),
  "2019-09": new Set(draft201909),
};
