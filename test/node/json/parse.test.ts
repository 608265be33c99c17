/**
 * parseJson's policy (DESIGN.md §6, issue 2 item 3, issue 3): every rejection is paired with
 * an accepted control that differs from it in that one respect, and asserts the code (V2).
 * Each case runs three times: as written, and padded with whitespace past LOOSE_MAX (2 KiB),
 * where the text is decoded whole by the fatal decoder, and past TEXT_MAX (1 MiB), where the parser
 * decodes string by string instead of decoding the text whole.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { JsonSyntaxError, type JsonSyntaxErrorCode } from "../../../src/json/json-syntax-error.ts";
import { DEFAULT_MAX_DEPTH, PARSE_PADDING, parseJson, TEXT_MAX } from "../../../src/json/parse.ts";
import { LOOSE_MAX } from "../../../src/json/utf8.ts";
import { sameJson, specialNames } from "./json-arbitraries.ts";

/** A text given as a string (UTF-8 encoded) or as raw bytes (hex pairs after `0x`). */
type Text = string | { readonly hex: string };

function bytesOf(text: Text): Uint8Array {
  if (typeof text === "string") return new TextEncoder().encode(text);
  return Uint8Array.from(text.hex.match(/[0-9a-f]{2}/gi)!.map((h) => parseInt(h, 16)));
}

/**
 * How a text is decoded, by its size: whole by the decoder that never throws (up to
 * LOOSE_MAX bytes), whole by the fatal one (up to TEXT_MAX), or string by string.
 */
type Size = "as written" | "past LOOSE_MAX" | "past TEXT_MAX";
const sizes: readonly Size[] = ["as written", "past LOOSE_MAX", "past TEXT_MAX"];
const PAD: Record<Size, Uint8Array> = {
  "as written": new Uint8Array(0),
  "past LOOSE_MAX": new TextEncoder().encode(" ".repeat(LOOSE_MAX + 1)),
  "past TEXT_MAX": new TextEncoder().encode(" ".repeat(TEXT_MAX + 1)),
};

/** The bytes, followed by whitespace that takes them past the size named (if any). */
function variant(bytes: Uint8Array, size: Size): Uint8Array {
  const pad = PAD[size];
  if (pad.length === 0) return bytes;
  const out = new Uint8Array(bytes.length + pad.length);
  out.set(bytes);
  out.set(pad, bytes.length);
  return out;
}

function rejection(bytes: Uint8Array, options?: { maxDepth?: number }): JsonSyntaxError {
  try {
    parseJson(bytes, options);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    return error as JsonSyntaxError;
  }
  throw new Error(`accepted: ${new TextDecoder().decode(bytes.subarray(0, 80))}`);
}

/** The oracle: `JSON.parse` of the bytes decoded as UTF-8 (BOM stripped, never fatal). */
function oracle(bytes: Uint8Array): unknown {
  return JSON.parse(new TextDecoder().decode(bytes));
}

interface Pair {
  readonly title: string;
  readonly code: JsonSyntaxErrorCode;
  readonly rejected: Text;
  readonly control: Text;
  /** The offset the rejection names, when the case pins it. */
  readonly offset?: number;
}

const pairs: Pair[] = [
  // Grammar (JSON.parse rejects these too).
  {
    title: "bytes after the value",
    code: "trailing-bytes",
    rejected: '{"a":1} x',
    control: '{"a":1} \t\r\n',
    offset: 8,
  },
  { title: "a second value", code: "trailing-bytes", rejected: "1 2", control: "12" },
  { title: "empty text", code: "unexpected-end", rejected: "", control: "0" },
  { title: "unclosed array", code: "unexpected-end", rejected: "[1,2", control: "[1,2]" },
  { title: "unclosed string", code: "unexpected-end", rejected: '"abc', control: '"abc"' },
  { title: "trailing comma", code: "unexpected-byte", rejected: "[1,]", control: "[1]" },
  { title: "single quotes", code: "unexpected-byte", rejected: "['a']", control: '["a"]' },
  { title: "leading zero", code: "trailing-bytes", rejected: "01", control: "1" },
  { title: "leading plus", code: "unexpected-byte", rejected: "+1", control: "1" },
  { title: "bare point", code: "unexpected-byte", rejected: "[1.]", control: "[1.0]" },
  { title: "NaN", code: "unexpected-byte", rejected: "NaN", control: "null" },
  { title: "a misspelt literal", code: "unexpected-byte", rejected: "[tru]", control: "[true]" },
  {
    title: "a raw control character in a string",
    code: "control-character",
    rejected: '"a\u0001b"',
    control: '"a\\u0001b"',
    offset: 2,
  },
  { title: "a raw tab in a string", code: "control-character", rejected: '"a\tb"', control: '"a\\tb"' },
  { title: "an unknown escape", code: "invalid-escape", rejected: '"a\\xb"', control: '"a\\nb"', offset: 2 },
  { title: "a short \\u escape", code: "invalid-escape", rejected: '"\\u12"', control: '"\\u0012"' },
  { title: "a non-hex \\u escape", code: "invalid-escape", rejected: '"\\u00g0"', control: '"\\u00f0"' },
  {
    title: "a byte ≥ 0x80 outside a string",
    code: "unexpected-byte",
    rejected: { hex: "5b c3a9 5d" },
    control: { hex: "5b 22c3a922 5d" },
  },
  // I-JSON (RFC 7493) and DESIGN.md §6: JSON.parse accepts these.
  { title: "a duplicate name", code: "duplicate-name", rejected: '{"a":1,"a":2}', control: '{"a":1,"b":2}', offset: 7 },
  { title: "a duplicate name and value", code: "duplicate-name", rejected: '{"a":1,"a":1}', control: '{"a":1,"b":1}' },
  {
    title: "a duplicate spelled with an escape",
    code: "duplicate-name",
    rejected: '{"a":1,"\\u0061":2}',
    control: '{"a":1,"\\u0062":2}',
  },
  {
    title: "a duplicate spelled as UTF-8 and as an escape",
    code: "duplicate-name",
    rejected: '{"é":1,"\\u00e9":2}',
    control: '{"é":1,"\\u00e8":2}',
  },
  {
    title: "an astral duplicate as UTF-8 and as a surrogate pair",
    code: "duplicate-name",
    rejected: '{"😀":1,"\\uD83D\\uDE00":2}',
    control: '{"😀":1,"\\uD83D\\uDE01":2}',
  },
  {
    title: "a duplicate after other members",
    code: "duplicate-name",
    rejected: '{"a":1,"b":2,"c":3,"b":4}',
    control: '{"a":1,"b":2,"c":3,"d":4}',
  },
  {
    title: "a duplicate in a nested object",
    code: "duplicate-name",
    rejected: '[{"x":{"a":1,"a":2}}]',
    control: '[{"x":{"a":1},"a":2}]',
  },
  {
    title: "a duplicate after a nested object",
    code: "duplicate-name",
    rejected: '{"a":{"a":1},"a":2}',
    control: '{"a":{"a":1},"b":2}',
  },
  {
    title: "a duplicate __proto__",
    code: "duplicate-name",
    rejected: '{"__proto__":1,"__proto__":2}',
    control: '{"__proto__":1,"__proto_":2}',
  },
  {
    title: "a duplicate __proto__ spelled with escapes",
    code: "duplicate-name",
    rejected: '{"__proto__":{},"\\u005f_proto__":[]}',
    control: '{"__proto__":{},"\\u005f_proto_":[]}',
  },
  {
    title: "a duplicate constructor",
    code: "duplicate-name",
    rejected: '{"constructor":1,"constructor":2}',
    control: '{"constructor":1,"constructo":2}',
  },
  {
    title: "a duplicate toString",
    code: "duplicate-name",
    rejected: '{"toString":1,"toString":2}',
    control: '{"toString":1,"tostring":2}',
  },
  { title: "a duplicate empty name", code: "duplicate-name", rejected: '{"":1,"":2}', control: '{"":1," ":2}' },
  {
    title: "a duplicate long name",
    code: "duplicate-name",
    rejected: `{"${"n".repeat(40)}":1,"${"n".repeat(40)}":2}`,
    control: `{"${"n".repeat(40)}":1,"${"n".repeat(39)}":2}`,
  },
  {
    title: "a byte order mark",
    code: "byte-order-mark",
    rejected: { hex: "efbbbf 7b7d" },
    control: { hex: "7b7d" },
    offset: 0,
  },
  {
    title: "a lone high surrogate escape",
    code: "lone-surrogate",
    rejected: '"\\uD800"',
    control: '"\\uD7FF"',
    offset: 1,
  },
  { title: "a lone low surrogate escape", code: "lone-surrogate", rejected: '"\\uDC00"', control: '"\\uE000"' },
  {
    title: "a high surrogate before a non-surrogate escape",
    code: "lone-surrogate",
    rejected: '"\\uD83D\\u0041"',
    control: '"\\uD83D\\uDE00"',
  },
  {
    title: "a high surrogate before a character",
    code: "lone-surrogate",
    rejected: '"\\uD83Dx"',
    control: '"\\uD83D\\uDE00x"',
  },
  { title: "inverted surrogates", code: "lone-surrogate", rejected: '"\\uDE00\\uD83D"', control: '"\\uD83D\\uDE00"' },
  { title: "two high surrogates", code: "lone-surrogate", rejected: '"\\uD83D\\uD83D"', control: '"\\uD83D\\uDC3D"' },
  {
    title: "an overlong 2-byte sequence",
    code: "invalid-utf8",
    rejected: { hex: "22 c0af 22" },
    control: { hex: "22 2f 22" },
    offset: 1,
  },
  {
    title: "an overlong 3-byte sequence",
    code: "invalid-utf8",
    rejected: { hex: "22 e08080 22" },
    control: { hex: "22 e0a080 22" },
  },
  {
    title: "an overlong 4-byte sequence",
    code: "invalid-utf8",
    rejected: { hex: "22 f08fbfbf 22" },
    control: { hex: "22 f0908080 22" },
  },
  {
    title: "an encoded high surrogate",
    code: "invalid-utf8",
    rejected: { hex: "22 eda080 22" },
    control: { hex: "22 ed9fbf 22" },
  },
  {
    title: "an encoded low surrogate",
    code: "invalid-utf8",
    rejected: { hex: "22 edbfbf 22" },
    control: { hex: "22 ee8080 22" },
  },
  {
    title: "a code point above U+10FFFF",
    code: "invalid-utf8",
    rejected: { hex: "22 f4908080 22" },
    control: { hex: "22 f48fbfbf 22" },
  },
  {
    title: "a lead byte F5",
    code: "invalid-utf8",
    rejected: { hex: "22 f5808080 22" },
    control: { hex: "22 f3808080 22" },
  },
  {
    title: "a truncated 3-byte sequence",
    code: "invalid-utf8",
    rejected: { hex: "22 61e282 22" },
    control: { hex: "22 61e282ac 22" },
  },
  {
    title: "a truncated 4-byte sequence before an escape",
    code: "invalid-utf8",
    rejected: { hex: "22 f09f98 5c6e 22" },
    control: { hex: "22 f09f9880 5c6e 22" },
  },
  {
    title: "a stray continuation byte",
    code: "invalid-utf8",
    rejected: { hex: "22 61 80 62 22" },
    control: { hex: "22 61 c280 62 22" },
  },
  {
    title: "invalid UTF-8 in a member name",
    code: "invalid-utf8",
    rejected: { hex: "7b 22 ff 22 3a 31 7d" },
    control: { hex: "7b 22 c3bf 22 3a 31 7d" },
  },
  {
    title: "a raw U+FFFD before invalid UTF-8 (the decoder's U+FFFD does not decide)",
    code: "invalid-utf8",
    rejected: { hex: "5b 22 efbfbd 61 22 2c 22 62 ff 22 5d" },
    control: { hex: "5b 22 efbfbd 61 22 2c 22 62 c3bf 22 5d" },
    offset: 10,
  },
  {
    title: "invalid UTF-8 before a raw U+FFFD in one string",
    code: "invalid-utf8",
    rejected: { hex: "22 e282 efbfbd 22" },
    control: { hex: "22 e282ac efbfbd 22" },
    offset: 1,
  },
  {
    title: "invalid UTF-8 late in a run of more than LOOSE_MAX bytes",
    code: "invalid-utf8",
    rejected: { hex: `22 ${"c3a9".repeat(LOOSE_MAX)} ff 22` },
    control: { hex: `22 ${"c3a9".repeat(LOOSE_MAX)} c3bf 22` },
    offset: 1 + 2 * LOOSE_MAX,
  },
  {
    title: "a number overflowing to Infinity",
    code: "number-out-of-range",
    rejected: "1e400",
    control: "1e300",
    offset: 0,
  },
  {
    title: "a negative number overflowing to -Infinity",
    code: "number-out-of-range",
    rejected: "[-1e400]",
    control: "[-1e-400]",
  },
  {
    title: "a fraction overflowing to Infinity",
    code: "number-out-of-range",
    rejected: "1.7976931348623159e308",
    control: "1.7976931348623157e308",
  },
  {
    title: "a long integer with an exponent overflowing",
    code: "number-out-of-range",
    rejected: `1${"0".repeat(400)}e0`,
    control: `1${"0".repeat(300)}e0`,
  },
  {
    title: "an integer literal of 2^53",
    code: "integer-out-of-range",
    rejected: "9007199254740992",
    control: "9007199254740991",
    offset: 0,
  },
  {
    title: "an integer literal of -2^53",
    code: "integer-out-of-range",
    rejected: "[-9007199254740992]",
    control: "[-9007199254740991]",
    offset: 1,
  },
  {
    title: "an integer literal of 2^53+1",
    code: "integer-out-of-range",
    rejected: "9007199254740993",
    control: "9007199254740993.0",
  },
  {
    title: "a 400-digit integer literal",
    code: "integer-out-of-range",
    rejected: `1${"0".repeat(400)}`,
    control: `1${"0".repeat(400)}e-400`,
  },
  {
    title: "an integer literal beyond 2^53 as a member",
    code: "integer-out-of-range",
    rejected: '{"n":10000000000000000}',
    control: '{"n":1e16}',
  },
  {
    title: "nesting beyond maxDepth (arrays)",
    code: "depth-exceeded",
    rejected: "[".repeat(65) + "]".repeat(65),
    control: "[".repeat(64) + "]".repeat(64),
    offset: 64,
  },
  {
    title: "nesting beyond maxDepth (objects)",
    code: "depth-exceeded",
    rejected: `${'{"a":'.repeat(64)}{}${"}".repeat(64)}`,
    control: `${'{"a":'.repeat(63)}{}${"}".repeat(63)}`,
  },
  {
    title: "nesting beyond maxDepth (mixed)",
    code: "depth-exceeded",
    rejected: `${'[{"a":'.repeat(32)}[]${"}]".repeat(32)}`,
    control: `${'[{"a":'.repeat(32)}0${"}]".repeat(32)}`,
  },
];

describe("each rejection with its accepted control (V2)", () => {
  for (const size of sizes) {
    describe(size, () => {
      for (const { title, code, rejected, control, offset } of pairs) {
        test(`${title}: ${code}`, () => {
          const error = rejection(variant(bytesOf(rejected), size));
          expect(error.code).toBe(code);
          if (offset !== undefined) expect(error.offset).toBe(offset);
          const accepted = variant(bytesOf(control), size);
          expect(sameJson(parseJson(accepted), oracle(accepted))).toBe(true);
        });
      }
    });
  }
});

test("a \\u escape cut short by the end of the text: unexpected-end; closed: accepted", () => {
  expect(rejection(bytesOf('"\\u12')).code).toBe("unexpected-end");
  expect(rejection(bytesOf('"\\uD83D\\uDE')).code).toBe("unexpected-end");
  expect(parseJson(bytesOf('"\\u1234"'))).toBe("\u1234");
  expect(parseJson(bytesOf('"\\uD83D\\uDE00"'))).toBe("😀");
});

describe("JsonSyntaxError", () => {
  test("is a SyntaxError with a name, a code, a byte offset and no content in its message", () => {
    const error = rejection(bytesOf('{"secret":1,"secret":2}'));
    expect(error).toBeInstanceOf(SyntaxError);
    expect(error.name).toBe("JsonSyntaxError");
    expect(error.code).toBe("duplicate-name");
    expect(error.offset).toBe(12);
    expect(error.message).toBe("duplicate member name at byte 12");
  });

  test("the offset counts bytes, not UTF-16 code units", () => {
    expect(rejection(bytesOf('["é😀", x]')).offset).toBe(11);
  });
});

describe("member names are ordinary own members; prototypes are JSON.parse's (V2)", () => {
  test("__proto__ is an own member and never changes the prototype", () => {
    const text = bytesOf('{"__proto__":{"polluted":true},"a":[{"__proto__":[]}]}');
    const value = parseJson(text) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true });
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    const inner = (value.a as Record<string, unknown>[])[0]!;
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Array.isArray(Object.getOwnPropertyDescriptor(inner, "__proto__")?.value)).toBe(true);
    expect(sameJson(value, JSON.parse(new TextDecoder().decode(text)))).toBe(true);
  });

  test("no Object.prototype name counts as present: each is accepted once as an own member", () => {
    const names = [...new Set([...Object.getOwnPropertyNames(Object.prototype), ...specialNames])];
    for (const name of names) {
      const text = bytesOf(`{${JSON.stringify(name)}:1}`);
      const value = parseJson(text) as object;
      expect(Object.hasOwn(value, name)).toBe(true);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(sameJson(value, JSON.parse(new TextDecoder().decode(text)))).toBe(true);
    }
    const all = bytesOf(`{${names.map((name, k) => `${JSON.stringify(name)}:${k}`).join(",")}}`);
    expect(sameJson(parseJson(all), JSON.parse(new TextDecoder().decode(all)))).toBe(true);
  });

  test("arrays and objects have JSON.parse's prototypes and own data properties", () => {
    const text = bytesOf('{"b":[1,{"c":null}],"a":"x","1":true,"0":false}');
    const value = parseJson(text) as { b: unknown[] };
    expect(Object.getPrototypeOf(value.b)).toBe(Array.prototype);
    expect(Object.keys(value)).toEqual(["0", "1", "b", "a"]);
    expect(sameJson(value, JSON.parse(new TextDecoder().decode(text)))).toBe(true);
  });

  test("Object.prototype is untouched after parsing hostile names", () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    parseJson(bytesOf('{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}}}'));
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

describe("a hostile realm: Object.prototype frozen or given accessors (in a fresh process)", () => {
  const parseModule = join(import.meta.dirname, "../../../src/json/parse.ts");
  /** Runs `setup`, then parses `text` in a fresh Node process; returns what it printed. */
  function parseAfter(setup: string, text: string): string {
    const script = `
      ${setup}
      const { parseJson } = await import(${JSON.stringify(`file://${parseModule}`)});
      try {
        const value = parseJson(new TextEncoder().encode(${JSON.stringify(text)}));
        const own = Object.getOwnPropertyNames(value).map((k) => [k, Object.getOwnPropertyDescriptor(value, k).value]);
        console.log(JSON.stringify({ own, plain: Object.getPrototypeOf(value) === Object.prototype }));
      } catch (error) {
        console.log(JSON.stringify({ thrown: error.name, code: error.code }));
      }`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(child.stderr).toBe("");
    return child.stdout.trim();
  }

  test("with Object.prototype frozen, inherited names are still own members; a duplicate is still rejected", () => {
    const frozen = "Object.freeze(Object.prototype);";
    expect(JSON.parse(parseAfter(frozen, '{"toString":1,"constructor":2,"__proto__":3}'))).toEqual({
      own: [
        ["toString", 1],
        ["constructor", 2],
        ["__proto__", 3],
      ],
      plain: true,
    });
    expect(JSON.parse(parseAfter(frozen, '{"toString":1,"toString":2}'))).toEqual({
      thrown: "JsonSyntaxError",
      code: "duplicate-name",
    });
  });

  test("an accessor on Object.prototype whose getter returns undefined is never called as a setter", () => {
    const trap =
      'Object.defineProperty(Object.prototype, "trap", { get() { return undefined; }, set() { throw new Error("setter ran"); }, configurable: true });';
    expect(JSON.parse(parseAfter(trap, '{"a":0,"trap":1}'))).toEqual({
      own: [
        ["a", 0],
        ["trap", 1],
      ],
      plain: true,
    });
    expect(JSON.parse(parseAfter(trap, '{"trap":1}'))).toEqual({ own: [["trap", 1]], plain: true });
    expect(JSON.parse(parseAfter(trap, '{"trap":1,"trap":2}'))).toEqual({
      thrown: "JsonSyntaxError",
      code: "duplicate-name",
    });
  });

  test("an accessor added to Object.prototype after its name was parsed (and cached) is still never called", () => {
    // The names are parsed once first, so that they sit in the parser's name cache when
    // Object.prototype changes; every accessor throws, so calling one shows as a thrown Error.
    const warmThenTrap = (name: string) => `
      const { parseJson: warm } = await import(${JSON.stringify(`file://${parseModule}`)});
      warm(new TextEncoder().encode('{"a":0,${JSON.stringify(name)}:1}'));
      Object.defineProperty(Object.prototype, ${JSON.stringify(name)}, {
        get() { throw new Error("getter ran"); },
        set() { throw new Error("setter ran"); },
        configurable: true,
      });`;
    expect(JSON.parse(parseAfter(warmThenTrap("extra"), '{"extra":1,"extra":2}'))).toEqual({
      thrown: "JsonSyntaxError",
      code: "duplicate-name",
    });
    expect(JSON.parse(parseAfter(warmThenTrap("extra"), '{"a":0,"extra":1}'))).toEqual({
      own: [
        ["a", 0],
        ["extra", 1],
      ],
      plain: true,
    });
    expect(JSON.parse(parseAfter(warmThenTrap("extra"), '{"extra":1,"a":0}'))).toEqual({
      own: [
        ["extra", 1],
        ["a", 0],
      ],
      plain: true,
    });
    // A name that was already inherited (a data property) and becomes an accessor.
    expect(JSON.parse(parseAfter(warmThenTrap("toString"), '{"toString":1,"toString":2}'))).toEqual({
      thrown: "JsonSyntaxError",
      code: "duplicate-name",
    });
    expect(JSON.parse(parseAfter(warmThenTrap("toString"), '{"a":0,"toString":1}'))).toEqual({
      own: [
        ["a", 0],
        ["toString", 1],
      ],
      plain: true,
    });
  });

  test("a name removed from Object.prototype after it was parsed (and cached) is an ordinary member", () => {
    const warmThenDelete = `
      const { parseJson: warm } = await import(${JSON.stringify(`file://${parseModule}`)});
      warm(new TextEncoder().encode('{"a":0,"toLocaleString":1}'));
      delete Object.prototype.toLocaleString;`;
    expect(JSON.parse(parseAfter(warmThenDelete, '{"a":0,"toLocaleString":1}'))).toEqual({
      own: [
        ["a", 0],
        ["toLocaleString", 1],
      ],
      plain: true,
    });
    expect(JSON.parse(parseAfter(warmThenDelete, '{"a":0,"toLocaleString":1,"toLocaleString":2}'))).toEqual({
      thrown: "JsonSyntaxError",
      code: "duplicate-name",
    });
  });
});

describe("numbers (DESIGN.md §6)", () => {
  const accepted: [string, number][] = [
    ["-0", -0],
    ["-0.0", -0],
    ["0", 0],
    ["1.0", 1],
    ["1E+2", 100],
    ["1e2", 100],
    ["1E-2", 0.01],
    ["1e-400", 0],
    ["-1e-400", -0],
    ["9007199254740991", 9007199254740991],
    ["-9007199254740991", -9007199254740991],
    ["9007199254740993.0", 9007199254740992],
    ["9007199254740993e0", 9007199254740992],
    ["1e16", 1e16],
    ["12345678901234567890.5", 12345678901234567000],
    ["0.1", 0.1],
    ["0.30000000000000004", 0.30000000000000004],
    ["5e-324", 5e-324],
    ["2.4703282292062328e-324", 5e-324],
    ["1.7976931348623157e308", 1.7976931348623157e308],
    ["123.456e-789", 0],
    ["0e99999999999", 0],
  ];
  for (const [text, value] of accepted) {
    test(`${text} is ${Object.is(value, -0) ? "-0" : value}, as JSON.parse gives`, () => {
      const result = parseJson(bytesOf(text));
      expect(Object.is(result, value)).toBe(true);
      expect(Object.is(result, JSON.parse(text))).toBe(true);
    });
  }
});

describe("depth (maxDepth counts containers)", () => {
  test(`the default maxDepth is ${DEFAULT_MAX_DEPTH}`, () => {
    expect(DEFAULT_MAX_DEPTH).toBe(64);
  });

  test("maxDepth 0 admits a scalar and no container", () => {
    expect(parseJson(bytesOf('"x"'), { maxDepth: 0 })).toBe("x");
    expect(rejection(bytesOf("[]"), { maxDepth: 0 }).code).toBe("depth-exceeded");
    expect(rejection(bytesOf("{}"), { maxDepth: 0 }).code).toBe("depth-exceeded");
  });

  test("maxDepth n admits n nested containers and not n + 1", () => {
    expect(parseJson(bytesOf("[[[]]]"), { maxDepth: 3 })).toEqual([[[]]]);
    expect(rejection(bytesOf("[[[[]]]]"), { maxDepth: 3 }).code).toBe("depth-exceeded");
  });

  for (const [kind, open] of [
    ["arrays", "["],
    ["objects", '{"a":'],
  ] as const) {
    test(`10⁶ nested ${kind} are rejected with depth-exceeded, no RangeError`, () => {
      const bytes = bytesOf(open.repeat(1_000_000));
      const error = rejection(bytes);
      expect(error.code).toBe("depth-exceeded");
      expect(error.offset).toBe(DEFAULT_MAX_DEPTH * open.length);
      expect(rejection(bytes, { maxDepth: 1_000_000 }).code).toBe("unexpected-end");
    });

    test(`10⁶ nested ${kind} are accepted when maxDepth allows it (iterative, no stack growth)`, () => {
      const close = open === "[" ? "]" : "}";
      const inner = open === "[" ? "" : "0";
      const bytes = bytesOf(open.repeat(1_000_000) + inner + close.repeat(1_000_000));
      let value = parseJson(bytes, { maxDepth: 1_000_000 });
      let depth = 0;
      while (typeof value === "object" && value !== null) {
        value = Array.isArray(value) ? value[0] : (value as { a: unknown }).a;
        depth++;
      }
      expect(depth).toBe(1_000_000);
      expect(rejection(bytes, { maxDepth: 999_999 }).code).toBe("depth-exceeded");
    });
  }

  test("an invalid maxDepth is a RangeError (a programming error, not a text's)", () => {
    expect(() => parseJson(bytesOf("0"), { maxDepth: -1 })).toThrow(RangeError);
    expect(() => parseJson(bytesOf("0"), { maxDepth: 1.5 })).toThrow(RangeError);
  });
});

describe("strings", () => {
  const texts: string[] = [
    '"\\uFEFF at the start"',
    '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
    '"\\u0000"',
    '"😀 \\uD83D\\uDE00 \\ud83d\\ude00"',
    `"mixed é \\u00e9 and long ascii run ${"x".repeat(100)}"`,
    `"${"y".repeat(TEXT_MAX + 1)}"`,
    `"${"é".repeat(40_000)}"`,
    `["${"z".repeat(30)}", "${"ü".repeat(30)}", "a\\nb", "\u007f"]`,
    // A raw U+FFFD (EF BF BD) is a character like any other: kept, in names too, beside escapes.
    '{"\ufffd": "\ufffd é \\n \ufffd", "a\ufffd": ["\ufffd\ufffd", "x\\u00e9\ufffd"]}',
    `"${"\ufffd".repeat(30_000)}"`,
  ];
  for (const text of texts) {
    test(`${text.slice(0, 40)}… is JSON.parse's string`, () => {
      for (const size of sizes) {
        const bytes = variant(bytesOf(text), size);
        expect(sameJson(parseJson(bytes), oracle(bytes))).toBe(true);
      }
    });
  }

  test("a raw U+FEFF inside a string is kept, not taken for a byte order mark", () => {
    for (const size of sizes) {
      expect(parseJson(variant(bytesOf({ hex: "22 efbbbf 61 22" }), size))).toBe("\ufeffa");
      expect(parseJson(variant(bytesOf({ hex: "22 5c6e efbbbf 22" }), size))).toBe("\n\ufeff");
    }
  });

  test("repeated names across objects give equal strings (the name cache never mixes names)", () => {
    const names = Array.from({ length: 3000 }, (_, k) => `n${k}`);
    const text = bytesOf(`[${names.map((n) => `{"${n}":0}`).join(",")},${names.map((n) => `{"${n}":1}`).join(",")}]`);
    const value = parseJson(text) as Record<string, number>[];
    value.forEach((o, k) => {
      expect(Object.keys(o)).toEqual([names[k % 3000]]);
    });
  });
});

test("the bytes decoded are the bytes parsed, whatever array holds them (an Int8Array, a plain array from JavaScript)", () => {
  const asBytes = (x: unknown) => x as Uint8Array;
  expect(rejection(asBytes(Int8Array.of(0x22, -1, 0x22))).code).toBe("invalid-utf8");
  expect(rejection(asBytes(Int8Array.of(0x5b, 0x22, -19, -96, -128, 0x22, 0x5d))).code).toBe("invalid-utf8");
  expect(parseJson(asBytes(Int8Array.of(0x22, -61, -87, 0x22)))).toBe("é");
  expect(parseJson(asBytes([0x22, 0x61, 0x22]))).toBe("a");
});

describe("state kept between calls (the element stack, the name cache)", () => {
  test("long and short arrays in turn, accepted and rejected, each give JSON.parse's value", () => {
    const long = `[${Array.from({ length: 70000 }, (_, k) => (k % 3 === 0 ? `{"k${k % 50}":${k}}` : String(k))).join(",")}]`;
    const texts = [
      long,
      "[[1,2],[3]]",
      '[{"a":[1,2,3,{"a":1,"a":2}]}]',
      "[]",
      "[[],[[]]]",
      long,
      "[0",
      "[7,8]",
      '{"a":[{"b":[1]}]}',
    ];
    for (const text of texts) {
      let expected: unknown;
      try {
        expected = JSON.parse(text);
      } catch {
        expected = "SyntaxError";
      }
      let actual: unknown;
      try {
        actual = parseJson(bytesOf(text));
      } catch (error) {
        actual = error instanceof JsonSyntaxError ? "SyntaxError" : error;
      }
      if (text.includes('"a":1,"a":2')) expect(actual).toBe("SyntaxError");
      else expect(sameJson(actual, expected)).toBe(true);
    }
  });

  test("a text is read up to its length only: no byte of a longer text parsed before, or after the view, counts (V2)", () => {
    // The parser copies each text into a buffer it keeps; what a longer text left there, or
    // what follows a subarray in its buffer, must never complete a truncated text.
    const long = bytesOf(`{"a":[1,2,3],"b":"${"x".repeat(3000)}"}   `);
    expect(sameJson(parseJson(long), JSON.parse(new TextDecoder().decode(long)))).toBe(true);
    for (const cut of [1, 5, 6, 7, 11, 12, 13, 20]) {
      const truncated = long.slice(0, cut);
      expect(rejection(truncated).code).toBe("unexpected-end");
      expect(rejection(long.subarray(0, cut)).code).toBe("unexpected-end");
    }
    const literals = bytesOf("[true,false,null]");
    for (let cut = 1; cut < literals.length; cut++) {
      expect(rejection(literals.subarray(0, cut)).code).toBe("unexpected-end");
    }
    // Controls: the same bytes, whole, as a subarray and as a Node Buffer.
    expect(parseJson(literals.subarray(0))).toEqual([true, false, null]);
    expect(parseJson(Buffer.from(literals))).toEqual([true, false, null]);
    expect(parseJson(bytesOf('["\\uD83D\\uDE00"]'))).toEqual(["\u{1F600}"]);
    expect(rejection(bytesOf('["\\uD83D\\uDE0')).code).toBe("unexpected-end");
  });

  test("a text with PARSE_PADDING zero bytes after it in its buffer is read in place: the same values and rejections, the buffer unchanged (V2)", () => {
    // How the body reader hands over a body with Content-Length: the text, then zeros.
    const inPlace = (text: Uint8Array, after: readonly number[] = new Array(PARSE_PADDING).fill(0)) => {
      const buffer = new Uint8Array(3 + text.length + after.length);
      buffer.set(text, 3);
      buffer.set(after, 3 + text.length);
      return buffer.subarray(3, 3 + text.length);
    };
    const text = bytesOf(`{"a":[1,2.5,true,null],"b":"${"é".repeat(20)}\\u00e9","c":{}}`);
    const expected = JSON.parse(new TextDecoder().decode(text));
    for (const after of [new Array(PARSE_PADDING).fill(0), new Array(PARSE_PADDING - 1).fill(0), [0x5d, 0x7d, 0x22]]) {
      const view = inPlace(text, after);
      const before = Array.from(new Uint8Array(view.buffer));
      expect(sameJson(parseJson(view), expected)).toBe(true);
      expect(Array.from(new Uint8Array(view.buffer))).toEqual(before);
      for (const cut of [1, 5, 6, 12, 30, text.length - 1]) {
        expect(rejection(inPlace(text.subarray(0, cut), after)).code).toBe("unexpected-end");
      }
    }
    expect(rejection(inPlace(bytesOf('["\\uD83D\\uDE0'))).code).toBe("unexpected-end");
    expect(rejection(inPlace(bytesOf("[1]x"))).code).toBe("trailing-bytes");
    expect(parseJson(inPlace(bytesOf("[true]")))).toEqual([true]);
  });

  test("no element of a parsed value is kept alive by the parser after the call (in a fresh process)", () => {
    const parseModule = join(import.meta.dirname, "../../../src/json/parse.ts");
    const script = `
      const { parseJson } = await import(${JSON.stringify(`file://${parseModule}`)});
      const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
      let value = parseJson(new TextEncoder().encode('[[{"a":1}],[{"b":2}],3]'));
      const refs = [new WeakRef(value[0][0]), new WeakRef(value[1]), new WeakRef(value)];
      value = undefined;
      for (let k = 0; k < 3; k++) { await tick(); globalThis.gc(); }
      console.log(JSON.stringify(refs.map((ref) => ref.deref() === undefined)));`;
    const child = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(child.stderr).toBe("");
    expect(JSON.parse(child.stdout)).toEqual([true, true, true]);
  });
});
