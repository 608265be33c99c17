/**
 * Judges a form for one actor profile: every keyword's cell, the profile's form-wide
 * requirements and its budgets. Each issue says what the actor does (R rejects the request,
 * I ignores the keyword, X produces wrong output), where, why, and the source.
 *
 * @module
 */
import type { FormDocument } from "../../compile/document.ts";
import { childPointer } from "../../compile/pointer.ts";
import { keywordOf } from "../../compile/vocabulary.ts";
import { recursiveRefs } from "../recursion.ts";
import { regexShape } from "../regex-shape.ts";
import { allowsType, type SchemaNode, typesOf } from "../schema-nodes.ts";
import type { ActorProfile, KeywordCell, LimitName, Requirement, RequirementName } from "./profile.ts";

/** What an actor does at one place of the form. */
export interface ActorIssue {
  readonly outcome: "R" | "I" | "X";
  /** JSON Pointer into the form file. */
  readonly pointer: string;
  readonly keyword?: string;
  readonly reason: string;
  /** The source key in the profile (its URL and version are in `profile.sources`). */
  readonly source: string;
}

type Node = Readonly<Record<string, unknown>>;

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

/** The outcome of a keyword at one node under `cell`, or undefined when enforced. */
function cellOutcome(cell: KeywordCell, value: unknown, node: Node, at: string): "R" | "I" | "X" | undefined {
  if (cell.cell === "S") return undefined;
  if (cell.cell !== "L") return cell.cell;
  const otherwise = cell.otherwise ?? "I";
  if (cell.max !== undefined && typeof value === "number" && value > cell.max) return otherwise;
  if (cell.values !== undefined && !cell.values.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value)))
    return otherwise;
  if (cell.types !== undefined) {
    const types = typesOf(node);
    if (types === undefined || !types.every((name) => cell.types?.includes(name))) return otherwise;
  }
  if (cell.without?.some((name) => Object.hasOwn(node, name))) return otherwise;
  if (cell.notAtRoot && at === "") return otherwise;
  return undefined;
}

function describe(cell: KeywordCell, outcome: "R" | "I" | "X", keyword: string): string {
  const what = { R: "rejects", I: "ignores", X: "mishandles" }[outcome];
  return cell.note === undefined ? `${what} ${keyword}` : `${what} ${keyword}: ${cell.note}`;
}

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

const requirementText: Readonly<Record<RequirementName, string>> = {
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
  for (const { schema, at, parentAt } of nodes) {
    const parentDepth = parentAt === undefined ? 0 : (objectDepth.get(parentAt) ?? 0);
    const own = isNode(schema) && (allowsType(schema, "object") || "properties" in schema) ? 1 : 0;
    objectDepth.set(at, parentDepth + own);
    nesting = Math.max(nesting, parentDepth + own);
    depth = Math.max(depth, at.split("/").length - 1);
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
  depth: "levels of schema nesting",
  nodes: "schema nodes",
};

const repeated = ["minLength", "maxLength", "minItems", "maxItems"];

/**
 * Every issue of the form for `profile` (already resolved: see `resolveProfile`).
 *
 * @see ACTORS.md §7–§9 and its 2026-12 addendum
 */
export function judge(profile: ActorProfile, nodes: ReadonlyArray<SchemaNode>, document: FormDocument): ActorIssue[] {
  const issues: ActorIssue[] = [];
  for (const { schema, pointer, at } of nodes) {
    if (!isNode(schema)) continue;
    for (const keyword of Object.keys(schema)) {
      const value = schema[keyword];
      const where = childPointer(pointer, keyword);
      const cell =
        keyword === "format" && profile.formats !== undefined
          ? profile.formats
          : (profile.keywords?.[keyword] ?? profile.unlisted);
      if (cell === undefined) continue;
      const outcome = cellOutcome(cell, value, schema, at);
      // An annotation an actor ignores changes nothing; one it refuses still fails the request.
      if (outcome === "I" && keywordOf(keyword)?.inert) continue;
      if (outcome !== undefined)
        issues.push({
          outcome,
          pointer: where,
          keyword,
          reason: describe(cell, outcome, keyword),
          source: cell.source,
        });
    }
  }
  for (const requirement of profile.requires ?? []) issues.push(...requirementIssues(requirement, nodes, document));
  const limits = profile.limits ?? {};
  const measured = counts(nodes);
  for (const [name, limit] of Object.entries(limits) as Array<[LimitName, NonNullable<(typeof limits)[LimitName]>]>) {
    const outcome = limit.outcome ?? "R";
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
      });
  }
  return issues;
}

function requirementIssues(requirement: Requirement, nodes: ReadonlyArray<SchemaNode>, document: FormDocument) {
  const outcome = requirement.outcome ?? "R";
  const text = requirement.note ?? requirementText[requirement.check];
  return requirementChecks[requirement.check](nodes, document).map(
    (pointer): ActorIssue => ({ outcome, pointer, reason: text, source: requirement.source }),
  );
}
