/**
 * Annotations: accepted, checked for their meta-schema type, and ignored by validation
 * (JSON Schema 2020-12 meta-data vocabulary, and `$comment` from the core).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectBoolean, expectString, refuseValue } from "../keyword-values.ts";

function annotation(name: string, check: (value: unknown, at: string) => void): Keyword {
  return { name, instance: "any", check, inert: true };
}

export const title: Keyword = annotation("title", expectString);
export const description: Keyword = annotation("description", expectString);
export const $comment: Keyword = annotation("$comment", expectString);
export const $default: Keyword = annotation("default", () => {});
export const examples: Keyword = annotation("examples", (value, at) => {
  if (!Array.isArray(value)) refuseValue(at, "must be an array");
});
export const deprecated: Keyword = annotation("deprecated", expectBoolean);
export const readOnly: Keyword = annotation("readOnly", expectBoolean);
export const writeOnly: Keyword = annotation("writeOnly", expectBoolean);
