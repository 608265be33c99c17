/**
 * Strings of a JSON text (RFC 8259 §7) read from its UTF-8 bytes: member names through a
 * cache, values as slices of the decoded text or decoded one by one.
 *
 * @module
 */
import type { JsonSyntaxErrorCode } from "./json-syntax-error.ts";
import { fail } from "./reject.ts";
import { decoder, invalidUtf8At } from "./utf8.ts";

/** Where the last read of a string or number stopped: one past its last byte. */
export const cursor = { end: 0 };

const fromCharCode = String.fromCharCode as (...codes: ArrayLike<number> & unknown[]) => string;

/** 1 for a byte that stands for itself inside a string: ASCII, not a control, `"` or `\`. */
export const PLAIN = new Uint8Array(256);
for (let c = 0x20; c < 0x80; c++) PLAIN[c] = 1;
PLAIN[0x22] = 0;
PLAIN[0x5c] = 0;

/** The value of a hexadecimal digit byte, or -1. */
const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[0x30 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX[0x41 + c] = 10 + c;
  HEX[0x61 + c] = 10 + c;
}

/** The code unit a one-letter escape (`\n`…) stands for, or 0 if the letter is not one. */
const ESCAPE = new Uint8Array(256);
ESCAPE[0x22] = 0x22;
ESCAPE[0x5c] = 0x5c;
ESCAPE[0x2f] = 0x2f;
ESCAPE[0x62] = 0x08;
ESCAPE[0x66] = 0x0c;
ESCAPE[0x6e] = 0x0a;
ESCAPE[0x72] = 0x0d;
ESCAPE[0x74] = 0x09;

/**
 * Member names of at most {@link SHORT_MAX} ASCII bytes, by a hash of their bytes: the string
 * (internalized, as V8 keeps property keys), its length and its bytes, compared before use.
 */
const SHORT_MAX = 24;
const CACHE_BITS = 10;
const CACHE_MASK = (1 << CACHE_BITS) - 1;
const cacheStrings: string[] = new Array<string>(1 << CACHE_BITS).fill("");
const cacheLengths = new Uint8Array(1 << CACHE_BITS);
const cacheBytes = new Uint8Array((1 << CACHE_BITS) * SHORT_MAX);

/**
 * The largest text decoded whole into {@link text}: above it V8 allocates the string in its
 * large-object space, which costs more than decoding each string on its own.
 */
export const TEXT_MAX = 1 << 16;

/**
 * The text being parsed, decoded whole when it is well-formed UTF-8 and at most
 * {@link TEXT_MAX} bytes, else `undefined`. Strings are then slices of it: the character at
 * byte offset `i` (outside a multi-byte sequence) is `text[i - skew]`.
 */
let text: string | undefined;

/** Bytes before the current position minus the UTF-16 code units they decode to. */
let skew = 0;

/**
 * Starts a text: decodes `b` whole when it is at most {@link TEXT_MAX} bytes of well-formed
 * UTF-8, so that its strings can be sliced from one copy.
 */
export function beginText(b: Uint8Array): void {
  text = undefined;
  skew = 0;
  if (b.length <= TEXT_MAX) {
    try {
      text = decoder.decode(b);
    } catch {
      // Not UTF-8: decoding string by string finds where, and what the grammar says before it.
    }
  }
}

/** Ends a text: drops the decoded copy. */
export function endText(): void {
  text = undefined;
}

/**
 * The member name of the ASCII bytes `b[start..start+n)`, 0 < n ≤ {@link SHORT_MAX}, whose
 * hash is `h`, through the cache.
 */
function cachedName(b: Uint8Array, start: number, n: number, h: number): string {
  const slot = (h ^ (h >>> 13) ^ (h >>> 23)) & CACHE_MASK;
  const at = slot * SHORT_MAX;
  if (cacheLengths[slot] === n) {
    let j = 0;
    while (j < n && cacheBytes[at + j] === b[start + j]) j++;
    if (j === n) return cacheStrings[slot]!;
  }
  const fresh = text !== undefined ? text.slice(start - skew, start - skew + n) : asciiString(b, start, n);
  // A property key is internalized; reading the key back gives that string, so later lookups
  // with it need no hashing or string-table search.
  const internalized = Object.keys({ [fresh]: 0 })[0] ?? fresh;
  cacheStrings[slot] = internalized;
  cacheLengths[slot] = n;
  cacheBytes.set(b.subarray(start, start + n), at);
  return internalized;
}

/**
 * The string of the bytes `b[start..stop)`, a run inside a string holding no `"`, `\\` or
 * control byte; `ascii` when every byte is below 0x80.
 */
function decodeRun(b: Uint8Array, start: number, stop: number, ascii: boolean): string {
  if (ascii && stop - start <= 8) return asciiString(b, start, stop - start);
  try {
    return decoder.decode(b.subarray(start, stop));
  } catch {
    return fail("invalid-utf8", invalidUtf8At(b, start, stop));
  }
}

/**
 * The string of the ASCII bytes `b[s..s+n)`, n > 0; up to 8 bytes are passed as arguments,
 * with no intermediate array.
 */
function asciiString(b: Uint8Array, s: number, n: number): string {
  switch (n) {
    case 1: return fromCharCode(b[s]!);
    case 2: return fromCharCode(b[s]!, b[s + 1]!);
    case 3: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!);
    case 4: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!);
    case 5: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!);
    case 6: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!);
    case 7: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!);
    case 8: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!);
    default: return fromCharCode.apply(null, b.subarray(s, s + n) as never);
  }
}

/**
 * Reads the string whose content starts at `start` (just after the opening quote); sets
 * {@link cursor}.end just after the closing quote.
 */
export function readString(b: Uint8Array, start: number): string {
  let i = start;
  while (PLAIN[b[i]!] === 1) i++;
  if (b[i] === 0x22) {
    cursor.end = i + 1;
    const n = i - start;
    if (n === 0) return "";
    if (text !== undefined) return text.slice(start - skew, i - skew);
    return n <= 8 ? asciiString(b, start, n) : decoder.decode(b.subarray(start, i));
  }
  return readStringRest(b, start, i);
}

/**
 * Reads a member name like {@link readString}, hashing its bytes on the way so that a short
 * ASCII name repeated across objects comes from the cache as one internalized string.
 */
export function readName(b: Uint8Array, start: number): string {
  let i = start;
  let h = 0;
  let c = b[i]!;
  while (PLAIN[c] === 1) {
    h = (Math.imul(h, 31) + c) | 0;
    c = b[++i]!;
  }
  if (c === 0x22) {
    cursor.end = i + 1;
    const n = i - start;
    if (n === 0) return "";
    if (n <= SHORT_MAX) return cachedName(b, start, n, h);
    if (text !== undefined) return text.slice(start - skew, i - skew);
    return decoder.decode(b.subarray(start, i));
  }
  return readStringRest(b, start, i);
}

/** The value of the four hex digits at `b[i..i+4)`, or -1. */
function hex4(b: Uint8Array, i: number): number {
  if (i + 4 > b.length) return -1;
  const h0 = HEX[b[i]!]!, h1 = HEX[b[i + 1]!]!, h2 = HEX[b[i + 2]!]!, h3 = HEX[b[i + 3]!]!;
  if ((h0 | h1 | h2 | h3) < 0) return -1;
  return (h0 << 12) | (h1 << 8) | (h2 << 4) | h3;
}

/** Why the four hex digits at `b[i..i+4)` are not: a byte that is not one, or the end. */
function hexFailure(b: Uint8Array, i: number): JsonSyntaxErrorCode {
  for (let k = i; k < i + 4; k++) {
    if (k >= b.length) return "unexpected-end";
    if (HEX[b[k]!]! < 0) return "invalid-escape";
  }
  return "invalid-escape";
}

/**
 * Reads the rest of a string that holds an escape, a non-ASCII byte or an error; `i` is the
 * first byte at or after `start` that is not plain ASCII. Runs between escapes are decoded
 * whole (UTF-8 checked by the fatal decoder) and the escapes appended one by one.
 */
function readStringRest(b: Uint8Array, start: number, i: number): string {
  const len = b.length;
  let s = "";
  let run = start;
  let ascii = true;
  for (;;) {
    let c = b[i]!;
    // Each continuation byte adds one to the skew and a four-byte lead takes one back: two,
    // three and four bytes decode to one, one and two UTF-16 code units.
    let extra = 0;
    while (i < len && (PLAIN[c] === 1 || c >= 0x80)) {
      if (c >= 0x80) {
        ascii = false;
        if (c < 0xc0) extra++;
        else if (c >= 0xf0) extra--;
      }
      c = b[++i]!;
    }
    if (i >= len) fail("unexpected-end", len);
    if (i > run) {
      if (text !== undefined) s += text.slice(run - skew, i - skew - extra);
      else s += decodeRun(b, run, i, ascii);
    }
    skew += extra;
    if (c === 0x22) {
      cursor.end = i + 1;
      return s;
    }
    if (c !== 0x5c) fail("control-character", i);
    const e = b[i + 1]!;
    const unit = ESCAPE[e]!;
    if (unit !== 0) {
      s += fromCharCode(unit);
      i += 2;
    } else if (e === 0x75) {
      const h = hex4(b, i + 2);
      if (h < 0) fail(hexFailure(b, i + 2), i);
      if (h >= 0xd800 && h <= 0xdfff) {
        if (h >= 0xdc00 || b[i + 6] !== 0x5c || b[i + 7] !== 0x75) fail("lone-surrogate", i);
        const l = hex4(b, i + 8);
        if (l < 0) fail(hexFailure(b, i + 8), i + 6);
        if (l < 0xdc00 || l > 0xdfff) fail("lone-surrogate", i);
        s += fromCharCode(h, l);
        i += 12;
      } else {
        s += fromCharCode(h);
        i += 6;
      }
    } else {
      fail(i + 1 >= len ? "unexpected-end" : "invalid-escape", i);
    }
    run = i;
    ascii = true;
  }
}

