/**
 * The strict JSON parser: RFC 8259 over UTF-8 bytes, with the I-JSON (RFC 7493) profile.
 *
 * @module
 */
import type { JsonSyntaxError } from "./json-syntax-error.ts";
import { readNumber } from "./number.ts";
import { fail, failAt } from "./reject.ts";
import { beginText, cursor, endText, readName, readString } from "./string.ts";

/** Options of {@link parseJson}. */
export interface ParseJsonOptions {
  /**
   * The most arrays and objects a value may nest, counting every container on the path from the
   * root (`[]` has depth 1, `[[]]` depth 2, a scalar 0). A non-negative integer; default 64.
   */
  readonly maxDepth?: number;
}

/** The default of {@link ParseJsonOptions.maxDepth}: containers nested, root included. */
export const DEFAULT_MAX_DEPTH = 64;

const hasOwn = Object.hasOwn;
const defineProperty = Object.defineProperty;

/** Checks the literal `word` (its bytes after the first) at `i`; returns the index after it. */
function readLiteral(b: Uint8Array, i: number, b1: number, b2: number, b3: number, b4: number): number {
  if (b[i + 1] !== b1) failAt(b, i + 1);
  if (b[i + 2] !== b2) failAt(b, i + 2);
  if (b[i + 3] !== b3) failAt(b, i + 3);
  if (b4 === 0) return i + 4;
  if (b[i + 4] !== b4) failAt(b, i + 4);
  return i + 5;
}

/**
 * Parses one JSON text from its UTF-8 bytes, strictly: RFC 8259 with the I-JSON (RFC 7493)
 * profile, and returns the value exactly as `JSON.parse` returns it for the same text.
 *
 * What it rejects that `JSON.parse` accepts (each with its {@link JsonSyntaxError.code}):
 * - a duplicate member name in any object at any depth, compared after unescaping (`"a"` and
 *   `"\u0061"` are the same name): `duplicate-name` (RFC 7493 §2.3; draft: Verification, V2);
 * - bytes that are not UTF-8 inside a string (overlong forms, encoded surrogates, code points
 *   above U+10FFFF, truncated or stray sequences): `invalid-utf8` (RFC 7493 §2.1);
 * - a byte order mark at the start: `byte-order-mark` (RFC 8259 §8.1);
 * - a `\u` escape of a surrogate that is not half of a high–low pair: `lone-surrogate`;
 * - a number whose magnitude rounds to infinity (`1e400`, `-1e400`): `number-out-of-range`;
 * - an integer literal, written with no fraction and no exponent, outside ±(2⁵³−1)
 *   (`9007199254740992`): `integer-out-of-range`, because a validator would otherwise check a
 *   different number than the actor sent (RFC 7493 §2.2);
 * - more than `maxDepth` nested arrays and objects: `depth-exceeded`.
 *
 * Number policy, otherwise: every number is the double `JSON.parse` gives. `-0` is -0, `1.0` is
 * 1, `1E+2` is 100, `1e-400` underflows to 0 (`-1e-400` to -0) and is accepted, and a number written with a
 * fraction or an exponent is accepted even when it is a large integer (`9007199254740993.0` is
 * 9007199254740992, `1e16` is 10¹⁶).
 *
 * Objects are plain objects (prototype `Object.prototype`) whose members are own enumerable
 * data properties; a member named `__proto__` is an ordinary own member and never changes the
 * prototype, and names inherited from `Object.prototype` (`toString`, `constructor`) are not
 * present until the text defines them. The parser is iterative: depth never grows the call
 * stack.
 *
 * Cost: no allocation per character. A text of at most 64 KiB is decoded once and its strings
 * are slices of that copy (so a string kept long after the call keeps up to 128 KiB alive); a
 * larger text is decoded string by string. Rejections are thrown without a stack trace, which
 * would cost more than parsing a small text.
 *
 * @param bytes - the JSON text as UTF-8 bytes (no byte order mark).
 * @param options - {@link ParseJsonOptions}.
 * @returns the value, as `JSON.parse` returns it for the same text.
 * @throws {@link JsonSyntaxError} for every text it does not accept, with a stable `code` and
 *   the byte `offset` where the rejection was decided; nothing else for any input bytes.
 * @throws RangeError if `options.maxDepth` is not a non-negative integer.
 * @see https://www.rfc-editor.org/rfc/rfc8259 RFC 8259
 * @see https://www.rfc-editor.org/rfc/rfc7493 RFC 7493 (I-JSON)
 * @example
 * ```ts
 * parseJson(new TextEncoder().encode('{"a": [1, 2]}')); // { a: [1, 2] }
 * parseJson(new TextEncoder().encode('{"a": 1, "\\u0061": 2}')); // throws JsonSyntaxError "duplicate-name"
 * ```
 */
export function parseJson(bytes: Uint8Array, options?: ParseJsonOptions): unknown {
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 0) {
    throw new RangeError("maxDepth must be a non-negative integer");
  }
  const b = bytes;
  const len = b.length;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) fail("byte-order-mark", 0);
  beginText(b);
  // A rejection leaves `text` set until the next call: at most TEXT_MAX bytes' worth, and no
  // try/finally on the path every rejection takes.
  const value = parseText(b, len, maxDepth);
  endText();
  return value;
}

function parseText(b: Uint8Array, len: number, maxDepth: number): unknown {
  /**
   * The open containers, outermost first: `objects[d]` is the object at depth d (`null` for an
   * array), `names[d]` its pending member name, `inherited[d]` whether that name is found on
   * the object's prototype; an open array's
   * elements are `elements[first[d]..count)`, copied out whole when it closes.
   */
  const objects: (Record<string, unknown> | null)[] = [];
  const names: string[] = [];
  const inherited: boolean[] = [];
  const first: number[] = [];
  const elements: unknown[] = [];
  let count = 0;
  let depth = 0;
  let i = 0;
  let c: number;
  let value: unknown;
  parseValue: for (;;) {
    c = b[i]!;
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
    if (c === 0x22) {
      value = readString(b, i + 1);
      i = cursor.end;
    } else if (c === 0x7b) {
      if (depth === maxDepth) fail("depth-exceeded", i);
      c = b[++i]!;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
      if (c === 0x7d) {
        value = {};
        i++;
      } else {
        if (c !== 0x22) failAt(b, i);
        const name = readName(b, i + 1);
        const object: Record<string, unknown> = {};
        names[depth] = name;
        inherited[depth] = name in object;
        i = cursor.end;
        c = b[i]!;
        while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
        if (c !== 0x3a) failAt(b, i);
        i++;
        objects[depth++] = object;
        continue parseValue;
      }
    } else if (c === 0x5b) {
      if (depth === maxDepth) fail("depth-exceeded", i);
      c = b[++i]!;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
      if (c === 0x5d) {
        value = [];
        i++;
      } else {
        objects[depth] = null;
        first[depth++] = count;
        continue parseValue;
      }
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      value = readNumber(b, i);
      i = cursor.end;
    } else if (c === 0x74) {
      i = readLiteral(b, i, 0x72, 0x75, 0x65, 0);
      value = true;
    } else if (c === 0x66) {
      i = readLiteral(b, i, 0x61, 0x6c, 0x73, 0x65);
      value = false;
    } else if (c === 0x6e) {
      i = readLiteral(b, i, 0x75, 0x6c, 0x6c, 0);
      value = null;
    } else {
      failAt(b, i);
    }
    // A value is complete: add it to the open container, and close containers that end here.
    for (;;) {
      c = b[i]!;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
      if (depth === 0) {
        if (i < len) fail("trailing-bytes", i);
        return value;
      }
      const top = objects[depth - 1]!;
      if (top === null) {
        elements[count++] = value;
        if (c === 0x2c) {
          i++;
          continue parseValue;
        }
        if (c !== 0x5d) failAt(b, i);
        const from = first[depth - 1]!;
        value = elements.slice(from, count);
        count = from;
      } else {
        // A name found on the prototype (`toString`, `__proto__`) is defined as an own
        // property, never assigned, so no inherited setter runs and the prototype stays.
        if (inherited[depth - 1]) defineProperty(top, names[depth - 1]!, { value, writable: true, enumerable: true, configurable: true });
        else top[names[depth - 1]!] = value;
        if (c === 0x2c) {
          c = b[++i]!;
          while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
          if (c !== 0x22) failAt(b, i);
          const at = i;
          const name = readName(b, i + 1);
          // `in` sees own and inherited names alike (an accessor whose getter returns
          // undefined included); only then does hasOwn tell a duplicate from an inherited
          // name. The duplicate is refused here, before its value is read.
          if (!(name in top)) inherited[depth - 1] = false;
          else if (hasOwn(top, name)) fail("duplicate-name", at);
          else inherited[depth - 1] = true;
          names[depth - 1] = name;
          i = cursor.end;
          c = b[i]!;
          while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
          if (c !== 0x3a) failAt(b, i);
          i++;
          continue parseValue;
        }
        if (c !== 0x7d) failAt(b, i);
        value = top;
      }
      i++;
      depth--;
    }
  }
}
