/**
 * Values for a differential test of a form: `validValue(schema)` generates values valid against
 * the JSON Schema keywords the form-module fixtures use, and `nearValue(schema)` mixes in
 * mistakes at every level (a member dropped or added, any JSON value in place of one), so that
 * both accepts and rejects are exercised. Strings are ASCII: JSON Schema counts lengths in code
 * points and the schema libraries in UTF-16 code units, which differ only beyond U+FFFF (a
 * difference asserted on its own in form-modules.test.ts).
 *
 * @module
 */
import fc from "fast-check";

type Schema = Record<string, unknown> | boolean;

const ascii = (minLength: number, maxLength: number) => fc.string({ unit: "grapheme-ascii", minLength, maxLength });

const anyJson = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);

function resolve(schema: Schema, root: Schema): Schema {
  if (typeof schema === "boolean" || typeof schema.$ref !== "string") return schema;
  const tokens = schema.$ref.replace(/^#\//, "").split("/");
  let node: unknown = root;
  for (const token of tokens) node = (node as Record<string, unknown>)[token];
  return resolve(node as Schema, root);
}

/** An arbitrary of values valid against `schema` (the keywords of the fixtures only; `mistakes` > 0 mixes in invalid ones). */
function arbitrary(schema: Schema, root: Schema, mistakes: number): fc.Arbitrary<unknown> {
  const valid = validArbitrary(resolve(schema, root), root, mistakes);
  if (mistakes === 0) return valid;
  return fc.oneof({ weight: 20, arbitrary: valid }, { weight: mistakes, arbitrary: anyJson });
}

function validArbitrary(schema: Schema, root: Schema, mistakes: number): fc.Arbitrary<unknown> {
  if (schema === true) return anyJson;
  if (schema === false) throw new Error("no value is valid against false");
  if (Object.hasOwn(schema, "const")) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches !== undefined) return fc.oneof(...branches.map((branch) => arbitrary(branch, root, mistakes)));
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  return fc.oneof(...types.map((type) => typed(type, schema, root, mistakes)));
}

function typed(type: string, schema: Record<string, unknown>, root: Schema, mistakes: number): fc.Arbitrary<unknown> {
  const number = (name: string) => (typeof schema[name] === "number" ? (schema[name] as number) : undefined);
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: number("minimum") ?? -1e6, max: number("maximum") ?? 1e6 });
    case "number":
      return fc.double({ min: number("minimum") ?? -1e6, max: number("maximum") ?? 1e6, noNaN: true });
    case "string": {
      if (typeof schema.pattern === "string")
        return fc
          .stringMatching(new RegExp(schema.pattern, "u"))
          .filter((text) => text.length <= (number("maxLength") ?? Number.POSITIVE_INFINITY));
      return ascii(number("minLength") ?? 0, number("maxLength") ?? 30);
    }
    case "array": {
      const prefix = (schema.prefixItems ?? []) as Schema[];
      if (prefix.length > 0) return fc.tuple(...prefix.map((item) => arbitrary(item, root, mistakes)));
      return fc.array(arbitrary((schema.items ?? true) as Schema, root, mistakes), {
        minLength: number("minItems") ?? 0,
        maxLength: number("maxItems") ?? 4,
      });
    }
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = arbitrary(property, root, mistakes);
      const value = fc.record(record, { requiredKeys: [...required] }) as fc.Arbitrary<Record<string, unknown>>;
      if (mistakes === 0) return value;
      // A mistake at this level: a required member dropped, or a member the form does not name added.
      return fc.oneof(
        { weight: 20, arbitrary: value },
        {
          weight: mistakes,
          arbitrary: fc.tuple(value, fc.constantFrom(...required, "")).map(([object, name]) => {
            const copy = { ...object };
            delete copy[name];
            return copy;
          }),
        },
        {
          weight: mistakes,
          arbitrary: fc.tuple(value, anyJson).map(([object, extra]) => ({ ...object, extra })),
        },
      );
    }
    default:
      throw new Error(`no arbitrary for type ${type}`);
  }
}

/** Values valid against `schema`. */
export function validValue(schema: Schema): fc.Arbitrary<unknown> {
  return arbitrary(schema, schema, 0);
}

/** Values near `schema`: mostly valid, with a mistake at each level now and then. */
export function nearValue(schema: Schema): fc.Arbitrary<unknown> {
  return arbitrary(schema, schema, 1);
}
