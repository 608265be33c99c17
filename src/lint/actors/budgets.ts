/**
 * The budgets an actor profile can set (`limits`), counted over the whole form.
 *
 * @module
 */
import { childPointer } from "../../compile/pointer.ts";
import { allowsType, type SchemaNode } from "../schema-nodes.ts";
import { type ActorIssue, isNode } from "./issue.ts";
import type { ActorProfile, LimitName } from "./profile.ts";

/** The budgets: the form's count for each, and where a single keyword exceeds a per-keyword one. */
function counts(nodes: ReadonlyArray<SchemaNode>): Record<Exclude<LimitName, "repetition">, number> {
  let properties = 0;
  let enumValues = 0;
  let characters = 0;
  let optionalProperties = 0;
  let unions = 0;
  let sumMaxItems = 0;
  let depth = 0;
  let nesting = 0;
  const objectDepth = new Map<string, number>();
  const schemaLevel = new Map<string, number>();
  for (const { schema, at, parentAt } of nodes) {
    const parentDepth = parentAt === undefined ? 0 : (objectDepth.get(parentAt) ?? 0);
    const own = isNode(schema) && (allowsType(schema, "object") || "properties" in schema) ? 1 : 0;
    objectDepth.set(at, parentDepth + own);
    nesting = Math.max(nesting, parentDepth + own);
    const level = (parentAt === undefined ? 0 : (schemaLevel.get(parentAt) ?? 0)) + 1;
    schemaLevel.set(at, level);
    depth = Math.max(depth, level);
    if (!isNode(schema)) continue;
    const names = Object.keys((schema.properties ?? {}) as object);
    properties += names.length;
    characters += names.reduce((sum, name) => sum + name.length, 0);
    characters += Object.keys((schema.$defs ?? {}) as object).reduce((sum, name) => sum + name.length, 0);
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    optionalProperties += names.filter((name) => !required.has(name)).length;
    if (Array.isArray(schema.enum)) {
      enumValues += schema.enum.length;
      for (const value of schema.enum) if (typeof value === "string") characters += value.length;
    }
    if (typeof schema.const === "string") characters += schema.const.length;
    if ("anyOf" in schema || "oneOf" in schema) unions++;
    else if (Array.isArray(schema.type) && schema.type.length > 1) unions++;
    if (typeof schema.maxItems === "number") sumMaxItems += schema.maxItems;
  }
  return {
    properties,
    enumValues,
    characters,
    optionalProperties,
    unions,
    sumMaxItems,
    depth,
    nesting,
    nodes: nodes.length,
  };
}

const limitText: Readonly<Record<LimitName, string>> = {
  properties: "object properties in total",
  nesting: "levels of object nesting",
  enumValues: "enum values in total",
  characters: "characters of property names, definition names, enum and const strings",
  optionalProperties: "optional properties",
  unions: "union-typed schemas (anyOf, oneOf, type arrays)",
  sumMaxItems: "the sum of maxItems",
  repetition: "a repetition bound",
  depth: "levels of schema nesting (the root is 1)",
  nodes: "schema nodes",
};

const repeated = ["minLength", "maxLength", "minItems", "maxItems"];

/** The issues of the profile's budgets: one per budget exceeded (per keyword for `repetition`). */
export function limitIssues(profile: ActorProfile, nodes: ReadonlyArray<SchemaNode>): ActorIssue[] {
  const issues: ActorIssue[] = [];
  const limits = profile.limits ?? {};
  const measured = counts(nodes);
  for (const [name, limit] of Object.entries(limits) as Array<[LimitName, NonNullable<(typeof limits)[LimitName]>]>) {
    const outcome = limit.outcome ?? "R";
    const hint = limit.hint === undefined ? {} : { hint: limit.hint };
    if (name === "repetition") {
      for (const { schema, pointer } of nodes) {
        if (!isNode(schema)) continue;
        for (const keyword of repeated) {
          const value = schema[keyword];
          if (typeof value === "number" && value > limit.max)
            issues.push({
              outcome,
              pointer: childPointer(pointer, keyword),
              keyword,
              reason: `${keyword} ${value} exceeds ${limitText.repetition} of ${limit.max}${limit.note ? `: ${limit.note}` : ""}`,
              source: limit.source,
              ...hint,
            });
        }
      }
      continue;
    }
    const count = measured[name];
    if (count > limit.max)
      issues.push({
        outcome,
        pointer: "/s",
        reason: `${count} ${limitText[name]} exceed the budget of ${limit.max}${limit.note ? `: ${limit.note}` : ""}`,
        source: limit.source,
        ...hint,
      });
  }
  return issues;
}
