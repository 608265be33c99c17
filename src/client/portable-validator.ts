/**
 * The local check where the compiled validator cannot load: a runtime that forbids generating
 * code from text (Workers, Vercel Edge: no `eval`, no `new Function`, no `data:` import).
 * @cfworker/json-schema interprets the form as it walks the value and needs none of that; its
 * failures are reported as the compiled validator reports them: the JSON Pointer into the form
 * of the keyword that failed, and that keyword.
 *
 * It is looser than the compiled validator in two known ways (the address, which runs the
 * compiled one, still refuses such values): a keyword it does not know is ignored rather than
 * refused (V4), and a `required` name is present when inherited (`"toString"` in `{}`).
 *
 * @module
 */
import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";
import type { FormFailure, FormValidator } from "./form-validator.ts";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const decode = (segment: string) => decodeURIComponent(segment).replaceAll("~1", "/").replaceAll("~0", "~");
const encode = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");
/** A keyword location inside one branch of a union: the union's own failure says more. */
const IN_BRANCH = /\/(anyOf|oneOf)\/\d+(\/|$)/;

/**
 * The pointer into the form of a keyword location that went through `$ref`s (the path the
 * validator took): each `$ref` is replaced by the place it names.
 */
function staticPointer(location: string, root: unknown): string {
  const segments = location.replace(/^#/, "").split("/").slice(1).map(decode);
  let pointer: string[] = [];
  let node: unknown = root;
  for (const segment of segments) {
    if (segment === "$ref" && isObject(node) && typeof node.$ref === "string" && node.$ref.startsWith("#")) {
      pointer = node.$ref.slice(1).split("/").slice(1).map(decode);
      node = pointer.reduce<unknown>(
        (at, name) => (isObject(at) || Array.isArray(at) ? (at as Json)[name] : undefined),
        root,
      );
      continue;
    }
    pointer.push(segment);
    node = isObject(node) || Array.isArray(node) ? (node as Json)[segment] : undefined;
  }
  return pointer.map((segment) => `/${encode(segment)}`).join("");
}

/** The failure that says most: the deepest keyword outside the branches of a failed union. */
function mostSpecific(errors: readonly OutputUnit[], root: unknown): FormFailure {
  const candidates = errors.filter((e) => e.keyword !== "false" && !IN_BRANCH.test(e.keywordLocation));
  const depth = (e: OutputUnit) => e.keywordLocation.split("/").length;
  const chosen = candidates.reduce<OutputUnit | undefined>(
    (best, e) => (best && depth(best) >= depth(e) ? best : e),
    undefined,
  );
  if (chosen === undefined) return { pointer: "", keyword: errors[0]?.keyword ?? "false" };
  return { pointer: staticPointer(chosen.keywordLocation, root), keyword: chosen.keyword };
}

/**
 * A validator of `schema` that generates no code (for runtimes without `eval`).
 *
 * @example
 * ```ts
 * const validator = portableValidator(arrival.document.s);
 * validator.check({ rating: 7 }); // { pointer: "/properties/rating/maximum", keyword: "maximum" }
 * ```
 */
export function portableValidator(schema: unknown): FormValidator {
  const validator = new Validator(schema as Schema | boolean, "2020-12", false);
  return {
    check(value) {
      const result = validator.validate(value);
      return result.valid ? null : mostSpecific(result.errors, schema);
    },
  };
}
