/**
 * `use-any-of`: `anyOf` rather than `oneOf`. When the branches are provably disjoint (different
 * types, or a required member whose `const`/`enum` values differ), both accept the same
 * values and the finding carries a fix that renames the keyword.
 *
 * @module
 */
import type { FormDocument } from "../../compile/document.ts";
import { childPointer } from "../../compile/pointer.ts";
import { defineRule } from "../rule.ts";

type Node = Readonly<Record<string, unknown>>;

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Follows `$ref` chains to the schema that says something (at most 32 hops). */
function resolve(document: FormDocument, at: string): unknown {
  let schema = document.node(at);
  for (let hops = 0; hops < 32 && typeof schema === "object" && schema !== null && "$ref" in schema; hops++) {
    const keys = Object.keys(schema);
    if (keys.some((key) => key !== "$ref" && !key.startsWith("$") && key !== "description" && key !== "title")) break;
    at = document.refTarget(at);
    schema = document.node(at);
  }
  return schema;
}

/** The JSON types the schema can admit, or null when unknown. */
function types(schema: unknown): Set<string> | null {
  if (typeof schema !== "object" || schema === null) return null;
  const node = schema as Node;
  let names: string[] | null = null;
  if (node.type !== undefined) names = ([] as string[]).concat(node.type as string[]);
  else if (Object.hasOwn(node, "const")) names = [jsonType(node.const)];
  else if (Array.isArray(node.enum)) names = node.enum.map(jsonType);
  if (names === null) return null;
  const set = new Set(names);
  if (set.has("number")) set.add("integer");
  if (set.has("integer")) set.add("number");
  return set;
}

/** Required members whose values a `const` or `enum` fixes: name → the JSON texts allowed. */
function discriminators(schema: unknown): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  if (typeof schema !== "object" || schema === null) return result;
  const node = schema as Node;
  const required = Array.isArray(node.required) ? (node.required as string[]) : [];
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  for (const name of required) {
    if (!Object.hasOwn(properties, name)) continue;
    const property = properties[name];
    if (typeof property !== "object" || property === null) continue;
    const p = property as Node;
    if (Object.hasOwn(p, "const")) result.set(name, new Set([JSON.stringify(p.const)]));
    else if (Array.isArray(p.enum)) result.set(name, new Set(p.enum.map((value) => JSON.stringify(value))));
  }
  return result;
}

function disjoint(a: unknown, b: unknown): boolean {
  const ta = types(a);
  const tb = types(b);
  if (ta !== null && tb !== null && ![...ta].some((name) => tb.has(name))) return true;
  const da = discriminators(a);
  const db = discriminators(b);
  for (const [name, values] of da) {
    const other = db.get(name);
    if (other !== undefined && ![...values].some((value) => other.has(value))) return true;
  }
  return false;
}

export const useAnyOf = defineRule({
  meta: {
    id: "use-any-of",
    severity: "warning",
    requirement: "F3",
    section: 'draft "Vocabulary" (anyOf in preference to oneOf)',
    description: "A union is written with anyOf.",
    messages: {
      disjoint: "the oneOf branches are disjoint: anyOf accepts exactly the same values and more actors support it",
      overlapping:
        "oneOf: some actors refuse it, others treat it as anyOf; its branches may overlap, so check before renaming",
    },
    docs: {
      invalid: [
        { schema: { oneOf: [{ type: "string", maxLength: 3 }, { type: "null" }] }, pointer: "/s/oneOf" },
        { schema: { oneOf: [{ type: "integer", minimum: 0, maximum: 9 }, { enum: [1, 20] }] }, pointer: "/s/oneOf" },
      ],
      valid: [{ schema: { anyOf: [{ type: "string", maxLength: 3 }, { type: "null" }] } }],
    },
  },
  check(context) {
    for (const { schema, pointer, at } of context.nodes) {
      if (typeof schema !== "object" || schema === null || !Array.isArray((schema as Node).oneOf)) continue;
      const branches = ((schema as Node).oneOf as unknown[]).map((_, index) =>
        resolve(context.document, childPointer(at, "oneOf", index)),
      );
      const separate = branches.every((a, i) => branches.every((b, j) => j <= i || disjoint(a, b)));
      const where = childPointer(pointer, "oneOf");
      if (separate) context.report({ messageId: "disjoint", pointer: where, fix: { pointer: where, rename: "anyOf" } });
      else context.report({ messageId: "overlapping", pointer: where });
    }
  },
});
