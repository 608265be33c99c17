/**
 * `upgradeForm`: a form written in draft-04, -06, -07 or 2019-09 rewritten in JSON Schema
 * 2020-12, by documented rules (src/compile/README.md, "Older drafts"), each keeping what the
 * form meant in its draft:
 *
 * - `$schema` names 2020-12; draft-04 `id` and `$id` become `$id` (without a fragment) and
 *   `$anchor` (a plain-name fragment, `"#foo"`);
 * - `definitions` becomes `$defs`; `dependencies` becomes `dependentRequired` (its arrays) and
 *   `dependentSchemas` (its schemas); a tuple `items` (an array) becomes `prefixItems`, and
 *   `additionalItems` beside it `items` (beside a schema `items` it applied to nothing: dropped);
 * - draft-04 boolean `exclusiveMaximum`/`exclusiveMinimum` take the value of `maximum`/`minimum`;
 * - every `$ref` whose target moved (`#/definitions/a` → `#/$defs/a`, `#/items/0` →
 *   `#/prefixItems/0`) is rewritten, in whichever resource (`$id`) it resolves;
 * - 2019-09 `$recursiveRef` becomes the `$ref` it resolves to in a one-document form (the
 *   resource root, or the document root when both carry `$recursiveAnchor: true`), and
 *   `$recursiveAnchor` is dropped; a target that depends on the dynamic scope is refused.
 *
 * Where a keyword means something else in 2020-12 than in its draft, the upgrade keeps the
 * draft's meaning and reports it (an {@link UpgradeNote} with `changed`), never silently: a
 * sibling of `$ref` in draft-04 to -07 (ignored there, applied in 2020-12) and a keyword the
 * draft did not define (ignored there) are dropped. `buildForms` refuses a form with such a
 * note; `gpt-address upgrade` writes the upgraded form and prints the notes.
 *
 * @module
 */
import { isJsonObject } from "../json/is-json-object.ts";
import { DIALECT_2020_12, type Dialect, dialectKeywords, dialectOf } from "./dialects.ts";
import { FormError } from "./form-error.ts";
import { childPointer, parsePointer } from "./pointer.ts";
import { keywordOf, refusedReason } from "./vocabulary.ts";

/** Something the upgrade did that a reader should know. */
export interface UpgradeNote {
  /** JSON Pointer, into the form as written, of the keyword. */
  readonly pointer: string;
  readonly keyword: string;
  readonly message: string;
  /**
   * The keyword would mean something else in 2020-12: the upgrade kept the draft's meaning by
   * dropping it, and `buildForms` refuses the form until its author decides.
   */
  readonly changed: boolean;
}

/** What {@link upgradeForm} produced. */
export interface Upgraded {
  /** The form in 2020-12 (the input itself when it already was). */
  readonly schema: unknown;
  /** The dialect it was written in. */
  readonly from: Dialect;
  readonly notes: ReadonlyArray<UpgradeNote>;
}

type Node = Record<string, unknown>;
type Older = Exclude<Dialect, "2020-12">;

/** Base URI of a document without `$id`, as the compiler's (document.ts). */
const defaultBase = "gpt-address:///form";
const schemaMaps = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"];
const schemaLists = ["allOf", "anyOf", "oneOf"];
const schemaOne = [
  "additionalProperties",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
];
/** Keywords kept beside a draft-04 to -07 `$ref`: they assert nothing, in either draft. */
const keptBesideRef = new Set([
  "$ref",
  "definitions",
  "$schema",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
]);

function stripFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

/** A JSON Pointer as a URI fragment: characters outside RFC 3986 `fragment` percent-encoded. */
function fragmentOf(pointer: string): string {
  return pointer.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?]/gu, (c) => encodeURIComponent(c));
}

/**
 * Rewrites `schema`, written in `options.from` or the dialect its `$schema` names, in JSON
 * Schema 2020-12. A form without `$schema` (and without `from`), or in 2020-12, is returned
 * as it is; so is one in a dialect not listed (the compiler refuses it).
 *
 * @throws {FormError} when a rule cannot keep the form's meaning (a `$recursiveRef` whose target
 *   depends on the dynamic scope).
 * @example
 * ```ts
 * upgradeForm({ $schema: "http://json-schema.org/draft-07/schema#", definitions: { a: {} }, $ref: "#/definitions/a" });
 * // { schema: { $schema: "https://json-schema.org/draft/2020-12/schema", $defs: { a: {} }, $ref: "#/$defs/a" }, … }
 * ```
 */
export function upgradeForm(schema: unknown, options: { readonly from?: Dialect } = {}): Upgraded {
  const from = options.from ?? (isJsonObject(schema) ? dialectOf(schema.$schema) : undefined) ?? "2020-12";
  if (from === "2020-12") return { schema, from, notes: [] };
  return new Upgrade(from).run(schema);
}

class Upgrade {
  readonly #from: Older;
  readonly #known: ReadonlySet<string>;
  readonly #idKeyword: string;
  /** Old schema location → new one. */
  readonly #moved = new Map<string, string>();
  /** Resource URI (no fragment) → old pointer of its root. */
  readonly #resources = new Map<string, string>();
  readonly #notes: UpgradeNote[] = [];
  #root: unknown;

  constructor(from: Older) {
    this.#from = from;
    this.#known = dialectKeywords[from];
    this.#idKeyword = from === "draft-04" ? "id" : "$id";
  }

  run(schema: unknown): Upgraded {
    this.#root = schema;
    this.#resources.set(defaultBase, "");
    this.#map(schema, "", "", defaultBase);
    const upgraded = this.#rebuild(schema, "", defaultBase);
    return { schema: upgraded, from: this.#from, notes: this.#notes };
  }

  /** Whether the old node's keyword `name` applies in its draft (else it is dropped). */
  #applies(node: Node, name: string): boolean {
    // `$defs` before 2019-09 is an unknown keyword, yet a common place for definitions that a
    // JSON Pointer `$ref` reaches: upgraded like `definitions`.
    if (!this.#known.has(name) && name !== "$defs") return false;
    // Draft-04 to -07: "All other properties in a "$ref" object MUST be ignored."
    return this.#from === "2019-09" || !Object.hasOwn(node, "$ref") || keptBesideRef.has(name);
  }

  /** The subschemas of an old node: their old tokens, new tokens and values. */
  *#children(node: Node): Generator<[Array<string | number>, Array<string | number>, unknown]> {
    for (const [name, value] of Object.entries(node)) {
      if (!this.#applies(node, name)) continue;
      if (schemaMaps.includes(name) && isJsonObject(value)) {
        const renamed = name === "definitions" ? "$defs" : name;
        for (const [key, sub] of Object.entries(value)) yield [[name, key], [renamed, key], sub];
      } else if (name === "dependencies" && isJsonObject(value)) {
        for (const [key, sub] of Object.entries(value))
          if (!Array.isArray(sub)) yield [[name, key], ["dependentSchemas", key], sub];
      } else if (name === "items" && Array.isArray(value)) {
        for (const [index, sub] of value.entries()) yield [[name, index], ["prefixItems", index], sub];
      } else if (name === "additionalItems") {
        if (Array.isArray(node.items)) yield [[name], ["items"], value];
      } else if (schemaLists.includes(name) && Array.isArray(value)) {
        for (const [index, sub] of value.entries()) yield [[name, index], [name, index], sub];
      } else if (name === "items" || schemaOne.includes(name)) yield [[name], [name], value];
    }
  }

  /** The base URI inside the old node, registering the resource it starts. */
  #base(node: Node, pointer: string, parent: string): string {
    const id = node[this.#idKeyword];
    if (typeof id !== "string" || !this.#applies(node, this.#idKeyword)) return parent;
    let url: URL;
    try {
      url = new URL(id, parent);
    } catch {
      return parent;
    }
    if (id.startsWith("#")) return parent; // a plain-name fragment names, it does not rebase
    const key = stripFragment(url);
    if (!this.#resources.has(key)) this.#resources.set(key, pointer);
    return key;
  }

  #map(schema: unknown, old: string, now: string, base: string): void {
    this.#moved.set(old, now);
    if (!isJsonObject(schema)) return;
    const inner = this.#base(schema, old, base);
    for (const [oldTokens, newTokens, sub] of this.#children(schema))
      this.#map(sub, childPointer(old, ...oldTokens), childPointer(now, ...newTokens), inner);
  }

  #note(pointer: string, keyword: string, message: string, changed: boolean): void {
    this.#notes.push({ pointer: childPointer(pointer, keyword), keyword, message, changed });
  }

  #rebuild(schema: unknown, old: string, base: string): unknown {
    if (!isJsonObject(schema)) return schema;
    const inner = this.#base(schema, old, base);
    const out: Node = {};
    const put = (name: string, value: unknown) =>
      Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    const sub = (value: unknown, ...tokens: Array<string | number>) =>
      this.#rebuild(value, childPointer(old, ...tokens), inner);
    for (const [name, value] of Object.entries(schema)) {
      if (!this.#applies(schema, name)) {
        const keyword = keywordOf(name);
        const later = keyword !== undefined || refusedReason(name) !== undefined;
        // An annotation means nothing either way; an identifier would rebase or name.
        if (!later || (keyword?.inert && !keyword.identifier)) put(name, value);
        else if (old === "" && name === this.#idKeyword)
          // The root's own identifier: ignored in the draft, it would only rebase the document
          // in 2020-12, where every fragment `$ref` resolves the same (an absolute one naming it
          // was remote in the draft and stays remote, so refused): no verdict changes.
          this.#note(old, name, `beside $ref at the root, ${name} applied nothing in ${this.#from}: removed`, false);
        else if (this.#known.has(name))
          this.#note(
            old,
            name,
            `beside $ref, ${name} applied nothing in ${this.#from} and would in 2020-12: removed`,
            true,
          );
        else
          this.#note(
            old,
            name,
            `${name} is not a ${this.#from} keyword (ignored there) and would apply in 2020-12: removed`,
            true,
          );
        continue;
      }
      if (name === "$schema") put(name, dialectOf(value) === undefined ? value : DIALECT_2020_12);
      else if (name === this.#idKeyword && typeof value === "string") this.#identify(value, put);
      else if (name === "$ref" && typeof value === "string") put(name, this.#reference(value, inner));
      else if (name === "$recursiveRef") put("$ref", this.#recursive(value, old, inner));
      else if (name === "$recursiveAnchor") continue;
      else if (name === "definitions" || name === "$defs" || name === "dependentSchemas") {
        const target = name === "dependentSchemas" ? name : "$defs";
        const merged = (out[target] ?? {}) as Node;
        for (const [key, member] of Object.entries(value as Node)) {
          if (Object.hasOwn(merged, key))
            this.#note(old, name, `${key} is defined twice once upgraded: the first kept`, true);
          else
            Object.defineProperty(merged, key, {
              value: sub(member, name, key),
              enumerable: true,
              writable: true,
              configurable: true,
            });
        }
        put(target, merged);
      } else if (name === "dependencies" && isJsonObject(value)) this.#dependencies(value, old, put, out, sub);
      else if (name === "items" && Array.isArray(value))
        put(
          "prefixItems",
          value.map((member, index) => sub(member, name, index)),
        );
      else if (name === "additionalItems") {
        if (Array.isArray(schema.items)) put("items", sub(value, name));
        else this.#note(old, name, "additionalItems beside a schema items applied to nothing: removed", false);
      } else if ((name === "exclusiveMaximum" || name === "exclusiveMinimum") && typeof value === "boolean")
        this.#exclusive(schema, name, old, put);
      else if (
        (name === "maximum" && schema.exclusiveMaximum === true) ||
        (name === "minimum" && schema.exclusiveMinimum === true)
      )
        continue; // draft-04: the bound is written as exclusiveMaximum/exclusiveMinimum
      else if (name === "dependentRequired" && isJsonObject(value)) this.#merge(out, name, value, old);
      else if (schemaMaps.includes(name) && isJsonObject(value))
        put(name, Object.fromEntries(Object.entries(value).map(([key, member]) => [key, sub(member, name, key)])));
      else if (schemaLists.includes(name) && Array.isArray(value))
        put(
          name,
          value.map((member, index) => sub(member, name, index)),
        );
      else if (name === "items" || schemaOne.includes(name)) put(name, sub(value, name));
      else put(name, value);
    }
    return out;
  }

  /** `id`/`$id`: its URI part as `$id`, a plain-name fragment as `$anchor`. */
  #identify(id: string, put: (name: string, value: unknown) => void): void {
    const hash = id.indexOf("#");
    const uri = hash < 0 ? id : id.slice(0, hash);
    const fragment = hash < 0 ? "" : id.slice(hash + 1);
    if (uri !== "") put("$id", uri);
    if (fragment !== "" && !fragment.startsWith("/")) put("$anchor", fragment);
  }

  /**
   * A `$ref` whose target moved, rewritten in its own resource; any other, as it was. (Draft-04
   * to -07: a sibling id is ignored, so `inner` is the parent's base there.)
   */
  #reference(ref: string, inner: string): string {
    let url: URL;
    try {
      url = new URL(ref, inner);
    } catch {
      return ref;
    }
    const root = this.#resources.get(stripFragment(url));
    let fragment: string;
    try {
      fragment = decodeURIComponent(url.hash.slice(1));
    } catch {
      return ref;
    }
    const tokens = parsePointer(fragment);
    if (root === undefined || tokens === null) return ref; // remote, or a plain-name fragment
    const target = this.#moved.get(childPointer(root, ...tokens));
    const newRoot = this.#moved.get(root);
    if (target === undefined || newRoot === undefined) return ref;
    if (target !== newRoot && !target.startsWith(`${newRoot}/`)) return ref;
    const moved = target.slice(newRoot.length);
    if (moved === fragment) return ref;
    const hash = ref.indexOf("#");
    return `${hash < 0 ? ref : ref.slice(0, hash)}#${fragmentOf(moved)}`;
  }

  /**
   * 2019-09 `$recursiveRef` (always `"#"`): the `$ref` it resolves to in one document. Its
   * resource root, unless that carries `$recursiveAnchor: true`; then the outermost resource in
   * the dynamic scope that carries it, which is known only when it is the document root
   * (always in scope) or the resource itself is the only one.
   */
  #recursive(value: unknown, old: string, inner: string): string {
    const refuse = (why: string): never => {
      throw new FormError("refused-keyword", childPointer(old, "$recursiveRef"), "$recursiveRef", why);
    };
    if (value !== "#") refuse('$recursiveRef must be "#" (2019-09 Core §8.2.4.2.1)');
    const anchored = (pointer: string) => {
      const node = this.#node(pointer);
      return isJsonObject(node) && node.$recursiveAnchor === true;
    };
    const resource = this.#resources.get(inner) ?? "";
    if (!anchored(resource) || resource === "") return "#";
    const others = [...new Set(this.#resources.values())].filter((root) => root !== resource && anchored(root));
    if (others.length === 0) return "#";
    const rootUri = [...this.#resources].find(([uri, root]) => root === "" && uri !== defaultBase)?.[0];
    if (others.length === 1 && others[0] === "" && rootUri !== undefined) return `${rootUri}#`;
    return refuse(
      "its target depends on the dynamic scope (a $recursiveAnchor below the root): no static $ref keeps it",
    );
  }

  #node(pointer: string): unknown {
    let node = this.#root;
    for (const token of parsePointer(pointer) ?? []) node = (node as Node)[token];
    return node;
  }

  /** Adds the members of `value` to `out[name]` (filled already by an upgrade), noting a name twice. */
  #merge(out: Node, name: string, value: Node, old: string): void {
    const into = (out[name] ?? {}) as Node;
    for (const [key, member] of Object.entries(value)) {
      if (Object.hasOwn(into, key))
        this.#note(old, name, `${key} is defined twice once upgraded: the first kept`, true);
      else Object.defineProperty(into, key, { value: member, enumerable: true, writable: true, configurable: true });
    }
    Object.defineProperty(out, name, { value: into, enumerable: true, writable: true, configurable: true });
  }

  #dependencies(
    value: Node,
    old: string,
    put: (name: string, value: unknown) => void,
    out: Node,
    sub: (value: unknown, ...tokens: Array<string | number>) => unknown,
  ): void {
    for (const [key, member] of Object.entries(value)) {
      const target = Array.isArray(member) ? "dependentRequired" : "dependentSchemas";
      const into = (out[target] ?? {}) as Node;
      if (Object.hasOwn(into, key)) {
        this.#note(old, "dependencies", `${key} is also in ${target}: the first kept`, true);
        continue;
      }
      const upgraded = Array.isArray(member) ? member : sub(member, "dependencies", key);
      Object.defineProperty(into, key, { value: upgraded, enumerable: true, writable: true, configurable: true });
      put(target, into);
    }
  }

  /** Draft-04 boolean `exclusiveMaximum`/`exclusiveMinimum`: the bound itself becomes exclusive. */
  #exclusive(schema: Node, name: string, old: string, put: (name: string, value: unknown) => void): void {
    const bound = name === "exclusiveMaximum" ? "maximum" : "minimum";
    if (schema[name] === false) return;
    if (!Object.hasOwn(schema, bound)) {
      this.#note(old, name, `${name}: true without ${bound} bounded nothing: removed`, false);
      return;
    }
    put(name, schema[bound]);
  }
}
