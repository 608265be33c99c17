/**
 * `unroll`: rewrites the recursive definitions of a form into N levels, the last of which omits
 * the recursive alternative, so that the form itself bounds the depth (draft "Bounded
 * Recursion", DESIGN.md F4). Every other keyword is kept; only the `$ref`s that move to the
 * next level are rewritten (to JSON Pointers), and a reference past the last level becomes
 * `false`, dropped from `anyOf`/`oneOf`.
 *
 * @module
 */
import { isJsonObject } from "../json/is-json-object.ts";
import { FormDocument } from "./document.ts";
import { FormError } from "./form-error.ts";
import { childPointer, parsePointer } from "./pointer.ts";
import { keywordOf } from "./vocabulary.ts";

/** What {@link unroll} produced. */
export interface Unrolled {
  /** The rewritten form `s`. */
  readonly schema: unknown;
  /** The definitions that were recursive, each now present at levels 1 to N. */
  readonly definitions: ReadonlyArray<string>;
}

type Node = Record<string, unknown>;

/** The top-level definition a pointer into `s` lies in (`""` for the root's own tree). */
function definitionOf(pointer: string): string {
  const tokens = parsePointer(pointer) ?? [];
  return tokens[0] === "$defs" && tokens.length >= 2 ? (tokens[1] as string) : "";
}

/** Replaces the definition prefix of `pointer` (`/$defs/a/…` → `/$defs/b/…`). */
function moved(pointer: string, to: string): string {
  const tokens = parsePointer(pointer) ?? [];
  return childPointer("", "$defs", to, ...tokens.slice(2));
}

/** Rebuilds `schema` with each subschema (as the keyword files declare them) mapped by `fn`. */
function mapSubschemas(schema: Node, fn: (sub: unknown, tokens: Array<string | number>) => unknown): Node | false {
  const out: Node = {};
  for (const [name, value] of Object.entries(schema)) {
    const subs = keywordOf(name)?.subschemas?.(value);
    if (subs === undefined || name === "$defs") {
      out[name] = value;
      continue;
    }
    if (subs.length === 1 && (subs[0]?.[0].length ?? 0) === 0) {
      out[name] = fn(value, [name]);
    } else if (Array.isArray(value)) {
      out[name] = value.map((sub, index) => fn(sub, [name, index]));
    } else {
      out[name] = Object.fromEntries(Object.entries(value as Node).map(([key, sub]) => [key, fn(sub, [name, key])]));
    }
  }
  // A union loses the branches that can no longer match; a union of none matches nothing.
  for (const union of ["anyOf", "oneOf"]) {
    if (!Array.isArray(out[union])) continue;
    const kept = (out[union] as unknown[]).filter((branch) => branch !== false);
    if (kept.length === 0) return false;
    out[union] = kept;
  }
  return out;
}

/**
 * Unrolls every recursive definition of `schema` into `depth` levels: level 1 keeps the
 * definition's name, level k is `<name>_<k>`, and each `$ref` from level k to a definition of
 * the same cycle goes to level k + 1, or, at level `depth`, becomes `false`. A recursion
 * through the root (`{"$ref": "#"}`) first moves the root into `$defs/root`. The result
 * accepts exactly the values the original accepts with at most `depth` nested applications
 * of the recursive definitions.
 *
 * @see draft "Bounded Recursion"; DESIGN.md F4
 * @throws {FormError} when the form is refused by the compiler, or its recursion goes through
 *   a definition with `$id` or through a place other than a top-level `$defs` entry or the root.
 * @throws {RangeError} when `depth` is not a positive integer.
 */
export function unroll(schema: unknown, depth: number): Unrolled {
  if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`depth must be a positive integer, not ${depth}`);
  const document = new FormDocument(schema);
  if (!isJsonObject(schema)) return { schema, definitions: [] };
  const recursiveRefs = findRecursiveRefs(schema, document);
  if (recursiveRefs.size === 0) return { schema, definitions: [] };
  const entered = new Set([...recursiveRefs.values()].map(definitionOf));
  if (entered.has("")) return unroll(hoistRoot(schema, document), depth);
  const definitions = (schema.$defs ?? {}) as Node;
  const recursive = Object.keys(definitions).filter((name) => entered.has(name));
  const taken = new Set(Object.keys(definitions));
  const names = new Map<string, string[]>();
  for (const name of recursive) {
    const levels = [name];
    for (let level = 2; level <= depth; level++) {
      let candidate = `${name}_${level}`;
      while (taken.has(candidate)) candidate = `${candidate}_`;
      taken.add(candidate);
      levels.push(candidate);
    }
    names.set(name, levels);
  }
  const copy = (value: unknown, at: string, level: number): unknown => {
    if (!isJsonObject(value)) return value;
    if (level > 1 && Object.hasOwn(value, "$id"))
      throw new FormError(
        "invalid-schema",
        childPointer(at, "$id"),
        "$id",
        "unroll cannot copy a recursive definition that sets $id",
      );
    const { $anchor: _anchor, ...rest } = value;
    const node = level > 1 ? rest : value;
    const out = mapSubschemas(node, (sub, tokens) => copy(sub, childPointer(at, ...tokens), level));
    const target = recursiveRefs.get(at);
    if (target === undefined || out === false) return out;
    // A recursive $ref enters the next level; past the last one it admits nothing.
    if (level >= depth) return false;
    const next = names.get(definitionOf(target))?.[level] as string;
    return { ...out, $ref: `#${moved(target, next)}` };
  };
  const $defs: Node = {};
  for (const [name, definition] of Object.entries(definitions)) {
    const levels = names.get(name);
    if (levels === undefined) {
      $defs[name] = definition;
      continue;
    }
    levels.forEach((levelName, index) => {
      $defs[levelName] = copy(definition, childPointer("", "$defs", name), index + 1);
    });
  }
  return { schema: { ...schema, $defs }, definitions: recursive };
}

/**
 * The recursive `$ref`s (pointer of the schema holding it → its target): those whose target
 * reaches them again through subschemas and references.
 */
function findRecursiveRefs(schema: unknown, document: FormDocument): Map<string, string> {
  const edges = new Map<string, string[]>();
  const refs: string[] = [];
  const visit = (value: unknown, at: string) => {
    const next: string[] = [];
    edges.set(at, next);
    if (!isJsonObject(value)) return;
    if (Object.hasOwn(value, "$ref")) {
      refs.push(at);
      next.push(document.refTarget(at));
    }
    for (const name of Object.keys(value)) {
      for (const [tokens, sub] of keywordOf(name)?.subschemas?.(value[name]) ?? []) {
        const child = childPointer(at, name, ...tokens);
        next.push(child);
        visit(sub, child);
      }
    }
  };
  visit(schema, "");
  const recursive = new Map<string, string>();
  for (const at of refs) {
    const target = document.refTarget(at);
    const seen = new Set<string>();
    const stack = [target];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (node === at) {
        recursive.set(at, target);
        break;
      }
      if (seen.has(node)) continue;
      seen.add(node);
      for (const edge of edges.get(node) ?? []) stack.push(edge);
    }
  }
  return recursive;
}

const rootOnly = new Set(["$schema", "$id", "$comment", "title", "description", "$defs"]);

/** Moves a recursive root into `$defs/root` (a fresh name), pointing every `$ref` into it there. */
function hoistRoot(schema: Node, document: FormDocument): Node {
  const definitions = (schema.$defs ?? {}) as Node;
  let name = "root";
  while (Object.hasOwn(definitions, name)) name = `${name}_`;
  const rewrite = (value: unknown, at: string): unknown => {
    if (!isJsonObject(value)) return value;
    const out = mapSubschemas(value, (sub, tokens) => rewrite(sub, childPointer(at, ...tokens)));
    if (out === false || !Object.hasOwn(value, "$ref")) return out;
    const target = document.refTarget(at);
    return definitionOf(target) === "" ? { ...out, $ref: `#${childPointer("", "$defs", name)}${target}` } : out;
  };
  const body: Node = {};
  const head: Node = {};
  for (const [key, value] of Object.entries(schema)) {
    if (rootOnly.has(key)) head[key] = value;
    else body[key] = value;
  }
  const $defs: Node = {};
  for (const [key, value] of Object.entries(definitions)) $defs[key] = rewrite(value, childPointer("", "$defs", key));
  $defs[name] = rewrite(body, "");
  return { ...head, $defs, $ref: `#${childPointer("", "$defs", name)}` };
}
