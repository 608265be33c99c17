/**
 * fast-check arbitraries for the differential test: schemas over the whole implemented
 * vocabulary, and JSON instances drawn from a small domain so that they often sit on the
 * schemas' boundaries. Numbers are binary-exact and names avoid Object.prototype's, so the
 * documented differences (float multipleOf, inherited names) are tested on their own instead.
 *
 * @module
 */
import fc from "fast-check";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const key = fc.constantFrom("a", "b", "c", "ab");
const text = fc.constantFrom(
  "",
  "a",
  "ab",
  "abc",
  "A",
  "B1",
  "😀",
  "😀😀",
  "é",
  "2020-01-01",
  "2020-02-30",
  "1.2.3.4",
  "ab😀",
);
const number = fc.constantFrom(0, 1, 2, 3, -1, 1.5, 2.5, 0.25, 4, 10, -0.5);

/** Arrays longer than 16 items (uniqueItems' Set paths), often with repeats. */
const long: fc.Arbitrary<Json> = fc.array(
  fc.oneof(
    number,
    text,
    fc.dictionary(key, number, { maxKeys: 2, noNullPrototype: true }),
    fc.array(number, { maxLength: 2 }),
  ),
  { minLength: 17, maxLength: 24 },
);

/** JSON instances from the small domain. */
export const instance: fc.Arbitrary<Json> = fc.letrec<{ value: Json; array: Json[]; object: { [key: string]: Json } }>(
  (tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 3 },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.boolean() },
      { weight: 3, arbitrary: number },
      { weight: 3, arbitrary: text },
      { weight: 3, arbitrary: tie("array") },
      { weight: 4, arbitrary: tie("object") },
      { weight: 1, arbitrary: long },
    ),
    array: fc.array(tie("value"), { maxLength: 4 }),
    object: fc.dictionary(key, tie("value"), { maxKeys: 4, noNullPrototype: true }),
  }),
).value;

type Schema = boolean | { [keyword: string]: unknown };

const typeName = fc.constantFrom("null", "boolean", "object", "array", "number", "string", "integer");
const small = fc.nat({ max: 3 });

function keywords(schema: fc.Arbitrary<Schema>, ref: fc.Arbitrary<Schema> | undefined): fc.Arbitrary<Schema> {
  const sub = ref === undefined ? schema : fc.oneof(schema, ref);
  const entry: Array<fc.Arbitrary<[string, unknown]>> = [
    fc.tuple(fc.constant("type"), fc.oneof(typeName, fc.uniqueArray(typeName, { minLength: 1, maxLength: 3 }))),
    fc.tuple(fc.constant("enum"), fc.array(instance, { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constant("const"), instance),
    fc.tuple(fc.constant("multipleOf"), fc.constantFrom(1, 2, 3, 0.5, 0.25)),
    fc.tuple(fc.constantFrom("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"), number),
    fc.tuple(
      fc.constantFrom(
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "minContains",
        "maxContains",
      ),
      small,
    ),
    fc.tuple(fc.constant("pattern"), fc.constantFrom("^a", "b$", "\\p{Lu}", "^.$", "😀", "a|b", "^[a-c]*$", "^\\d")),
    fc.tuple(fc.constant("format"), fc.constantFrom("date", "ipv4", "uuid")),
    fc.tuple(fc.constant("uniqueItems"), fc.boolean()),
    fc.tuple(fc.constant("required"), fc.uniqueArray(key, { maxLength: 2 })),
    fc.tuple(
      fc.constant("dependentRequired"),
      fc.dictionary(key, fc.uniqueArray(key, { maxLength: 2 }), { maxKeys: 2, noNullPrototype: true }),
    ),
    fc.tuple(
      fc.constantFrom("properties", "dependentSchemas"),
      fc.dictionary(key, sub, { maxKeys: 2, noNullPrototype: true }),
    ),
    fc.tuple(
      fc.constant("patternProperties"),
      fc.dictionary(fc.constantFrom("^a", "b", "^c$"), sub, { maxKeys: 2, noNullPrototype: true }),
    ),
    fc.tuple(
      fc.constantFrom("additionalProperties", "propertyNames", "items", "contains", "not", "if", "then", "else"),
      sub,
    ),
    fc.tuple(fc.constantFrom("prefixItems", "allOf", "anyOf", "oneOf"), fc.array(sub, { minLength: 1, maxLength: 3 })),
    // Annotation-dependent: often `false`, so that what the in-place subschemas evaluated decides.
    fc.tuple(fc.constantFrom("unevaluatedProperties", "unevaluatedItems"), fc.oneof(fc.constant(false), sub)),
  ];
  return fc.oneof(
    { weight: 1, arbitrary: fc.boolean() },
    {
      weight: 12,
      arbitrary: fc
        .array(fc.oneof(...entry), { minLength: 1, maxLength: 3 })
        .map((entries) => Object.fromEntries(entries) as Schema),
    },
  );
}

function schemaTree(ref: fc.Arbitrary<Schema> | undefined): fc.Arbitrary<Schema> {
  return fc.letrec<{ schema: Schema }>((tie) => ({
    schema: fc.oneof(
      { depthSize: "small", maxDepth: 3 },
      { weight: 1, arbitrary: fc.constant({}) },
      { weight: 4, arbitrary: keywords(tie("schema"), ref) },
    ),
  })).schema;
}

const definitions = fc.dictionary(fc.constantFrom("d0", "d1"), schemaTree(undefined), {
  minKeys: 1,
  maxKeys: 2,
  noNullPrototype: true,
});

/** A recursive definition that descends into the instance, reached by `$anchor`. */
const recursive: Schema = {
  $anchor: "tree",
  anyOf: [
    { type: "integer" },
    { type: "array", maxItems: 3, items: { $ref: "#tree" } },
    { type: "object", additionalProperties: { $ref: "#/$defs/r" } },
  ],
};

/**
 * A schema document: a tree over the vocabulary that may `$ref` its (ref-free) `$defs` by
 * JSON Pointer, and a recursive definition by `$anchor`.
 */
export const form: fc.Arbitrary<Schema> = definitions.chain((defs) => {
  const names = Object.keys(defs);
  const ref = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...names).map((name): Schema => ({ $ref: `#/$defs/${name}` })) },
    { weight: 1, arbitrary: fc.constant<Schema>({ $ref: "#tree" }) },
  );
  return schemaTree(ref).map((schema) =>
    typeof schema === "boolean" ? schema : { ...schema, $defs: { ...defs, r: recursive } },
  );
});
