/**
 * The TypeScript type of an act: the declarations json-schema-to-typescript generates for a
 * form, with the root type always named `Act`, and wide enough for every valid act (so that
 * `validate(value): value is Act` never narrows a valid value to a type it does not have).
 *
 * The generator is given a copy of the form adapted to what it reads:
 * - every `$ref` is the JSON Pointer of the schema the form compiler resolved it to
 *   ({@link FormDocument}), hoisted into one root `$defs`, since the generator's resolver
 *   knows neither `$anchor` nor an embedded `$id`; `$id`, `$anchor`, `$schema`, `$defs` and
 *   the root `title` are left out, since they would name or rename types, and a root `$ref`
 *   becomes a branch of the root's `allOf`, since the generator would name the root after its
 *   target's `title` (the usual shape of generated schemas);
 * - a schema without `type`, `enum` or `const` names every JSON type, since a keyword alone
 *   (`maxLength`) constrains only values of its type while the generator would infer that
 *   type; a schema of annotations only is `unknown`;
 * - `prefixItems` leaves the items `unknown` (the generator reads `items` as every item's);
 *   `patternProperties` without `additionalProperties` leaves other members `unknown`;
 * - an `enum`/`const` value holding a `$ref` member is typed here (the resolver would follow it).
 *
 * What the generator still cannot take becomes `unknown`: a wider type, never a build crash
 * nor a module that does not compile. The differential build test checks all of this on the
 * JSON-Schema-Test-Suite (test/node/build/suite-build.test.ts).
 *
 * @module
 */
import { compile as compileType } from "json-schema-to-typescript";
import { isJsonObject } from "../json/is-json-object.ts";
import { withoutBigInts } from "../json/stringify.ts";
import { FormDocument } from "./document.ts";
import { childPointer, parsePointer } from "./pointer.ts";
import { keywordOf } from "./vocabulary.ts";

/** The generated declarations of one form. */
export interface ActType {
  /** TypeScript declarations (`export interface Act …`, `export type …`), valid in a `.d.ts`. */
  readonly declarations: string;
  /**
   * Why the type is `unknown` rather than generated from the form, or `null` when it was
   * generated. The validator is exact either way: only the static type is wider.
   */
  readonly fallback: string | null;
}

/** The root type's name, whatever the form's `title` or `$id` (docs/package.md, "The `Act` type"). */
export const ACT_TYPE_NAME = "Act";

/**
 * Keywords that name, locate or hold schemas for reference only, or annotate with values
 * (which the generator's resolver would search for `$ref`s): nothing to the type.
 */
const omitted = new Set(["$id", "$anchor", "$schema", "$defs", "$comment", "default", "examples"]);

/**
 * Keywords whose type the generator takes exactly from their subschemas, or that are only
 * annotations: a schema of these alone needs no explicit `type`.
 */
const typeNeutral = new Set([
  "$ref",
  "allOf",
  "anyOf",
  "oneOf",
  "title",
  "description",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** Keywords that annotate and assert nothing (kept: they name types and document them). */
const annotations = new Set(["title", "description", "deprecated", "readOnly", "writeOnly"]);

/** The six JSON types (RFC 8259 §3); `integer` is a subset of `number`. */
const jsonTypes = ["null", "boolean", "object", "array", "number", "string"] as const;

/** Does a JSON value hold, at any depth, an object with a `$ref` member? */
function holdsReference(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsReference);
  if (!isJsonObject(value)) return false;
  return Object.hasOwn(value, "$ref") || Object.values(value).some(holdsReference);
}

/**
 * The declarations of the type of a valid act of `schema`, whose root type is `Act`.
 *
 * @param schema - a form that {@link compileForm} accepts (the document walk must succeed).
 * @throws {FormError} only when `schema` is not a form `compileForm` accepts.
 */
export async function generateActType(schema: unknown): Promise<ActType> {
  // Boolean forms have exact types the generator does not produce.
  if (schema === true) return exact("unknown", "Any JSON value (the form is `true`).");
  if (schema === false) return exact("never", "No value is an act (the form is `false`).");
  // A bigint bound (an int64 maximum) changes no type: the generator reads doubles.
  const document = new FormDocument(withoutBigInts(schema));
  const input = new TypableCopy(document).root();
  let generated: string;
  try {
    generated = await compileType(input as Parameters<typeof compileType>[0], ACT_TYPE_NAME, {
      bannerComment: "",
      declareExternallyReferenced: true,
      ignoreMinAndMaxItems: true,
      format: true,
      unknownAny: true,
      $refOptions: { resolve: { external: false } },
    });
  } catch (error) {
    return fallback(`json-schema-to-typescript failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const declarations = generated.trim();
  // A form that admits any value gives no declaration at all.
  if (declarations === "") return exact("unknown", "Any JSON value.");
  if (!new RegExp(`^export (?:interface|type) ${ACT_TYPE_NAME}\\b`, "m").test(declarations)) {
    return fallback(`json-schema-to-typescript named the root type other than ${ACT_TYPE_NAME}`);
  }
  return { declarations, fallback: null };
}

function exact(type: string, comment: string): ActType {
  return { declarations: `/** ${comment} */\nexport type ${ACT_TYPE_NAME} = ${type};`, fallback: null };
}

function fallback(reason: string): ActType {
  const comment = reason.replaceAll("*/", "* /").replace(/\s+/g, " ");
  return {
    declarations: `/** Any JSON value: the form's type could not be generated (${comment}). */\nexport type ${ACT_TYPE_NAME} = unknown;`,
    fallback: reason,
  };
}

/**
 * A copy of the form for the type generator, in which every `$ref` points into one root
 * `$defs` holding a copy of each referenced schema (named after the last token of its
 * pointer), or at `#` for the root. `$id`, `$anchor`, `$schema`, every `$defs` of the form and
 * the root `title` are left out. Subschemas are found through the vocabulary: one walk rule
 * for the compiler and for this copy.
 */
class TypableCopy {
  readonly #document: FormDocument;
  /** Referenced schema pointer → its name in the root `$defs`. */
  readonly #names = new Map<string, string>();
  readonly #pending: string[] = [];

  constructor(document: FormDocument) {
    this.#document = document;
  }

  root(): unknown {
    const root = this.#copy(this.#document.root, "");
    if (!isJsonObject(root)) return root;
    delete root.title;
    // A root `$ref` is resolved by the generator into the target, whose `title` would then name
    // the root type; as one branch of `allOf` (the same meaning beside its siblings), the root
    // stays `Act` and is the target's type (`export type Act = Foo`). (A boolean target has no
    // title, and the generator takes no `$ref` to one inside `allOf`.)
    if (Object.hasOwn(root, "$ref") && isJsonObject(this.#document.node(this.#document.refTarget("")))) {
      root.allOf = [...((root.allOf ?? []) as unknown[]), { $ref: root.$ref }];
      delete root.$ref;
    }
    const defs: Array<[string, unknown]> = [];
    for (let pointer = this.#pending.shift(); pointer !== undefined; pointer = this.#pending.shift()) {
      defs.push([this.#names.get(pointer) as string, this.#copy(this.#document.node(pointer), pointer)]);
    }
    if (defs.length > 0) root.$defs = Object.fromEntries(defs);
    return root;
  }

  #reference(target: string): string {
    if (target === "") return "#";
    let name = this.#names.get(target);
    if (name === undefined) {
      const last = (parsePointer(target) ?? []).at(-1) ?? "";
      const stem = /^[A-Za-z][A-Za-z0-9_]*$/.test(last) ? last : "ref";
      const taken = new Set(this.#names.values());
      name = stem;
      for (let n = 2; taken.has(name); n++) name = `${stem}${n}`;
      this.#names.set(target, name);
      this.#pending.push(target);
    }
    return `#/$defs/${name}`;
  }

  #copy(schema: unknown, pointer: string): unknown {
    if (!isJsonObject(schema)) return schema;
    const literals = Object.hasOwn(schema, "const") ? [schema.const] : (schema.enum as unknown[] | undefined);
    if (literals?.some(holdsReference)) {
      // The generator's resolver would take a `$ref` member of a value for a reference: the
      // type is written here instead (JSON text is a TypeScript literal type), exact since
      // the value must equal one of the literals.
      return { tsType: literals.map((literal) => JSON.stringify(literal)).join(" | ") };
    }
    const entries: Array<[string, unknown]> = [];
    for (const [name, value] of Object.entries(schema)) {
      if (omitted.has(name)) continue;
      if (name === "$ref") {
        entries.push([name, this.#reference(this.#document.refTarget(pointer))]);
        continue;
      }
      const subschemas = keywordOf(name)?.subschemas?.(value);
      if (subschemas === undefined) {
        entries.push([name, value]);
        continue;
      }
      let copy: unknown = Array.isArray(value) ? [...value] : isJsonObject(value) ? { ...value } : value;
      for (const [tokens, sub] of subschemas) {
        const typed = this.#copy(sub, childPointer(pointer, name, ...tokens));
        if (tokens.length === 0) copy = typed;
        else if (Array.isArray(copy)) copy[tokens[0] as number] = typed;
        else
          Object.defineProperty(copy, String(tokens[0]), {
            value: typed,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      entries.push([name, copy]);
    }
    const copy: Record<string, unknown> = Object.fromEntries(entries);
    // A schema of annotations only admits every value; the generator would make it an object.
    if (Object.keys(copy).every((name) => annotations.has(name))) return { ...copy, tsType: "unknown" };
    // Without type, enum or const, a keyword constrains only values of the type it is about
    // (maxLength: strings) and every other value is valid; the generator would infer the
    // type from the keyword instead. Naming every type keeps the generated type wide enough.
    const typed = ["type", "enum", "const"].some((name) => Object.hasOwn(copy, name));
    if (!typed && Object.keys(copy).some((name) => !typeNeutral.has(name))) copy.type = [...jsonTypes];
    // The generator ignores prefixItems and reads items as the schema of every item: the
    // array's items are left unknown.
    if (Object.hasOwn(copy, "prefixItems")) {
      delete copy.prefixItems;
      delete copy.items;
    }
    // A name no pattern matches is free when additionalProperties is absent; the generator
    // would type it with the patterns' union instead.
    if (Object.hasOwn(copy, "patternProperties") && !Object.hasOwn(copy, "additionalProperties")) {
      copy.additionalProperties = true;
    }
    return copy;
  }
}
