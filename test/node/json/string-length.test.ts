/**
 * `maxStringLength`: a member name or string value longer than the bound (in UTF-16 code units)
 * is refused with `string-too-long` before it is decoded, and no valid text within the bound is.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { JsonSyntaxError } from "../../../src/json/json-syntax-error.ts";
import { PARSE_PADDING, parseJson, TEXT_MAX } from "../../../src/json/parse.ts";
import { LOOSE_MAX } from "../../../src/json/utf8.ts";
import { sameJson, spell, type Tree, treeArb } from "./json-arbitraries.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function refusal(bytes: Uint8Array, maxStringLength: number): JsonSyntaxError {
  try {
    parseJson(bytes, { maxStringLength });
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    return error as JsonSyntaxError;
  }
  throw new Error(`accepted: ${new TextDecoder().decode(bytes.subarray(0, 80))}`);
}

/** The longest name or string of a tree, in UTF-16 code units (-1 when it has none). */
function longest(tree: Tree): number {
  switch (tree.t) {
    case "str":
      return tree.v.length;
    case "arr":
      return Math.max(-1, ...tree.items.map(longest));
    case "obj":
      return Math.max(-1, ...tree.members.map(([name, value]) => Math.max(name.length, longest(value))));
    default:
      return -1;
  }
}

/** `text` in a buffer of its own with the zero bytes after it that let the parser use it in place. */
function inPlace(text: string): Uint8Array {
  const bytes = encode(text);
  const buffer = new Uint8Array(bytes.length + PARSE_PADDING);
  buffer.set(bytes);
  return buffer.subarray(0, bytes.length);
}

// Each spelling of a 4-unit string: plain ASCII, two-byte UTF-8, an escape, a surrogate pair.
const spellings: readonly [string, string, number][] = [
  ["plain ASCII", '"abcd"', 4],
  ["two-byte UTF-8", '"éééé"', 4],
  ["three-byte UTF-8", '"€€€€"', 4],
  ["four-byte UTF-8 (two units each)", '"😀😀"', 4],
  ["short escapes", '"\\n\\t\\"\\\\"', 4],
  ["\\u escapes", '"\\u0041\\u00e9\\u20ac\\u0042"', 4],
  ["an escaped surrogate pair and two letters", '"\\ud83d\\ude00ab"', 4],
  ["ASCII then an escape", '"abc\\n"', 4],
];

describe("maxStringLength", () => {
  for (const [name, spelled, units] of spellings) {
    for (const size of ["short", "medium", "long"] as const) {
      // "medium" texts are past LOOSE_MAX (decoded whole by the fatal decoder); "long" texts past
      // the size decoded whole (TEXT_MAX), so strings are decoded one by one.
      const pad = size === "long" ? " ".repeat(TEXT_MAX + 1) : size === "medium" ? " ".repeat(LOOSE_MAX + 1) : "";
      test(`${name} (${size} text): ${units} units pass at ${units}, are refused at ${units - 1}`, () => {
        for (const text of [`[${spelled}]${pad}`, `{${spelled}: 0}${pad}`]) {
          expect(sameJson(parseJson(encode(text), { maxStringLength: units }), JSON.parse(text))).toBe(true);
          const error = refusal(encode(text), units - 1);
          expect(error.code).toBe("string-too-long");
          expect(error.offset).toBe(1); // the opening quote
        }
      });
    }
  }

  test("0 admits only empty strings and names", () => {
    expect(parseJson(encode('{"": ""}'), { maxStringLength: 0 })).toEqual({ "": "" });
    expect(refusal(encode('["a"]'), 0).code).toBe("string-too-long");
    expect(refusal(encode('{"a": 1}'), 0).code).toBe("string-too-long");
  });

  test("a 900 KB string is refused at the bound, whether or not the text goes on to end", () => {
    const body = `{"title": "${"x".repeat(900_000)}", "blocks": []}`;
    for (const text of [body, body.slice(0, 500_000)]) {
      const error = refusal(encode(text), 400);
      expect(error.code).toBe("string-too-long");
      expect(error.offset).toBe(10);
    }
    expect(refusal(encode(`["${"é".repeat(400_000)}"]`), 400).code).toBe("string-too-long");
    expect(refusal(encode(`["${"\\n".repeat(400_000)}"]`), 400).code).toBe("string-too-long");
  });

  test("a buffer parsed in place is left as it was, accepted or refused", () => {
    for (const [text, limit] of [
      ['["abcdefgh", "ab"]', 8],
      ['["abcdefgh", "ab"]', 3],
      ['{"abcdefgh": "ab"}', 3],
      ['{"ab": "abcdefgh", "c": 1}', 8],
    ] as const) {
      const bytes = inPlace(text);
      const before = new Uint8Array(bytes.buffer).slice();
      try {
        parseJson(bytes, { maxStringLength: limit });
      } catch {
        // refused: the buffer is what is checked
      }
      expect(new Uint8Array(bytes.buffer)).toEqual(before);
    }
  });

  test("the bound never refuses a text within it and always refuses one past it (random texts)", () => {
    fc.assert(
      fc.property(treeArb(), fc.integer(), (tree, seed) => {
        const { text, expect: expected } = spell(tree, seed);
        if (expected.size > 0) return;
        const bytes = encode(text);
        const max = longest(tree);
        expect(sameJson(parseJson(bytes, { maxStringLength: Math.max(max, 0) }), JSON.parse(text))).toBe(true);
        if (max > 0) expect(refusal(bytes, max - 1).code).toBe("string-too-long");
      }),
      { numRuns: 2000 },
    );
  });

  test("an invalid maxStringLength is a RangeError", () => {
    for (const bad of [-1, 1.5, Number.NaN, -Infinity]) {
      expect(() => parseJson(encode("0"), { maxStringLength: bad })).toThrow(RangeError);
    }
    expect(parseJson(encode('"abc"'), { maxStringLength: Infinity })).toBe("abc");
  });
});
