/**
 * Extension keywords accepted as annotations: they assert nothing, so the form validates the
 * same with or without them (V4 holds), and the linter notes each (`no-extension-keyword`):
 *
 * - any keyword whose name starts with `x-` (the OpenAPI convention for extensions), any JSON
 *   value, never walked for subschemas (a `$ref` into one is unresolvable);
 * - the editors' annotations of the VS Code JSON language service and ajv-errors, which only
 *   describe, suggest or word messages: `markdownDescription`, `markdownEnumDescriptions`,
 *   `enumDescriptions`, `enumItemLabels`, `deprecationMessage`, `errorMessage`,
 *   `patternErrorMessage`, `doNotSuggest`, `defaultSnippets`, `suggestSortText`.
 *
 * Editor keywords that change what is accepted are refused (vocabulary.ts): `allowComments` and
 * `allowTrailingCommas` admit other JSON text, which an act never is (V2).
 *
 * @see https://json-schema.org/draft/2020-12/json-schema-core#section-6.5 (unknown keywords)
 * @see https://code.visualstudio.com/docs/languages/json#_json-schemas-and-settings
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectBoolean, expectJson, expectString, refuseValue } from "../keyword-values.ts";

function extension(name: string, check: (value: unknown, at: string) => void): Keyword {
  return { name, instance: "any", check, inert: true, extension: true };
}

function expectStrings(value: unknown, at: string): void {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string"))
    refuseValue(at, "must be an array of strings");
}

/** The extension keyword `name` (`x-…`): any JSON value. */
export function xKeyword(name: string): Keyword {
  return extension(name, expectJson);
}

/** The editors' annotations, each with the check of its value. */
export const editorAnnotations: ReadonlyArray<Keyword> = [
  extension("markdownDescription", expectString),
  extension("markdownEnumDescriptions", expectStrings),
  extension("enumDescriptions", expectStrings),
  extension("enumItemLabels", expectStrings),
  extension("deprecationMessage", expectString),
  extension("errorMessage", (value, at) => {
    // VS Code takes a string; ajv-errors also an object of messages by keyword.
    if (typeof value !== "string" && (typeof value !== "object" || value === null || Array.isArray(value)))
      refuseValue(at, "must be a string or an object of messages");
    expectJson(value, at);
  }),
  extension("patternErrorMessage", expectString),
  extension("doNotSuggest", expectBoolean),
  extension("defaultSnippets", (value, at) => {
    if (
      !Array.isArray(value) ||
      !value.every((item) => typeof item === "object" && item !== null && !Array.isArray(item))
    )
      refuseValue(at, "must be an array of objects");
    expectJson(value, at);
  }),
  extension("suggestSortText", expectString),
];
