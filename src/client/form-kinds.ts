/**
 * What kinds of node a value the form accepts may hold, over-approximated from `s`: an object
 * at the top, an object deeper down, a string that is not fixed by `const` or `enum`. `check`
 * calls a refusal probe "not applicable" only when the form can hold no node to carry it (a
 * duplicate name needs an object; a bad byte inside a string, a free string); any doubt counts
 * as "may hold", so a probe is never excused for the generator's want of imagination.
 *
 * @module
 */
import { dereference, type Schema } from "@cfworker/json-schema";

/** Whether a value of the form may hold each kind of node. */
export interface FormKinds {
  /** The value itself may be an object. */
  readonly rootObject: boolean;
  /** An object may sit below the top (a member's or an item's value). */
  readonly nestedObject: boolean;
  /** A string not fixed by `const` or `enum` may appear anywhere. */
  readonly freeString: boolean;
}

const ALL: FormKinds = { rootObject: true, nestedObject: true, freeString: true };
const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The kinds of node a value of `s` may hold (an over-approximation: `true` when unsure).
 *
 * @example
 * ```ts
 * formKinds({ type: "object", additionalProperties: false, properties: { n: { type: "integer" } } });
 * // { rootObject: true, nestedObject: false, freeString: false }
 * ```
 */
export function formKinds(s: unknown): FormKinds {
  if (typeof s !== "boolean" && !isObject(s)) return ALL;
  const root = structuredClone(s);
  let lookup: Record<string, Schema | boolean>;
  try {
    lookup = dereference(root as Schema);
  } catch {
    return ALL;
  }
  const kinds = { rootObject: false, nestedObject: false, freeString: false };
  const visited = [new Set<unknown>(), new Set<unknown>()];
  const object = (nested: boolean) => {
    if (nested) kinds.nestedObject = true;
    else kinds.rootObject = true;
  };
  /** A `const` or `enum` value: its objects count, its strings are fixed. */
  const constant = (value: unknown, nested: boolean): void => {
    if (Array.isArray(value)) for (const item of value) constant(item, true);
    else if (isObject(value)) {
      object(nested);
      for (const member of Object.values(value)) constant(member, true);
    }
  };
  const visit = (node: unknown, nested: boolean): void => {
    if (node === false) return;
    if (node === true || !isObject(node)) {
      kinds.freeString = true;
      kinds.nestedObject = true;
      object(nested);
      return;
    }
    const seen = visited[nested ? 1 : 0]!;
    if (seen.has(node)) return;
    seen.add(node);
    // The same instance, seen through the applicators (each may widen nothing, but count it all).
    const ref = (node as { __absolute_ref__?: string }).__absolute_ref__ ?? node.$ref;
    if (typeof ref === "string") visit(lookup[ref] ?? true, nested);
    for (const keyword of ["allOf", "anyOf", "oneOf"]) {
      if (Array.isArray(node[keyword])) for (const branch of node[keyword] as unknown[]) visit(branch, nested);
    }
    for (const keyword of ["then", "else"]) if (node[keyword] !== undefined) visit(node[keyword], nested);
    if (isObject(node.dependentSchemas))
      for (const schema of Object.values(node.dependentSchemas)) visit(schema, nested);
    if ("const" in node || Array.isArray(node.enum)) {
      for (const value of "const" in node ? [node.const] : (node.enum as unknown[])) constant(value, nested);
      return;
    }
    const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : undefined;
    const may = (type: string) => types === undefined || types.includes(type);
    if (may("string") && node.maxLength !== 0) kinds.freeString = true;
    if (may("object")) {
      object(nested);
      if (isObject(node.properties)) for (const schema of Object.values(node.properties)) visit(schema, true);
      if (isObject(node.patternProperties)) {
        for (const schema of Object.values(node.patternProperties)) visit(schema, true);
      }
      visit(node.additionalProperties ?? true, true);
    }
    if (may("array")) {
      if (Array.isArray(node.prefixItems)) for (const schema of node.prefixItems) visit(schema, true);
      visit(node.items ?? true, true);
      if (node.contains !== undefined) visit(node.contains, true);
    }
  };
  visit(root, false);
  return kinds;
}
