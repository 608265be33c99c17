/**
 * A bound on the generated validator's worst-case work for one act at the body size limit, in
 * elementary steps (a type test, a comparison, one code point through a pattern or format
 * check, one item compared for `uniqueItems`). Every instance node and every code point takes
 * at least one byte, so the bound is `maxBytes × (node work + code point work + uniqueness
 * work)`, each the most any one instance location can cost:
 *
 * - node work: the checks of every schema applied to one instance node; unions and `allOf`
 *   add their branches (a failing `anyOf` tries them all), so nested unions multiply;
 * - code point work: the patterns and formats applied to one code point;
 * - uniqueness work: `uniqueItems` compares an item with every other, at most
 *   `min(maxItems, maxBytes / 2)` of them.
 *
 * An upper bound, not an estimate of typical work. A recursive reference makes the node work
 * unbounded by the schema; it is then taken as `maxBytes`.
 *
 * @module
 */
import type { FormDocument } from "../compile/document.ts";
import { childPointer } from "../compile/pointer.ts";
import { inPlaceKeywords, keywordOf } from "../compile/vocabulary.ts";

/** The default body size limit of an address, in bytes (`DEFAULT_MAX_BYTES`). */
export const defaultMaxBytes = 1_048_576;

/** The bound and its parts. */
export interface CostBound {
  /** Elementary steps for one act of `maxBytes` bytes, at most. */
  readonly steps: number;
  /** Steps per byte of body: `steps / maxBytes`. */
  readonly perByte: number;
  readonly maxBytes: number;
  readonly nodeWork: number;
  readonly codePointWork: number;
  readonly uniquenessWork: number;
}

type Node = Readonly<Record<string, unknown>>;

/** Child keywords that apply on top of the one member or item schema (not instead of it). */
const additiveChildren = new Set(["patternProperties", "contains", "propertyNames"]);

/** Computes the bound for the form held by `document`. */
export function costBound(document: FormDocument, maxBytes = defaultMaxBytes): CostBound {
  const nodeOf = (at: string): Node | undefined => {
    const schema = document.node(at);
    return typeof schema === "object" && schema !== null ? (schema as Node) : undefined;
  };
  /** The schemas applied in place from `at` (itself, union branches, references, …), with repeats. */
  const applied = (at: string, seen: ReadonlyArray<string> = []): string[] => {
    const node = nodeOf(at);
    if (node === undefined) return [at];
    if (seen.includes(at)) return [];
    const out = [at];
    const next = [...seen, at];
    if (Object.hasOwn(node, "$ref")) for (const found of applied(document.refTarget(at), next)) out.push(found);
    for (const keyword of inPlaceKeywords) {
      if (!Object.hasOwn(node, keyword.name)) continue;
      for (const [tokens] of keyword.subschemas?.(node[keyword.name]) ?? [])
        for (const found of applied(childPointer(at, keyword.name, ...tokens), next)) out.push(found);
    }
    return out;
  };
  /**
   * The child positions of one schema (keywords with `applies: "child"`): a member or item
   * meets at most one of the exclusive ones, and every additive one.
   */
  const children = (at: string): { exclusive: string[]; additive: string[] } => {
    const node = nodeOf(at);
    const exclusive: string[] = [];
    const additive: string[] = [];
    if (node === undefined) return { exclusive, additive };
    for (const name of Object.keys(node)) {
      const keyword = keywordOf(name);
      if (keyword?.applies !== "child") continue;
      for (const [tokens] of keyword.subschemas?.(node[name]) ?? []) {
        (additiveChildren.has(name) ? additive : exclusive).push(childPointer(at, name, ...tokens));
      }
    }
    return { exclusive, additive };
  };
  type Work = { node: number; codePoint: number };
  let memo = new Map<string, Work>();
  const active = new Set<string>();
  // A recursive reference re-enters a schema: its deeper nodes cost what the schema costs,
  // found by iterating from 0 to a fixpoint; growth that never settles (unions multiplying
  // at each level) is unbounded by the schema and taken as maxBytes.
  const assumed = new Map<string, Work>();
  const reentered = new Set<string>();
  let uniqueness = 0;
  const work = (at: string): Work => {
    const known = memo.get(at);
    if (known !== undefined) return known;
    if (active.has(at)) {
      reentered.add(at);
      return assumed.get(at) ?? { node: 0, codePoint: 0 };
    }
    active.add(at);
    let own = 0;
    let codePoint = 0;
    let below = { node: 0, codePoint: 0 };
    for (const x of applied(at)) {
      const node = nodeOf(x);
      own += 1 + (node === undefined ? 0 : Object.keys(node).length);
      if (node === undefined) continue;
      if (typeof node.pattern === "string") codePoint += 1;
      if (typeof node.format === "string") codePoint += 1;
      if (Array.isArray(node.enum)) own += node.enum.length;
      if (node.uniqueItems === true) {
        const items = typeof node.maxItems === "number" ? Math.min(node.maxItems, maxBytes / 2) : maxBytes / 2;
        uniqueness = Math.max(uniqueness, items);
      }
      const { exclusive, additive } = children(x);
      // Folded, not spread: a form of 300,000 properties spread into Math.max overflows the stack.
      const parts = exclusive
        .map(work)
        .reduce(
          (most, w) => ({ node: Math.max(most.node, w.node), codePoint: Math.max(most.codePoint, w.codePoint) }),
          { node: 0, codePoint: 0 },
        );
      const extra = additive
        .map(work)
        .reduce((sum, w) => ({ node: sum.node + w.node, codePoint: sum.codePoint + w.codePoint }), {
          node: 0,
          codePoint: 0,
        });
      below = {
        node: below.node + parts.node + extra.node,
        codePoint: below.codePoint + parts.codePoint + extra.codePoint,
      };
    }
    active.delete(at);
    const result = { node: Math.max(own, below.node), codePoint: Math.max(codePoint, below.codePoint) };
    memo.set(at, result);
    return result;
  };
  let root = work("");
  for (let round = 0; reentered.size > 0; round++) {
    const settled = [...reentered].every((at) => {
      const was = assumed.get(at);
      const now = memo.get(at);
      return was !== undefined && now !== undefined && was.node === now.node && was.codePoint === now.codePoint;
    });
    if (settled) break;
    for (const at of reentered) {
      const now = memo.get(at) ?? { node: 0, codePoint: 0 };
      assumed.set(at, round >= 16 ? { node: maxBytes, codePoint: maxBytes } : now);
    }
    memo = new Map();
    root = work("");
    if (round >= 16) break;
  }
  const perByte = root.node + root.codePoint + uniqueness;
  return {
    steps: perByte * maxBytes,
    perByte,
    maxBytes,
    nodeWork: root.node,
    codePointWork: root.codePoint,
    uniquenessWork: uniqueness,
  };
}
