/**
 * The one traversal behind `admittedDepth`, `admittedStringLength`, `admittedMembers`,
 * `admittedItems` and `admittedBytes`: an upper bound on a measure of every instance valid
 * against a form, computed from the schema alone.
 *
 * A {@link Measure} says what the node's own structure (its `type`, items and members) gives;
 * the keywords add their part through their hooks (src/compile/keyword.ts): `bound`, the same
 * rule for every measure (`allOf` the least of its branches, `anyOf` the greatest, `$ref` its
 * target's), the measure's own hook (`depth`, `stringLength`, `bytes`), and for a measure of
 * values (`Measure.value`) the values a keyword lists (`const`, `enum`). A node's bound is the
 * least of its structure's and of its keywords'. A reference cycle is unbounded unless the
 * node itself bounds it.
 *
 * Bounds are numbers: −∞ when the schema admits nothing, +∞ when nothing bounds the measure.
 *
 * @module
 */
import { isJsonObject } from "../json/is-json-object.ts";
import type { FormDocument } from "./document.ts";
import { annotationClosure } from "./evaluated.ts";
import type { BoundContext, InstanceType, Keyword } from "./keyword.ts";
import { childPointer } from "./pointer.ts";
import { vocabulary } from "./vocabulary.ts";

/** A schema object, as the traversal reads it. */
export type SchemaNode = Readonly<Record<string, unknown>>;

/** What a measure's {@link Measure.own} may read besides the node. */
export interface OwnContext {
  /** The bound of the subschema at these tokens below the node. */
  of(...tokens: Array<string | number>): number;
  /**
   * The least bound the node's present keywords of this instance type give through the
   * measure's hook (`maxLength` for `"string"`, `propertyNames` for `"object"`); +∞ for none.
   */
  keywords(instance: Exclude<InstanceType, "any">): number;
  /** The greatest bound of any item the node admits in an array; 0 when it admits only `[]`. */
  items(): number;
  /** The greatest bound of any member value the node admits in an object; 0 when only `{}`. */
  memberValues(): number;
  /**
   * For a node with `unevaluatedProperties` and without `additionalProperties`: the members
   * beyond its `properties`, as far as the annotations it reads bound them; undefined otherwise.
   */
  unevaluatedMembers(): UnevaluatedMembers | undefined;
  /** For a node with `unevaluatedItems` and without `items`: its items, likewise. */
  unevaluatedItems(): UnevaluatedItems | undefined;
}

/**
 * What `unevaluatedProperties` tells of an object's members: each is evaluated by a schema
 * applied in place (a `properties`, `patternProperties`, `additionalProperties` or
 * `unevaluatedProperties` of one: src/compile/evaluated.ts) or validated by the node's own
 * `unevaluatedProperties`, so its value is valid against one of those schemas.
 */
export interface UnevaluatedMembers {
  /**
   * Every name a member can have: the `properties` names of the schemas applied in place,
   * less the node's own `properties` that admit nothing; null when names are open (a pattern,
   * `additionalProperties` or `unevaluatedProperties` in place that admits something).
   */
  readonly names: ReadonlyArray<string> | null;
  /** The greatest bound of any member's value. */
  readonly value: number;
}

/** What `unevaluatedItems` tells of an array's items (as {@link UnevaluatedMembers}). */
export interface UnevaluatedItems {
  /**
   * The most items: the longest `prefixItems` applied in place; +∞ when an `items`,
   * `contains` or `unevaluatedItems` in place admits something.
   */
  readonly count: number;
  /** The greatest bound of any item's value past the node's own `prefixItems`. */
  readonly value: number;
}

/** One quantity of an instance that {@link AdmittedBound} bounds from above. */
export interface Measure {
  /** The keyword hook that holds a keyword's own part of this measure, if any. */
  readonly hook?: "depth" | "stringLength" | "bytes";
  /** The bound that the node's `type` and structure give (before its keywords' hooks). */
  own(node: SchemaNode, context: OwnContext): number;
  /** The measure of one JSON value: with it, `const` and `enum` bound a node by what they list. */
  value?(value: unknown): number;
}

/** The instance types a node admits: its `type` (with `integer` as is), or all of them. */
export function admittedTypes(node: SchemaNode): ReadonlyArray<string> {
  if (node.type === undefined) return ["null", "boolean", "number", "integer", "string", "array", "object"];
  return ([] as string[]).concat(node.type as string | string[]);
}

/** Whether an object the node admits can have no member at all. */
export function admitsNoMember(node: SchemaNode): boolean {
  return node.maxProperties === 0 || node.propertyNames === false;
}

/**
 * The length, in UTF-16 code units, of string instances: the measure member names are
 * bounded by (a `propertyNames` schema is applied to names). −∞ when the node admits no
 * string. Keywords of instance `"any"` bound it by the longest string anywhere in the values
 * they admit, at least as long as any one of those values that is a string.
 */
export const stringInstanceLength: Measure = {
  hook: "stringLength",
  own: (node, { keywords }) => (admittedTypes(node).includes("string") ? keywords("string") : -Infinity),
};

/** The memoised traversal of one document for one measure. */
export class AdmittedBound {
  readonly #document: FormDocument;
  readonly #measure: Measure;
  readonly #active = new Set<string>();
  readonly #memo = new Map<string, number>();
  #strings: AdmittedBound | undefined;

  constructor(document: FormDocument, measure: Measure) {
    this.#document = document;
    this.#measure = measure;
  }

  /** The bound of the schema at `pointer`: −∞ when nothing is valid, +∞ when unbounded. */
  of(pointer: string): number {
    const known = this.#memo.get(pointer);
    if (known !== undefined) return known;
    if (this.#active.has(pointer)) return Infinity; // a reference cycle: no bound from the schema
    this.#active.add(pointer);
    const bound = this.#compute(pointer);
    this.#active.delete(pointer);
    this.#memo.set(pointer, bound);
    return bound;
  }

  #compute(pointer: string): number {
    const node = this.#document.node(pointer);
    if (node === true) return Infinity;
    if (!isJsonObject(node)) return -Infinity;
    const present = vocabulary.filter((keyword) => Object.hasOwn(node, keyword.name));
    const of = (...tokens: Array<string | number>): number => this.of(childPointer(pointer, ...tokens));
    const context = (keyword: Keyword): BoundContext => ({
      node,
      value: node[keyword.name],
      of,
      target: () => this.of(this.#document.refTarget(pointer)),
      stringOf: (...tokens) => this.#stringInstances().of(childPointer(pointer, ...tokens)),
    });
    const { hook, value } = this.#measure;
    const unevaluatedMembers = () => this.#unevaluatedMembers(node, pointer);
    const unevaluatedItems = () => this.#unevaluatedItems(node, pointer);
    let bound = this.#measure.own(node, {
      of,
      keywords: (instance) =>
        present.reduce((least, keyword) => {
          const own = hook === undefined ? undefined : keyword[hook];
          return keyword.instance === instance && own !== undefined ? Math.min(least, own(context(keyword))) : least;
        }, Infinity),
      items: () => this.#items(node, of, unevaluatedItems()),
      memberValues: () => this.#memberValues(node, of, unevaluatedMembers()),
      unevaluatedMembers,
      unevaluatedItems,
    });
    // The keywords that bound the whole instance by themselves (each keyword file says how).
    for (const keyword of present) {
      if (keyword.bound !== undefined) bound = Math.min(bound, keyword.bound(context(keyword)));
      const own = hook === undefined ? undefined : keyword[hook];
      if (own !== undefined && keyword.instance === "any") bound = Math.min(bound, own(context(keyword)));
      if (value !== undefined && keyword.listed !== undefined) {
        const greatest = keyword
          .listed(node[keyword.name])
          .reduce<number>((most, v) => Math.max(most, value(v)), -Infinity);
        bound = Math.min(bound, greatest);
      }
    }
    return bound;
  }

  #stringInstances(): AdmittedBound {
    if (this.#measure === stringInstanceLength) return this;
    this.#strings ??= new AdmittedBound(this.#document, stringInstanceLength);
    return this.#strings;
  }

  #items(node: SchemaNode, of: OwnContext["of"], unevaluated: UnevaluatedItems | undefined): number {
    const max = Math.min(typeof node.maxItems === "number" ? node.maxItems : Infinity, unevaluated?.count ?? Infinity);
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems.length : 0;
    let bound = 0; // an empty array
    for (let i = 0; i < Math.min(prefix, max); i++) {
      const item = of("prefixItems", i);
      if (item === -Infinity) return bound; // no item can stand here, so none after it
      bound = Math.max(bound, item);
    }
    if (max > prefix)
      bound = Math.max(bound, Object.hasOwn(node, "items") ? of("items") : (unevaluated?.value ?? Infinity));
    return bound;
  }

  #memberValues(node: SchemaNode, of: OwnContext["of"], unevaluated: UnevaluatedMembers | undefined): number {
    if (admitsNoMember(node)) return 0;
    let bound = 0; // an empty object
    for (const name of ["properties", "patternProperties"]) {
      for (const key of Object.keys((node[name] ?? {}) as object)) bound = Math.max(bound, of(name, key));
    }
    const other = Object.hasOwn(node, "additionalProperties") ? of("additionalProperties") : Infinity;
    return Math.max(bound, unevaluated?.value ?? other);
  }

  /** See {@link OwnContext.unevaluatedMembers}. */
  #unevaluatedMembers(node: SchemaNode, pointer: string): UnevaluatedMembers | undefined {
    if (!Object.hasOwn(node, "unevaluatedProperties") || Object.hasOwn(node, "additionalProperties")) return undefined;
    const names = new Set<string>();
    let open = false;
    let value = -Infinity;
    for (const at of annotationClosure(this.#document, pointer)) {
      const schema = this.#document.node(at);
      if (!isJsonObject(schema)) continue;
      for (const name of Object.keys((schema.properties ?? {}) as object)) {
        names.add(name);
        value = Math.max(value, this.of(childPointer(at, "properties", name)));
      }
      const others = Object.keys((schema.patternProperties ?? {}) as object).map((source) =>
        childPointer(at, "patternProperties", source),
      );
      for (const name of ["additionalProperties", "unevaluatedProperties"])
        if (Object.hasOwn(schema, name)) others.push(childPointer(at, name));
      for (const other of others) {
        const bound = this.of(other);
        value = Math.max(value, bound);
        if (bound !== -Infinity) open = true;
      }
    }
    const own = (node.properties ?? {}) as object;
    const admitted = [...names].filter(
      (name) => !Object.hasOwn(own, name) || this.of(childPointer(pointer, "properties", name)) !== -Infinity,
    );
    // No member value is valid anywhere: no member at all.
    if (value === -Infinity) return { names: [], value };
    return { names: open ? null : admitted, value };
  }

  /** See {@link OwnContext.unevaluatedItems}. */
  #unevaluatedItems(node: SchemaNode, pointer: string): UnevaluatedItems | undefined {
    if (!Object.hasOwn(node, "unevaluatedItems") || Object.hasOwn(node, "items")) return undefined;
    let count = 0;
    let value = -Infinity;
    for (const at of annotationClosure(this.#document, pointer)) {
      const schema = this.#document.node(at);
      if (!isJsonObject(schema)) continue;
      if (Array.isArray(schema.prefixItems)) {
        count = Math.max(count, schema.prefixItems.length);
        schema.prefixItems.forEach((_, index) => {
          value = Math.max(value, this.of(childPointer(at, "prefixItems", index)));
        });
      }
      for (const name of ["items", "contains", "unevaluatedItems"]) {
        if (!Object.hasOwn(schema, name)) continue;
        const bound = this.of(childPointer(at, name));
        value = Math.max(value, bound);
        if (bound !== -Infinity) count = Infinity;
      }
    }
    return { count, value };
  }
}
