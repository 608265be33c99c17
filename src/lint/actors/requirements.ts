/**
 * The form-wide requirements an actor profile can name (`requires`), each a check that returns
 * the places (JSON Pointers into the form file) that break it.
 *
 * @module
 */
import type { FormDocument } from "../../compile/document.ts";
import { childPointer } from "../../compile/pointer.ts";
import { recursiveRefs } from "../recursion.ts";
import { regexShape } from "../regex-shape.ts";
import { allowsType, type SchemaNode } from "../schema-nodes.ts";
import { type ActorIssue, isNode, type Node } from "./issue.ts";
import type { Requirement, RequirementName } from "./profile.ts";

/** The form-wide requirement checks: each returns the pointers (into the file) that break it. */
const requirementChecks: Readonly<
  Record<RequirementName, (nodes: ReadonlyArray<SchemaNode>, document: FormDocument) => string[]>
> = {
  "closed-objects": (nodes) =>
    objects(nodes)
      .filter(({ schema }) => schema.additionalProperties !== false)
      .map(({ pointer }) => pointer),
  "all-required": (nodes) =>
    objects(nodes)
      .filter(({ schema }) => {
        const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
        return Object.keys((schema.properties ?? {}) as object).some((name) => !required.has(name));
      })
      .map(({ pointer }) => pointer),
  "root-object": (nodes) => {
    const root = nodes[0]?.schema;
    const ok =
      isNode(root) && root.type === "object" && !["anyOf", "oneOf", "allOf", "enum", "not"].some((k) => k in root);
    return ok ? [] : ["/s"];
  },
  "type-on-every-node": (nodes) =>
    nodes
      .filter(({ schema, via }) => via !== "$defs" || isNode(schema))
      .filter(({ schema }) => isNode(schema) && !("type" in schema) && !("$ref" in schema) && !("anyOf" in schema))
      .map(({ pointer }) => pointer),
  "ref-alone": (nodes) =>
    nodes
      .filter(({ schema }) => isNode(schema) && "$ref" in schema && Object.keys(schema).some((k) => !k.startsWith("$")))
      .map(({ pointer }) => pointer),
  "no-recursion": (nodes, document) => recursiveRefs(document, nodes).map(({ at }) => childPointer(`/s${at}`, "$ref")),
  "anchored-patterns": (nodes) => patterns(nodes, (source) => !regexShape(source).anchored),
  "no-lookaround": (nodes) => patterns(nodes, (source) => regexShape(source).lookaround),
  "no-backreference": (nodes) => patterns(nodes, (source) => regexShape(source).backreference),
  "primitive-type-arrays": (nodes) =>
    nodes
      .filter(({ schema }) => isNode(schema) && Array.isArray(schema.type))
      .filter(({ schema }) => ((schema as Node).type as string[]).some((t) => t === "object" || t === "array"))
      .map(({ pointer }) => pointer),
  "no-union-with-properties": (nodes) =>
    nodes
      .filter(({ schema }) => isNode(schema) && "properties" in schema && ("anyOf" in schema || "oneOf" in schema))
      .map(({ pointer }) => pointer),
  "one-string-constraint": (nodes) =>
    nodes
      .filter(({ schema }) => {
        if (!isNode(schema)) return false;
        const kinds = ["format" in schema, "pattern" in schema, "minLength" in schema || "maxLength" in schema].filter(
          Boolean,
        ).length;
        return kinds >= 2;
      })
      .map(({ pointer }) => pointer),
};

/** What each requirement asks, in words (a requirement's own `note` says it for its actor instead). */
export const requirementText: Readonly<Record<RequirementName, string>> = {
  "closed-objects": "every object must set additionalProperties: false",
  "all-required": "every property must be required (optional ones as a union with null)",
  "root-object": "the root must be a plain object schema (type object, no union)",
  "type-on-every-node": "every schema must have a type",
  "ref-alone": "a $ref must stand alone",
  "no-recursion": "recursive schemas are not supported",
  "anchored-patterns": "a pattern must be anchored ^…$",
  "no-lookaround": "lookaround in a pattern is not supported",
  "no-backreference": "backreferences in a pattern are not supported",
  "primitive-type-arrays": "a type array may list primitive types only",
  "no-union-with-properties": "anyOf/oneOf cannot be mixed with properties in one schema",
  "one-string-constraint": "a string may use only one of format, pattern and length bounds",
};

function objects(nodes: ReadonlyArray<SchemaNode>): Array<{ schema: Node; pointer: string }> {
  return nodes
    .filter(({ schema }) => isNode(schema) && (allowsType(schema, "object") || "properties" in schema))
    .map(({ schema, pointer }) => ({ schema: schema as Node, pointer }));
}

function patterns(nodes: ReadonlyArray<SchemaNode>, bad: (source: string) => boolean): string[] {
  const found: string[] = [];
  for (const { schema, pointer } of nodes) {
    if (!isNode(schema)) continue;
    if (typeof schema.pattern === "string" && bad(schema.pattern)) found.push(childPointer(pointer, "pattern"));
    for (const name of Object.keys((schema.patternProperties ?? {}) as object))
      if (bad(name)) found.push(childPointer(pointer, "patternProperties", name));
  }
  return found;
}

/** The issues of one requirement: one per place that breaks it. */
export function requirementIssues(requirement: Requirement, nodes: ReadonlyArray<SchemaNode>, document: FormDocument) {
  const outcome = requirement.outcome ?? "R";
  const text = requirement.note ?? requirementText[requirement.check];
  const hint = requirement.hint === undefined ? {} : { hint: requirement.hint };
  return requirementChecks[requirement.check](nodes, document).map(
    (pointer): ActorIssue => ({ outcome, pointer, reason: text, source: requirement.source, ...hint }),
  );
}
