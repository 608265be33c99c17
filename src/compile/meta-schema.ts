/**
 * F1: a form's `s` must be a valid JSON Schema. Checked at build time against the official
 * 2020-12 meta-schema, with @cfworker/json-schema as the (independent) validator.
 *
 * @module
 */
import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";
import { withoutBigInts } from "../json/stringify.ts";
import applicator from "./meta-schema/2020-12/meta/applicator.json" with { type: "json" };
import content from "./meta-schema/2020-12/meta/content.json" with { type: "json" };
import core from "./meta-schema/2020-12/meta/core.json" with { type: "json" };
import formatAnnotation from "./meta-schema/2020-12/meta/format-annotation.json" with { type: "json" };
import metaData from "./meta-schema/2020-12/meta/meta-data.json" with { type: "json" };
import unevaluated from "./meta-schema/2020-12/meta/unevaluated.json" with { type: "json" };
import validation from "./meta-schema/2020-12/meta/validation.json" with { type: "json" };
import schema from "./meta-schema/2020-12/schema.json" with { type: "json" };

let metaValidator: Validator | undefined;

/** One way in which a schema fails the meta-schema. */
export interface MetaSchemaViolation {
  /** JSON Pointer into the checked schema (the `instanceLocation`). */
  readonly pointer: string;
  /** The meta-schema keyword that failed, as a JSON Pointer into the meta-schema (`keywordLocation`). */
  readonly keywordLocation: string;
  /** The validator's own words. */
  readonly error: string;
}

/**
 * Checks `schema` against the JSON Schema 2020-12 meta-schema.
 *
 * @returns the violations, deepest first; empty when the schema is valid.
 * @see https://json-schema.org/draft/2020-12/json-schema-core (§8, §10)
 */
export function checkMetaSchema(candidate: unknown): MetaSchemaViolation[] {
  metaValidator ??= createMetaValidator();
  // A bigint (an int64 bound of a form file) is checked as the number it is.
  const result = metaValidator.validate(withoutBigInts(candidate));
  if (result.valid) return [];
  return result.errors
    .map((unit: OutputUnit) => ({
      pointer: unit.instanceLocation.replace(/^#/, ""),
      keywordLocation: unit.keywordLocation.replace(/^#/, ""),
      error: unit.error,
    }))
    .sort((a, b) => b.pointer.length - a.pointer.length);
}

function createMetaValidator(): Validator {
  const validator = new Validator(schema as Schema, "2020-12", false);
  for (const vocabulary of [applicator, content, core, formatAnnotation, metaData, unevaluated, validation]) {
    validator.addSchema(vocabulary as Schema);
  }
  return validator;
}
