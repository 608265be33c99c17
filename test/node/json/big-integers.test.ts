/**
 * A form file's int64 (and larger) bounds: `parseJson` with `bigIntegers` keeps an integer
 * literal beyond ±(2⁵³−1) exact as a `bigint` (acts are still refused them, V2), and
 * `stringifyJson` writes it back as the same digits.
 */
import { describe, expect, it } from "vitest";
import { JsonSyntaxError } from "../../../src/json/json-syntax-error.ts";
import { parseJson } from "../../../src/json/parse.ts";
import { holdsBigInt, stringifyJson, withoutBigInts } from "../../../src/json/stringify.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("V2 big integers in a form file", () => {
  it("parses an integer literal beyond ±(2^53−1) as the exact bigint with bigIntegers, and refuses it without", () => {
    const text = '{"maximum": 9223372036854775807, "minimum": -9223372036854775809, "n": [9007199254740992]}';
    expect(parseJson(bytes(text), { bigIntegers: true })).toEqual({
      maximum: 9223372036854775807n,
      minimum: -9223372036854775809n,
      n: [9007199254740992n],
    });
    expect(() => parseJson(bytes(text))).toThrow(JsonSyntaxError);
    // Within range, or with a fraction or an exponent: the double, as always.
    expect(parseJson(bytes("[9007199254740991, 1e20, 9007199254740993.0]"), { bigIntegers: true })).toEqual([
      9007199254740991, 1e20, 9007199254740992,
    ]);
  });

  it("writes a bigint back as its digits, and anything else as JSON.stringify does", () => {
    const text = '{"p":"x","s":{"maximum":9223372036854775807,"a":[-18446744073709551616,"9223372036854775807n"]}}';
    const value = parseJson(bytes(text), { bigIntegers: true });
    expect(holdsBigInt(value)).toBe(true);
    expect(stringifyJson(value)).toBe(text);
    expect(JSON.parse(stringifyJson(value, 2))).toEqual(JSON.parse(text));
    const plain = JSON.parse('{"__proto__": 1, "a": ["\\u0000", 1.5, null], "b": {"c": true}}') as unknown;
    expect(stringifyJson(plain)).toBe(JSON.stringify(plain));
    expect(stringifyJson(plain, 2)).toBe(JSON.stringify(plain, null, 2));
    expect(withoutBigInts(value)).toEqual(JSON.parse(text));
  });
});
