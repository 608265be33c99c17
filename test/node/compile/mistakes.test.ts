/**
 * The "mistakes" test: one form per FormError code, each refused at build with that code, the
 * JSON Pointer of the offending keyword, and the keyword's name (V4: fail closed).
 */
import { describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { FormError, type FormErrorCode } from "../../../src/compile/form-error.ts";

interface Mistake {
  readonly code: FormErrorCode;
  readonly what: string;
  readonly schema: unknown;
  readonly pointer: string;
  readonly keyword: string;
}

/**
 * A form of `levels` schemas in `$defs` where `s0` is a string and each `s(i)` is an `anyOf`
 * whose two branches both lead to `s(i−1)` (one through an `allOf`): `s(i)` applies 5·2^i − 4
 * schemas to one location. `a` is the top level.
 */
function fanOut(levels: number): unknown {
  const defs = Array.from({ length: levels }, (_, i) => [
    `s${i}`,
    i === 0
      ? { type: "string" }
      : { anyOf: [{ $ref: `#/$defs/s${i - 1}` }, { allOf: [{ $ref: `#/$defs/s${i - 1}` }] }] },
  ]);
  return { type: "object", properties: { a: { $ref: `#/$defs/s${levels - 1}` } }, $defs: Object.fromEntries(defs) };
}

const mistakes: ReadonlyArray<Mistake> = [
  {
    code: "invalid-schema",
    what: "a subschema that is a string",
    schema: { properties: { a: "string" } },
    pointer: "/properties/a",
    keyword: "",
  },
  { code: "invalid-schema", what: "a root that is an array", schema: [], pointer: "", keyword: "" },
  {
    code: "unknown-keyword",
    what: "a misspelled keyword",
    schema: { type: "object", propertes: {} },
    pointer: "/propertes",
    keyword: "propertes",
  },
  {
    code: "unknown-keyword",
    what: "an inherited name used as a keyword",
    schema: { items: { toString: 1 } },
    pointer: "/items/toString",
    keyword: "toString",
  },
  {
    code: "refused-keyword",
    what: "$vocabulary",
    schema: { $vocabulary: { "https://json-schema.org/draft/2020-12/vocab/core": true } },
    pointer: "/$vocabulary",
    keyword: "$vocabulary",
  },
  {
    code: "refused-keyword",
    what: "unevaluatedProperties reading more than 10,000 schema locations in place",
    schema: { allOf: Array.from({ length: 10_001 }, () => ({})), unevaluatedProperties: false },
    pointer: "/unevaluatedProperties",
    keyword: "unevaluatedProperties",
  },
  {
    code: "refused-keyword",
    what: "$dynamicRef deep in $defs",
    schema: { $defs: { a: { $dynamicRef: "#x" } } },
    pointer: "/$defs/a/$dynamicRef",
    keyword: "$dynamicRef",
  },
  {
    code: "refused-keyword",
    what: "contentMediaType",
    schema: { contentMediaType: "application/json" },
    pointer: "/contentMediaType",
    keyword: "contentMediaType",
  },
  {
    code: "invalid-keyword-value",
    what: "a draft-04 boolean exclusiveMaximum",
    schema: { maximum: 3, exclusiveMaximum: true },
    pointer: "/exclusiveMaximum",
    keyword: "exclusiveMaximum",
  },
  {
    code: "invalid-keyword-value",
    what: "a const that is no JSON value (Infinity)",
    schema: { const: { a: [Infinity] } },
    pointer: "/const",
    keyword: "const",
  },
  {
    code: "invalid-keyword-value",
    what: "a negative maxLength",
    schema: { maxLength: -1 },
    pointer: "/maxLength",
    keyword: "maxLength",
  },
  {
    code: "invalid-keyword-value",
    what: "a fractional minItems",
    schema: { minItems: 1.5 },
    pointer: "/minItems",
    keyword: "minItems",
  },
  {
    code: "invalid-keyword-value",
    what: "multipleOf 0",
    schema: { multipleOf: 0 },
    pointer: "/multipleOf",
    keyword: "multipleOf",
  },
  {
    code: "invalid-keyword-value",
    what: "an unknown type name",
    schema: { type: "float" },
    pointer: "/type",
    keyword: "type",
  },
  {
    code: "invalid-keyword-value",
    what: "a repeated required name",
    schema: { required: ["a", "a"] },
    pointer: "/required",
    keyword: "required",
  },
  { code: "invalid-keyword-value", what: "an empty anyOf", schema: { anyOf: [] }, pointer: "/anyOf", keyword: "anyOf" },
  { code: "invalid-keyword-value", what: "a non-string $ref", schema: { $ref: 1 }, pointer: "/$ref", keyword: "$ref" },
  {
    code: "invalid-keyword-value",
    what: "an $id with a fragment",
    schema: { $id: "https://example.com/a#b" },
    pointer: "/$id",
    keyword: "$id",
  },
  {
    code: "invalid-keyword-value",
    what: "a malformed $anchor",
    schema: { $anchor: "1x" },
    pointer: "/$anchor",
    keyword: "$anchor",
  },
  {
    code: "unsupported-dialect",
    what: "a draft-07 $schema",
    schema: { $schema: "http://json-schema.org/draft-07/schema#" },
    pointer: "/$schema",
    keyword: "$schema",
  },
  {
    code: "unsupported-format",
    what: "an unknown format",
    schema: { format: "color" },
    pointer: "/format",
    keyword: "format",
  },
  {
    code: "unsupported-format",
    what: "a refused format",
    schema: { format: "idn-hostname" },
    pointer: "/format",
    keyword: "format",
  },
  {
    code: "invalid-pattern",
    what: "a pattern invalid with the u flag",
    schema: { pattern: "\\a" },
    pointer: "/pattern",
    keyword: "pattern",
  },
  {
    code: "invalid-pattern",
    what: "a patternProperties name that is no regex",
    schema: { patternProperties: { "(": {} } },
    pointer: "/patternProperties/(",
    keyword: "patternProperties",
  },
  {
    code: "remote-ref",
    what: "a $ref to the meta-schema",
    schema: { $ref: "https://json-schema.org/draft/2020-12/schema" },
    pointer: "/$ref",
    keyword: "$ref",
  },
  {
    code: "remote-ref",
    what: "a relative $ref to another file",
    schema: { $ref: "other.json" },
    pointer: "/$ref",
    keyword: "$ref",
  },
  {
    code: "unresolvable-ref",
    what: "a pointer to a missing definition",
    schema: { $ref: "#/$defs/missing" },
    pointer: "/$ref",
    keyword: "$ref",
  },
  {
    code: "unresolvable-ref",
    what: "a missing anchor",
    schema: { $ref: "#nowhere" },
    pointer: "/$ref",
    keyword: "$ref",
  },
  {
    code: "unresolvable-ref",
    what: "a pointer into a non-schema value",
    schema: { $ref: "#/enum/0", enum: [{}] },
    pointer: "/$ref",
    keyword: "$ref",
  },
  {
    code: "ref-cycle",
    what: "a $ref to itself",
    schema: { $defs: { a: { $ref: "#/$defs/a" } } },
    pointer: "/$defs/a/$ref",
    keyword: "$ref",
  },
  {
    code: "ref-cycle",
    what: "a root reached again through allOf",
    schema: { allOf: [{ $ref: "#" }] },
    pointer: "/allOf/0/$ref",
    keyword: "$ref",
  },
  {
    code: "fan-out",
    what: "$refs that fan out: each level's anyOf names the one below twice, 20 levels (5·2^i − 4 schemas at level i)",
    schema: fanOut(20),
    pointer: "/$defs/s15",
    keyword: "",
  },
  {
    code: "duplicate-identifier",
    what: "an $anchor defined twice",
    schema: { $defs: { a: { $anchor: "x" }, b: { $anchor: "x" } } },
    pointer: "/$defs/b/$anchor",
    keyword: "$anchor",
  },
  {
    code: "duplicate-identifier",
    what: "an $id defined twice",
    schema: { $defs: { a: { $id: "https://e.com/a" }, b: { $id: "https://e.com/a" } } },
    pointer: "/$defs/b/$id",
    keyword: "$id",
  },
];

function refusal(schema: unknown): FormError {
  try {
    compileForm(schema);
  } catch (error) {
    if (error instanceof FormError) return error;
    throw error;
  }
  throw new Error("compiled without error");
}

describe("V4 FormError: every refusal names its code, pointer and keyword", () => {
  for (const mistake of mistakes) {
    it(`${mistake.code}: ${mistake.what}`, () => {
      const error = refusal(mistake.schema);
      expect(error.code).toBe(mistake.code);
      expect(error.pointer).toBe(mistake.pointer);
      expect(error.keyword).toBe(mistake.keyword);
      expect(error.message).toContain(`"${mistake.pointer}"`);
      expect(error.name).toBe("FormError");
    });
  }

  it("covers every FormErrorCode", () => {
    const codes: Record<FormErrorCode, true> = {
      "invalid-schema": true,
      "unknown-keyword": true,
      "refused-keyword": true,
      "invalid-keyword-value": true,
      "unsupported-dialect": true,
      "unsupported-format": true,
      "invalid-pattern": true,
      "remote-ref": true,
      "unresolvable-ref": true,
      "ref-cycle": true,
      "fan-out": true,
      "duplicate-identifier": true,
    };
    expect(new Set(mistakes.map((mistake) => mistake.code))).toEqual(new Set(Object.keys(codes)));
  });

  it("controls: the same forms, corrected, compile", () => {
    for (const schema of [
      { properties: { a: { type: "string" } } },
      { type: "object", properties: {} },
      { maximum: 3, exclusiveMaximum: 3 },
      { $schema: "https://json-schema.org/draft/2020-12/schema" },
      { format: "date" },
      { pattern: "\\d" },
      { $ref: "#/$defs/present", $defs: { present: {} } },
      { $defs: { a: { $anchor: "x" }, b: { $anchor: "y" } } },
      { items: { $ref: "#" } },
      { properties: { a: { allOf: [{ $ref: "#" }] } } },
      fanOut(15), // 81,916 schemas at /$defs/s14: under the bound
    ]) {
      expect(() => compileForm(schema)).not.toThrow();
    }
  });
});
