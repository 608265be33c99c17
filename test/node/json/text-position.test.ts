import { describe, expect, it } from "vitest";
import { JsonSyntaxError, textPosition } from "../../../src/json/json-syntax-error.ts";
import { parseJson } from "../../../src/json/parse.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

function rejection(text: string): JsonSyntaxError {
  try {
    parseJson(bytes(text));
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error;
    throw error;
  }
  throw new Error(`accepted: ${text}`);
}

describe("textPosition: line and column of a byte offset, as an editor shows them", () => {
  it("counts lines at LF, CR LF and a lone CR, each one line break", () => {
    expect(textPosition(bytes("ab\ncd"), 4)).toEqual({ line: 2, column: 2 });
    expect(textPosition(bytes("ab\r\ncd"), 5)).toEqual({ line: 2, column: 2 });
    expect(textPosition(bytes("ab\rcd"), 4)).toEqual({ line: 2, column: 2 });
    expect(textPosition(bytes("a\r\n\r\nb"), 5)).toEqual({ line: 3, column: 1 });
  });

  it("counts columns in characters, not bytes (control: ASCII, one column per byte)", () => {
    expect(textPosition(bytes("é€😀x"), 9)).toEqual({ line: 1, column: 4 });
    expect(textPosition(bytes("abcx"), 3)).toEqual({ line: 1, column: 4 });
  });

  it("starts at line 1, column 1 and clamps an offset outside the text", () => {
    expect(textPosition(bytes(""), 0)).toEqual({ line: 1, column: 1 });
    expect(textPosition(bytes("ab"), 99)).toEqual({ line: 1, column: 3 });
    expect(textPosition(bytes("ab"), -1)).toEqual({ line: 1, column: 1 });
  });
});

describe("JsonSyntaxError.messageIn: the message with line, column and the byte offset once", () => {
  it("names where a duplicate name starts (control: the message alone names the byte only)", () => {
    const text = '{\n  "a": 1,\n  "a": 2\n}';
    const error = rejection(text);
    expect(error.messageIn(bytes(text))).toBe("duplicate member name at line 3, column 3 (byte 14)");
    expect(error.message).toBe("duplicate member name at byte 14");
  });

  it("names the end of the text for a truncated value", () => {
    const text = "[1,\n2,";
    expect(rejection(text).messageIn(bytes(text))).toBe("unexpected end of text at line 2, column 3 (byte 6)");
  });
});
