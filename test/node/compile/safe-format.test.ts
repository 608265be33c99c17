/**
 * The one code-writing primitive: values become literals, identifiers are whitelisted, and
 * nothing unchecked is spliced into generated code.
 */
import { describe, expect, it } from "vitest";
import { id, js, json, member, stringLiteral } from "../../../src/compile/safe-format.ts";

describe("V3 safe formatting of generated code", () => {
  it("serializes strings as literals, escaping line and paragraph separators", () => {
    expect(js`f(${'a"b\u2028c\u2029'})`.toString()).toBe('f("a\\"b\\u2028c\\u2029")');
    expect(stringLiteral("</script>")).toBe('"</script>"');
  });

  it("serializes numbers, booleans and null, and refuses non-finite numbers", () => {
    expect(js`${1.5} ${-0} ${true} ${null}`.toString()).toBe("1.5 -0 true null");
    expect(() => js`${Number.NaN}`).toThrow(TypeError);
    expect(() => js`${Infinity}`).toThrow(TypeError);
  });

  it("refuses anything that is not a Code, string, number, boolean or null", () => {
    expect(() => js`${{} as unknown as string}`).toThrow(TypeError);
    expect(() => js`${undefined as unknown as string}`).toThrow(TypeError);
  });

  it("whitelists identifiers", () => {
    expect(id("d1").toString()).toBe("d1");
    for (const bad of ["a-b", "1a", "return", "a;b", "", "eval"]) expect(() => id(bad)).toThrow(TypeError);
  });

  it("writes containers through JSON.parse, so __proto__ stays an own member", () => {
    expect(json(JSON.parse('{"__proto__": 1}')).toString()).toBe('JSON.parse("{\\"__proto__\\":1}")');
    expect(json("x").toString()).toBe('"x"');
  });

  it("uses bracket access for member names that are not plain identifiers", () => {
    expect(member(id("d"), "title").toString()).toBe("d.title");
    expect(member(id("d"), "a-b").toString()).toBe('d["a-b"]');
    expect(member(id("d"), "__proto__").toString()).toBe("d.__proto__");
  });
});
