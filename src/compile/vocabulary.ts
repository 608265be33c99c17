/**
 * The closed vocabulary: every keyword the compiler implements, in emission order, and the
 * keywords it refuses with a reason. Any other name fails the build (V4).
 *
 * @module
 */
import type { Keyword } from "./keyword.ts";
import { $anchor } from "./keywords/$anchor.ts";
import { $defs } from "./keywords/$defs.ts";
import { $id } from "./keywords/$id.ts";
import { $ref } from "./keywords/$ref.ts";
import { $schema } from "./keywords/$schema.ts";
import { additionalProperties } from "./keywords/additionalProperties.ts";
import { allOf } from "./keywords/allOf.ts";
import * as annotations from "./keywords/annotations.ts";
import { anyOf } from "./keywords/anyOf.ts";
import { $const } from "./keywords/const.ts";
import { contains } from "./keywords/contains.ts";
import { dependentRequired } from "./keywords/dependentRequired.ts";
import { dependentSchemas } from "./keywords/dependentSchemas.ts";
import { $else } from "./keywords/else.ts";
import { $enum } from "./keywords/enum.ts";
import { exclusiveMaximum } from "./keywords/exclusiveMaximum.ts";
import { exclusiveMinimum } from "./keywords/exclusiveMinimum.ts";
import { editorAnnotations, xKeyword } from "./keywords/extensions.ts";
import { format } from "./keywords/format.ts";
import { $if } from "./keywords/if.ts";
import { items } from "./keywords/items.ts";
import { maxContains } from "./keywords/maxContains.ts";
import { maxItems } from "./keywords/maxItems.ts";
import { maximum } from "./keywords/maximum.ts";
import { maxLength } from "./keywords/maxLength.ts";
import { maxProperties } from "./keywords/maxProperties.ts";
import { minContains } from "./keywords/minContains.ts";
import { minItems } from "./keywords/minItems.ts";
import { minimum } from "./keywords/minimum.ts";
import { minLength } from "./keywords/minLength.ts";
import { minProperties } from "./keywords/minProperties.ts";
import { multipleOf } from "./keywords/multipleOf.ts";
import { not } from "./keywords/not.ts";
import { oneOf } from "./keywords/oneOf.ts";
import { pattern } from "./keywords/pattern.ts";
import { patternProperties } from "./keywords/patternProperties.ts";
import { prefixItems } from "./keywords/prefixItems.ts";
import { properties } from "./keywords/properties.ts";
import { propertyNames } from "./keywords/propertyNames.ts";
import { required } from "./keywords/required.ts";
import { $then } from "./keywords/then.ts";
import { type } from "./keywords/type.ts";
import { unevaluatedItems } from "./keywords/unevaluatedItems.ts";
import { unevaluatedProperties } from "./keywords/unevaluatedProperties.ts";
import { uniqueItems } from "./keywords/uniqueItems.ts";

/**
 * Implemented keywords in emission order: identifiers and annotations, `$ref`, `type`,
 * `const`/`enum`, then one contiguous group per instance type (cheap checks first), then the
 * applicators, then `unevaluatedProperties` and `unevaluatedItems`, which read what the others
 * evaluated (src/compile/evaluated.ts).
 */
export const vocabulary: ReadonlyArray<Keyword> = [
  $schema,
  $id,
  $anchor,
  $defs,
  annotations.$comment,
  annotations.title,
  annotations.description,
  annotations.$default,
  annotations.examples,
  annotations.deprecated,
  annotations.readOnly,
  annotations.writeOnly,
  ...editorAnnotations,
  $ref,
  type,
  $const,
  $enum,
  maxLength,
  minLength,
  pattern,
  format,
  minimum,
  maximum,
  exclusiveMinimum,
  exclusiveMaximum,
  multipleOf,
  required,
  dependentRequired,
  minProperties,
  maxProperties,
  properties,
  patternProperties,
  additionalProperties,
  propertyNames,
  dependentSchemas,
  minItems,
  maxItems,
  prefixItems,
  items,
  contains,
  minContains,
  maxContains,
  uniqueItems,
  allOf,
  anyOf,
  oneOf,
  not,
  $if,
  $then,
  $else,
  unevaluatedProperties,
  unevaluatedItems,
];

/** Keywords whose subschemas apply to the same instance location (`applies: "in-place"`). */
export const inPlaceKeywords: ReadonlyArray<Keyword> = vocabulary.filter((keyword) => keyword.applies === "in-place");

const byName = new Map(vocabulary.map((keyword) => [keyword.name, keyword]));

/**
 * The implemented keyword named `name`, if any (own entries only: `toString` is not one); an
 * `x-` name is an extension keyword, an annotation (keywords/extensions.ts).
 */
export function keywordOf(name: string): Keyword | undefined {
  return byName.get(name) ?? (name.startsWith("x-") ? xKeyword(name) : undefined);
}

const dynamic = "dynamic scoping is not implemented; a form's references must be static";
const content =
  "content* keywords describe encoded strings and assert nothing in 2020-12; the compiler refuses them rather than ignore them";

/** Keywords known to JSON Schema that the compiler refuses, with the reason. */
export const refused: ReadonlyMap<string, string> = new Map([
  ["$dynamicRef", dynamic],
  ["$dynamicAnchor", dynamic],
  ["$recursiveRef", "a draft 2019-09 keyword; forms are 2020-12"],
  ["$recursiveAnchor", "a draft 2019-09 keyword; forms are 2020-12"],
  ["$vocabulary", "meta-schema authoring is not supported in a form"],
  ["contentEncoding", content],
  ["contentMediaType", content],
  ["contentSchema", content],
  ["definitions", "a draft-07 keyword; use $defs"],
  ["dependencies", "a draft-07 keyword; use dependentRequired or dependentSchemas"],
  ["additionalItems", "a draft-2019-09 keyword; use items with prefixItems"],
  ["allowComments", "an editor keyword that admits comments in the JSON text; an act is strict JSON (V2)"],
  ["allowTrailingCommas", "an editor keyword that admits trailing commas in the JSON text; an act is strict JSON (V2)"],
  ["nullable", 'an OpenAPI 3.0 keyword that widens the type to null; write "type": [..., "null"]'],
]);

/** Why a known keyword is refused, or undefined when the name is not a refused keyword. */
export function refusedReason(name: string): string | undefined {
  return refused.get(name);
}
