/**
 * The schema document: every schema location walked once, its keywords checked against the
 * closed vocabulary, its identifiers (`$id`, `$anchor`) indexed, and every `$ref` resolved
 * inside the document (remote references are refused).
 *
 * @module
 */
import { isJsonObject } from "../json/is-json-object.ts";
import { FormError } from "./form-error.ts";
import { childPointer, parsePointer } from "./pointer.ts";
import { inPlaceKeywords, keywordOf, refusedReason } from "./vocabulary.ts";

/** Base URI of a document with no `$id`. */
const defaultBase = "gpt-address:///form";

function stripFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

/**
 * The most schemas a form may apply to one instance location, counting each application
 * through `$ref` and the in-place keywords (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`,
 * `dependentSchemas`): 100,000, far above any form written by hand or generated from types
 * (the example's page form applies a few dozen), far below a fan-out of 2^17.
 */
export const MAX_IN_PLACE_APPLICATIONS = 100_000;

/** The indexed form document. */
export class FormDocument {
  readonly root: unknown;
  readonly #nodes = new Map<string, unknown>();
  readonly #bases = new Map<string, string>();
  readonly #resources = new Map<string, string>();
  readonly #anchors = new Map<string, string>();
  readonly #refs = new Map<string, string>();
  readonly #refCounts = new Map<string, number>();

  /** @throws {FormError} for any refused or malformed part of the document. */
  constructor(root: unknown) {
    this.root = root;
    const pending: Array<{ ref: string; base: string; at: string }> = [];
    this.#walk(root, "", defaultBase, pending);
    for (const { ref, base, at } of pending) {
      const target = this.#resolve(ref, base, at);
      this.#refs.set(at, target);
      this.#refCounts.set(target, (this.#refCounts.get(target) ?? 0) + 1);
    }
    this.#refuseInPlaceCycles();
    this.#refuseInPlaceFanOut();
  }

  /**
   * Refuses a form that applies more than {@link MAX_IN_PLACE_APPLICATIONS} schemas to one
   * instance location: `$ref`s and in-place applicators that fan out (each level's `anyOf` or
   * `allOf` naming the level below twice: 2^40 schemas at 40 levels) make every validator,
   * compiled or interpreted, try them all on a value that fails, and a hostile address can serve
   * such a form to every client that checks values against it. Counted once per schema over the
   * in-place graph, which {@link #refuseInPlaceCycles} has left without cycles: a schema applies
   * itself and, with their multiplicity, what its `$ref` and in-place keywords apply. The
   * pointer named is the deepest schema over the bound, where the fan-out begins to exceed it.
   */
  #refuseInPlaceFanOut(): void {
    const applied = new Map<string, number>();
    const count = (pointer: string): number => {
      const known = applied.get(pointer);
      if (known !== undefined) return known;
      let total = 1;
      for (const next of this.#inPlace(pointer)) {
        total += count(next);
        if (total > MAX_IN_PLACE_APPLICATIONS) break;
      }
      applied.set(pointer, total);
      return total;
    };
    for (const pointer of this.#nodes.keys()) {
      if (count(pointer) <= MAX_IN_PLACE_APPLICATIONS) continue;
      let at = pointer;
      for (;;) {
        const over = this.#inPlace(at).find((next) => count(next) > MAX_IN_PLACE_APPLICATIONS);
        if (over === undefined) break;
        at = over;
      }
      throw new FormError(
        "fan-out",
        at,
        "",
        `this schema applies more than ${MAX_IN_PLACE_APPLICATIONS.toLocaleString("en")} schemas to one instance location through $ref and in-place keywords: validating a value here could take that many steps`,
      );
    }
  }

  /**
   * Refuses a cycle of `$ref`s and in-place applicators that never descends into the instance
   * (`{"$ref": "#"}`, `{"allOf": [{"$ref": "#"}]}`): it would recurse without end at
   * validation time. A cycle through `properties`, `items` and the like is fine: the
   * instance's own depth bounds it.
   */
  #refuseInPlaceCycles(): void {
    const done = new Set<string>();
    const stack: string[] = [];
    const visit = (pointer: string): void => {
      if (done.has(pointer)) return;
      const start = stack.indexOf(pointer);
      if (start >= 0) {
        // Name a $ref on the cycle (every such cycle goes back up through one).
        const closing = stack.slice(start).findLast((node) => this.#refs.has(node)) ?? pointer;
        throw new FormError(
          "ref-cycle",
          childPointer(closing, "$ref"),
          "$ref",
          "this $ref reaches itself without descending into the instance: validation would never end",
        );
      }
      stack.push(pointer);
      for (const next of this.#inPlace(pointer)) visit(next);
      stack.pop();
      done.add(pointer);
    };
    for (const pointer of this.#nodes.keys()) visit(pointer);
  }

  /** The schemas applied to the same instance location as the schema at `pointer`. */
  #inPlace(pointer: string): string[] {
    const schema = this.#nodes.get(pointer);
    if (!isJsonObject(schema)) return [];
    const next: string[] = [];
    const target = this.#refs.get(pointer);
    if (target !== undefined) next.push(target);
    for (const keyword of inPlaceKeywords) {
      if (!Object.hasOwn(schema, keyword.name)) continue;
      for (const [tokens] of keyword.subschemas?.(schema[keyword.name]) ?? [])
        next.push(childPointer(pointer, keyword.name, ...tokens));
    }
    return next;
  }

  /** The schema at a walked location. */
  node(pointer: string): unknown {
    return this.#nodes.get(pointer);
  }

  /** The target pointer of the `$ref` of the schema at `pointer`. */
  refTarget(pointer: string): string {
    const target = this.#refs.get(pointer);
    if (target === undefined) throw new Error(`no $ref resolved at ${pointer}`);
    return target;
  }

  /** How many `$ref`s in the document point at `pointer`. */
  refCount(pointer: string): number {
    return this.#refCounts.get(pointer) ?? 0;
  }

  #walk(
    schema: unknown,
    pointer: string,
    parentBase: string,
    pending: Array<{ ref: string; base: string; at: string }>,
  ): void {
    this.#nodes.set(pointer, schema);
    if (typeof schema === "boolean") return;
    if (!isJsonObject(schema)) {
      throw new FormError("invalid-schema", pointer, "", "a schema must be an object or a boolean");
    }
    let base = parentBase;
    for (const name of Object.keys(schema)) {
      const at = childPointer(pointer, name);
      const keyword = keywordOf(name);
      if (keyword === undefined) {
        const reason = refusedReason(name);
        if (reason !== undefined) throw new FormError("refused-keyword", at, name, reason);
        throw new FormError("unknown-keyword", at, name, "not in the compiler's closed vocabulary (V4: fail closed)");
      }
      keyword.check(schema[name], at);
    }
    if (Object.hasOwn(schema, "$id"))
      base = this.#identify(schema.$id as string, base, childPointer(pointer, "$id"), pointer);
    this.#bases.set(pointer, base);
    if (Object.hasOwn(schema, "$anchor")) {
      const key = `${base}#${schema.$anchor as string}`;
      if (this.#anchors.has(key))
        throw new FormError(
          "duplicate-identifier",
          childPointer(pointer, "$anchor"),
          "$anchor",
          `anchor ${key} is defined twice`,
        );
      this.#anchors.set(key, pointer);
    }
    if (Object.hasOwn(schema, "$ref")) pending.push({ ref: schema.$ref as string, base, at: pointer });
    for (const name of Object.keys(schema)) {
      const keyword = keywordOf(name);
      for (const [tokens, sub] of keyword?.subschemas?.(schema[name]) ?? []) {
        this.#walk(sub, childPointer(pointer, name, ...tokens), base, pending);
      }
    }
  }

  #identify(id: string, base: string, at: string, pointer: string): string {
    let url: URL;
    try {
      url = new URL(id, base);
    } catch {
      throw new FormError("invalid-keyword-value", at, "$id", `cannot resolve ${JSON.stringify(id)} against ${base}`);
    }
    if (url.hash !== "") throw new FormError("invalid-keyword-value", at, "$id", "$id must not carry a fragment");
    const key = stripFragment(url);
    if (this.#resources.has(key))
      throw new FormError("duplicate-identifier", at, "$id", `resource ${key} is defined twice`);
    this.#resources.set(key, pointer);
    return key;
  }

  #resolve(ref: string, base: string, pointer: string): string {
    const at = childPointer(pointer, "$ref");
    let url: URL;
    try {
      url = new URL(ref, base);
    } catch {
      throw new FormError("remote-ref", at, "$ref", `${JSON.stringify(ref)} does not resolve inside the document`);
    }
    const key = stripFragment(url);
    const resource = key === defaultBase && !this.#resources.has(key) ? "" : this.#resources.get(key);
    if (resource === undefined) {
      throw new FormError(
        "remote-ref",
        at,
        "$ref",
        `${url.href} is outside the document (remote references are refused)`,
      );
    }
    let fragment: string;
    try {
      fragment = decodeURIComponent(url.hash.slice(1));
    } catch {
      throw new FormError("unresolvable-ref", at, "$ref", `malformed percent-escape in ${JSON.stringify(ref)}`);
    }
    if (fragment === "" || fragment.startsWith("/")) {
      const tokens = parsePointer(fragment);
      const target = tokens === null ? undefined : childPointer(resource, ...tokens);
      if (target === undefined || !this.#nodes.has(target)) {
        throw new FormError(
          "unresolvable-ref",
          at,
          "$ref",
          `${JSON.stringify(ref)} points at no schema in the document`,
        );
      }
      return target;
    }
    const anchored = this.#anchors.get(`${key}#${fragment}`);
    if (anchored === undefined)
      throw new FormError("unresolvable-ref", at, "$ref", `no $anchor ${JSON.stringify(fragment)} in ${key}`);
    return anchored;
  }
}
