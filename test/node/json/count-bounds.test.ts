/**
 * `maxMembers` and `maxItems` (issue 31): an object of more members, or an array of more
 * elements, than the bound is refused from the bytes, at the comma before the one too many and
 * before it is read; no text within the bounds is refused.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { JsonSyntaxError } from "../../../src/json/json-syntax-error.ts";
import { type ParseJsonOptions, parseJson } from "../../../src/json/parse.ts";
import { sameJson, spell, type Tree, treeArb } from "./json-arbitraries.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function refusal(text: string | Uint8Array, options: ParseJsonOptions): JsonSyntaxError {
  try {
    parseJson(typeof text === "string" ? encode(text) : text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    return error as JsonSyntaxError;
  }
  throw new Error("accepted");
}

/** The most members of any object and the most elements of any array of a tree (0 when none). */
function widest(tree: Tree): { members: number; items: number } {
  let members = 0;
  let items = 0;
  const children =
    tree.t === "arr" ? tree.items : tree.t === "obj" ? tree.members.map(([, value]) => value) : ([] as Tree[]);
  if (tree.t === "arr") items = tree.items.length;
  if (tree.t === "obj") members = tree.members.length;
  for (const child of children) {
    const inner = widest(child);
    members = Math.max(members, inner.members);
    items = Math.max(items, inner.items);
  }
  return { members, items };
}

describe("maxMembers and maxItems", () => {
  test("N members pass at N and are refused at N − 1, at the comma before the one too many", () => {
    const text = '{"a": 1, "b": {"c": [], "d": 2} , "e": 3}';
    expect(parseJson(encode(text), { maxMembers: 3 })).toEqual(JSON.parse(text));
    const error = refusal(text, { maxMembers: 2 });
    expect(error.code).toBe("too-many-members");
    expect(error.offset).toBe(text.lastIndexOf(","));
    // The inner object's two members are within 2; the outer third is not.
    expect(refusal('{"a": {"b": 1, "c": 2, "d": 3}}', { maxMembers: 2 }).offset).toBe(21);
    expect(refusal('{"a": 1}', { maxMembers: 0 }).offset).toBe(1);
    expect(parseJson(encode('{"a": {}}'), { maxMembers: 1 })).toEqual({ a: {} });
  });

  test("N elements pass at N and are refused at N − 1, at the comma before the one too many", () => {
    const text = "[1, [2, 3], 4]";
    expect(parseJson(encode(text), { maxItems: 3 })).toEqual(JSON.parse(text));
    const error = refusal(text, { maxItems: 2 });
    expect(error.code).toBe("too-many-items");
    expect(error.offset).toBe(10);
    expect(refusal("[[1, 2, 3]]", { maxItems: 2 }).offset).toBe(6);
    expect(refusal("[ 1]", { maxItems: 0 }).offset).toBe(2);
    expect(parseJson(encode("[[], {}]"), { maxItems: 2, maxMembers: 0 })).toEqual([[], {}]);
  });

  test("a 1 MiB object of 90,000 members is refused at its fourth member, unread past it", () => {
    const members = Array.from({ length: 90_000 }, (_, k) => `"m${k}":0`);
    const bytes = encode(`{${members.join(",")}}`);
    const error = refusal(bytes, { maxMembers: 3 });
    expect(error.code).toBe("too-many-members");
    expect(error.offset).toBe(members.slice(0, 3).join(",").length + 1);
    expect(refusal(encode(`[${"0,".repeat(500_000)}0]`), { maxItems: 10 }).offset).toBe(20);
  });

  test("the bounds never refuse a text within them and always refuse one past them (random texts)", () => {
    fc.assert(
      fc.property(treeArb(), fc.integer(), (tree, seed) => {
        const { text, expect: expected } = spell(tree, seed);
        if (expected.size > 0) return;
        const bytes = encode(text);
        const { members, items } = widest(tree);
        expect(sameJson(parseJson(bytes, { maxMembers: members, maxItems: items }), JSON.parse(text))).toBe(true);
        if (members > 0) expect(refusal(bytes, { maxMembers: members - 1 }).code).toBe("too-many-members");
        if (items > 0) expect(refusal(bytes, { maxItems: items - 1 }).code).toBe("too-many-items");
      }),
      { numRuns: 2000 },
    );
  });

  test("an invalid bound is a RangeError; Infinity is no bound", () => {
    for (const bad of [-1, 1.5, Number.NaN, -Infinity]) {
      expect(() => parseJson(encode("0"), { maxMembers: bad })).toThrow(RangeError);
      expect(() => parseJson(encode("0"), { maxItems: bad })).toThrow(RangeError);
    }
    expect(parseJson(encode('[{"a": 1}]'), { maxMembers: Infinity, maxItems: Infinity })).toEqual([{ a: 1 }]);
  });
});
