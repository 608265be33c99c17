/**
 * The interfaces of Standard Schema and Standard JSON Schema (https://standardschema.dev),
 * copied as their specification allows (no dependency), and the one call the build makes:
 * `s["~standard"].jsonSchema.input({ target: "draft-2020-12" })`.
 *
 * @see https://standardschema.dev Standard Schema and Standard JSON Schema, version 1
 * @module
 */

/** The types a Standard Schema declares (`~standard.types`): present only in its type. */
export interface StandardTypes<Input = unknown, Output = Input> {
  readonly input: Input;
  readonly output: Output;
}

/** Options of a Standard JSON Schema converter. */
export interface StandardJsonSchemaOptions {
  /** The dialect to write: `"draft-2020-12"`, `"draft-07"`, `"openapi-3.0"`, or a vendor's own. */
  readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);
  /** Options of the library itself. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** A Standard JSON Schema: a schema of any library that writes itself as JSON Schema. */
export interface StandardJsonSchema<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    /** The library's name (`"zod"`, `"valibot"`, `"arktype"`). */
    readonly vendor: string;
    readonly types?: StandardTypes<Input, Output> | undefined;
    readonly jsonSchema: {
      readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
      readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    };
  };
}

/** Standard Schema's `InferInput`: the type of a value the schema accepts (before any transform). */
export type StandardInput<Schema extends { readonly "~standard": { readonly types?: unknown } }> =
  NonNullable<Schema["~standard"]["types"]> extends { readonly input: infer Input } ? Input : unknown;

/** A form module's default export (`forms/<name>.ts`): an arrival document whose `s` may be a schema of a library. */
export interface FormSource {
  /** The prompt (A2). */
  readonly p: string;
  /** The messages, each `{role, content}` (A2). */
  readonly m: ReadonlyArray<{ readonly role: string; readonly content: string }>;
  /** A Standard JSON Schema (zod 4, valibot through `toStandardJsonSchema`, ArkType), or a JSON Schema object. */
  readonly s: StandardJsonSchema | Readonly<Record<string, unknown>> | boolean;
}

/** Whether `value` carries a Standard Schema (`~standard`), with or without a JSON Schema converter. */
export function standardOf(value: unknown): { readonly vendor: string; readonly jsonSchema: unknown } | undefined {
  if (typeof value !== "object" && typeof value !== "function") return undefined;
  if (value === null) return undefined;
  const standard = (value as { "~standard"?: unknown })["~standard"];
  if (typeof standard !== "object" || standard === null) return undefined;
  const { vendor, jsonSchema } = standard as { vendor?: unknown; jsonSchema?: unknown };
  return { vendor: typeof vendor === "string" ? vendor : "unknown", jsonSchema };
}

/**
 * ArkType's Standard JSON Schema converter replaces what JSON Schema cannot say (a `narrow`
 * predicate, a `Date`, a symbol) by what it can, silently: wider. These handlers make each such
 * case fail instead (fail closed); a default that is no JSON value is dropped (an annotation).
 */
function arkTypeStrict(): Record<string, unknown> {
  const refuse = (code: string) => () => {
    throw new Error(`ArkType cannot write this ${code} in JSON Schema, so the address could not enforce it`);
  };
  const codes = ["arrayObject", "arrayPostfix", "domain", "patternIntersection", "predicate", "proto", "symbolKey"];
  return {
    fallback: {
      ...Object.fromEntries(codes.map((code) => [code, refuse(code)])),
      unit: refuse("unit"),
      date: refuse("date"),
    },
  };
}

/**
 * The JSON Schema 2020-12 of a Standard JSON Schema, as its library writes it.
 *
 * @throws Error what the library throws (a schema it cannot write: a `Date`, a transform's output,
 *   a refinement valibot cannot write, an ArkType predicate), or when it has no converter.
 */
export function jsonSchemaOf(standard: { readonly vendor: string; readonly jsonSchema: unknown }): unknown {
  const input = (standard.jsonSchema as { input?: unknown } | undefined)?.input;
  if (typeof input !== "function") {
    const hint =
      standard.vendor === "valibot"
        ? "wrap it in toStandardJsonSchema() from @valibot/to-json-schema"
        : "use a version of the library that implements Standard JSON Schema";
    throw new Error(`a ${standard.vendor} schema without ~standard.jsonSchema (Standard JSON Schema): ${hint}`);
  }
  const options: StandardJsonSchemaOptions = {
    target: "draft-2020-12",
    ...(standard.vendor === "arktype" ? { libraryOptions: arkTypeStrict() } : {}),
  };
  return (input as (options: StandardJsonSchemaOptions) => unknown).call(standard.jsonSchema, options);
}
