/**
 * `no-unsatisfiable-schema`: no schema object rejects every value by mistake: a required name
 * the object forbids, a lower bound above its upper bound, an empty `enum`, a `const` or
 * `enum` the node's `type` excludes, or a union none of whose branches admits anything.
 * (A literal `false` is a deliberate "nothing" and is not reported.)
 *
 * @module
 */
import type { FormDocument } from "../../compile/document.ts";
import { childPointer } from "../../compile/pointer.ts";
import { defineRule, type Report } from "../rule.ts";

type Node = Readonly<Record<string, unknown>>;
type Message = "required-forbidden" | "min-above-max" | "empty-enum" | "const-type" | "enum-type" | "no-branch";

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeAllows(node: Node, value: unknown): boolean {
  if (node.type === undefined) return true;
  const types = ([] as string[]).concat(node.type as string[]);
  const actual = jsonType(value);
  return types.includes(actual) || (actual === "integer" && types.includes("number"));
}

const pairs: ReadonlyArray<[string, string, boolean]> = [
  ["minLength", "maxLength", false],
  ["minItems", "maxItems", false],
  ["minProperties", "maxProperties", false],
  ["minContains", "maxContains", false],
  ["minimum", "maximum", false],
  ["exclusiveMinimum", "maximum", true],
  ["minimum", "exclusiveMaximum", true],
  ["exclusiveMinimum", "exclusiveMaximum", true],
];

/** The mistakes of one schema object, each with the pointer (into the file) that names it. */
function mistakes(node: Node, pointer: string, nothing: (at: string) => boolean, at: string): Report<Message>[] {
  const found: Report<Message>[] = [];
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const patterns = Object.keys((node.patternProperties ?? {}) as object).map((source) => new RegExp(source, "u"));
  if (Array.isArray(node.required)) {
    (node.required as string[]).forEach((name, index) => {
      const named = Object.hasOwn(properties, name);
      const forbidden = named
        ? properties[name] === false
        : node.additionalProperties === false && !patterns.some((re) => re.test(name));
      if (forbidden)
        found.push({
          messageId: "required-forbidden",
          pointer: childPointer(pointer, "required", index),
          data: { name },
        });
    });
  }
  for (const [low, high, strict] of pairs) {
    const a = node[low];
    const b = node[high];
    if (typeof a === "number" && typeof b === "number" && (strict ? a >= b : a > b))
      found.push({ messageId: "min-above-max", pointer: childPointer(pointer, low), data: { low, high } });
  }
  if (Array.isArray(node.required) && typeof node.maxProperties === "number") {
    if (new Set(node.required).size > node.maxProperties)
      found.push({
        messageId: "min-above-max",
        pointer: childPointer(pointer, "maxProperties"),
        data: { low: "required", high: "maxProperties" },
      });
  }
  if (Array.isArray(node.enum)) {
    if (node.enum.length === 0) found.push({ messageId: "empty-enum", pointer: childPointer(pointer, "enum") });
    else if (!node.enum.some((value) => typeAllows(node, value)))
      found.push({ messageId: "enum-type", pointer: childPointer(pointer, "enum") });
  }
  if (Object.hasOwn(node, "const") && !typeAllows(node, node.const))
    found.push({ messageId: "const-type", pointer: childPointer(pointer, "const") });
  for (const union of ["anyOf", "oneOf"]) {
    const branches = node[union];
    if (Array.isArray(branches) && branches.every((_, index) => nothing(childPointer(at, union, index))))
      found.push({ messageId: "no-branch", pointer: childPointer(pointer, union), data: { union } });
  }
  return found;
}

/** Does the schema at `at` admit nothing (literally `false`, or one of the mistakes above)? */
function admitsNothing(document: FormDocument): (at: string) => boolean {
  const memo = new Map<string, boolean>();
  const nothing = (at: string): boolean => {
    const known = memo.get(at);
    if (known !== undefined) return known;
    memo.set(at, false); // a cycle admits what its other paths admit
    const schema = document.node(at);
    let result = schema === false;
    if (typeof schema === "object" && schema !== null && !Array.isArray(schema)) {
      result = mistakes(schema as Node, "", nothing, at).length > 0;
      if (!result && Object.hasOwn(schema, "$ref")) result = nothing(document.refTarget(at));
    }
    memo.set(at, result);
    return result;
  };
  return nothing;
}

export const noUnsatisfiableSchema = defineRule({
  meta: {
    id: "no-unsatisfiable-schema",
    severity: "error",
    requirement: "F1",
    section: 'draft "The Form" (s describes a value an act can be)',
    description: "No schema object rejects every value by mistake.",
    messages: {
      "required-forbidden": "{name} is required but the object forbids it",
      "min-above-max": "{low} exceeds {high}: no value satisfies both",
      "empty-enum": "an empty enum admits nothing",
      "const-type": "const has a type that type excludes",
      "enum-type": "every enum value has a type that type excludes",
      "no-branch": "no branch of {union} admits anything",
    },
    docs: {
      invalid: [
        {
          schema: { type: "object", additionalProperties: false, required: ["name"], properties: {} },
          pointer: "/s/required/0",
        },
        { schema: { type: "string", minLength: 5, maxLength: 2 }, pointer: "/s/minLength" },
        { schema: { enum: [] }, pointer: "/s/enum" },
        { schema: { type: "string", const: 3 }, pointer: "/s/const" },
        { schema: { type: "string", enum: [1, null] }, pointer: "/s/enum" },
        { schema: { anyOf: [false, false] }, pointer: "/s/anyOf" },
      ],
      valid: [
        { schema: { type: "object", additionalProperties: false, required: ["name"], properties: { name: true } } },
        { schema: { type: "number", const: 3 } },
        { schema: { anyOf: [false, { type: "null" }] } },
      ],
    },
  },
  check(context) {
    const nothing = admitsNothing(context.document);
    for (const { schema, pointer, at } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      for (const report of mistakes(schema as Node, pointer, nothing, at)) context.report(report);
    }
  },
});
