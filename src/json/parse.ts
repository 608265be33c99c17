/**
 * The strict JSON parser: RFC 8259 over UTF-8 bytes, with the I-JSON (RFC 7493) profile.
 *
 * One module on purpose: strings (RFC 8259 §7), numbers (§6) and the value loop are the hot
 * path, and split across modules they measured 5–15 % slower at 1 KiB in Node. The cold
 * parts live beside it: `utf8.ts` (the decoder, where UTF-8 breaks) and `reject.ts`.
 *
 * @module
 */
import type { JsonSyntaxError, JsonSyntaxErrorCode } from "./json-syntax-error.ts";
import { fail, failAt } from "./reject.ts";
import { badByteIn, decoder, invalidUtf8At, LOOSE_MAX, strictDecoder } from "./utf8.ts";

const fromCharCode = String.fromCharCode as (...codes: ArrayLike<number> & unknown[]) => string;

// ── Strings ──────────────────────────────────────────────────────────────────────────────

/** Where the last {@link readString}, {@link readName} or {@link readNumber} stopped: one past its last byte. */
let end = 0;

/** 1 for a byte that stands for itself inside a string: ASCII, not a control, `"` or `\`. */
const PLAIN = new Uint8Array(256);
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
 * 1 where the cached name is found on `Object.prototype`, as checked in the call numbered
 * `cacheChecked[slot]`: `Object.prototype` may change between calls (never during one, which
 * runs no code of the caller's), so a cached name is checked again once in each call that uses
 * it. `cacheChecked[slot]` is 0 for a name cached at its first sight and not internalized yet.
 */
const cacheInherited = new Uint8Array(1 << CACHE_BITS);
const cacheChecked = new Float64Array(1 << CACHE_BITS);

/** The number of the current {@link parseJson} call, counted from 1 (exact up to 2⁵³). */
let call = 0;

const ObjectPrototype = Object.prototype;

/**
 * Whether the name the last {@link readName} returned is found on `Object.prototype` now (an
 * accessor whose getter returns undefined included), so that it must be defined, never
 * assigned, and checked for a duplicate with `hasOwn`, never read.
 */
let nameInherited = false;

/**
 * The largest text decoded whole into {@link text}, in bytes: 1 MiB, an address's default body
 * limit. Above it strings are decoded one by one, as a text far beyond any body limit needs no
 * string of its size (V8's hold at most 2²⁹ − 24 code units). It was 64 KiB until issue 16, when
 * one large string cost more than decoding string by string; in Node 24 decoding whole parsed
 * the 256 KiB page body 1.15× as fast, 1 MiB of short strings 1.15× and 512 KiB of mixed objects
 * 1.4×, and one 1 MiB string at parity. The text is decoded before it is parsed, so a 1 MiB text
 * rejected at its first byte costs the decoding (about 1 ms in Node 24), still well below what
 * accepting as large a text costs.
 */
export const TEXT_MAX = 1 << 20;

/**
 * The text being parsed, decoded whole when it is at most {@link TEXT_MAX} bytes (exact up to
 * {@link textExact}), else `undefined`. Strings are then slices of it: the character at
 * byte offset `i` (outside a multi-byte sequence) is `text[i - skew]`.
 */
let text: string | undefined;

/** Bytes before the current position minus the UTF-16 code units they decode to. */
let skew = 0;

/**
 * Where {@link text} stops being exact: the offset of the first byte that does not begin a
 * well-formed UTF-8 sequence, or past the end. A run of string bytes that reaches it is decoded
 * on its own (and rejected), never sliced from the text.
 */
let textExact = 0;

/**
 * The longest string of the current call in UTF-16 code units: its `maxStringLength`, or the
 * text's length when that is smaller (no string of a text is longer than the text), so that it
 * is always a small integer.
 */
let stringLimit = 0;

/**
 * Starts a text, the first `len` bytes of `b`: decodes it whole when it is at most
 * {@link TEXT_MAX} bytes, so that its strings can be sliced from one copy. Up to
 * {@link LOOSE_MAX} bytes by the decoder that never throws: where the copy holds a U+FFFD, the
 * bytes are checked, the copy is exact up to the first that is not UTF-8 ({@link textExact}),
 * and the string holding that byte, if the grammar gets that far, is rejected (as
 * `invalid-utf8`, or for a reason found earlier in it). A longer text that is not UTF-8 is
 * decoded string by string instead, which finds where.
 */
function beginText(b: Uint8Array, len: number): void {
  text = undefined;
  skew = 0;
  textExact = len;
  if (len <= LOOSE_MAX) {
    text = decoder.decode(b.subarray(0, len));
    const at = badByteIn(text, b, 0, len);
    if (at !== -1) textExact = at;
  } else if (len <= TEXT_MAX) {
    try {
      text = strictDecoder.decode(b.subarray(0, len));
    } catch {
      // Not UTF-8: decoding string by string finds where, and what the grammar says before it.
    }
  }
}

/** Ends a text: drops the decoded copy. */
function endText(): void {
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
    if (j === n) {
      let name = cacheStrings[slot]!;
      if (cacheChecked[slot] === call) {
        nameInherited = cacheInherited[slot] === 1;
      } else {
        // Seen again (0: first seen, not internalized yet) or first used in this call.
        // A property key is internalized; reading the key back gives that string, so later
        // lookups with it need no hashing or string-table search.
        if (cacheChecked[slot] === 0) cacheStrings[slot] = name = Object.keys({ [name]: 0 })[0] ?? name;
        nameInherited = name in ObjectPrototype;
        cacheInherited[slot] = nameInherited ? 1 : 0;
        cacheChecked[slot] = call;
      }
      return name;
    }
  }
  // A miss: the name is cached as it is, and internalized only when it is seen again, so that
  // many distinct names (which thrash the cache) cost no more than a slice each.
  const fresh = text !== undefined ? text.slice(start - skew, start - skew + n) : asciiString(b, start, n);
  cacheStrings[slot] = fresh;
  cacheLengths[slot] = n;
  for (let j = 0; j < n; j++) cacheBytes[at + j] = b[start + j]!;
  nameInherited = fresh in ObjectPrototype;
  cacheChecked[slot] = 0;
  return fresh;
}

/**
 * The string of the bytes `b[start..stop)`, a run inside a string holding no `"`, `\\` or
 * control byte; `ascii` when every byte is below 0x80. Bytes that are not UTF-8 are rejected as
 * `invalid-utf8` at the first that is not, found without a throw up to {@link LOOSE_MAX} bytes.
 */
function decodeRun(b: Uint8Array, start: number, stop: number, ascii: boolean): string {
  if (ascii) return stop - start <= 8 ? asciiString(b, start, stop - start) : decoder.decode(b.subarray(start, stop));
  if (stop - start > LOOSE_MAX) {
    try {
      return strictDecoder.decode(b.subarray(start, stop));
    } catch {
      return fail("invalid-utf8", invalidUtf8At(b, start, stop));
    }
  }
  const s = decoder.decode(b.subarray(start, stop));
  const at = badByteIn(s, b, start, stop);
  return at === -1 ? s : fail("invalid-utf8", at);
}

/**
 * The string of the ASCII bytes `b[s..s+n)`, n > 0; bytes are passed as arguments, up to 8 at
 * a time, with no intermediate array.
 */
function asciiString(b: Uint8Array, s: number, n: number): string {
  switch (n) {
    case 1:
      return fromCharCode(b[s]!);
    case 2:
      return fromCharCode(b[s]!, b[s + 1]!);
    case 3:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!);
    case 4:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!);
    case 5:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!);
    case 6:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!);
    case 7:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!);
    case 8:
      return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!);
    default: {
      // Eight at a time: no subarray, no argument array (a third faster than `apply` at 24).
      let t = "";
      let k = s;
      const e = s + n;
      for (; e - k >= 8; k += 8)
        t += fromCharCode(b[k]!, b[k + 1]!, b[k + 2]!, b[k + 3]!, b[k + 4]!, b[k + 5]!, b[k + 6]!, b[k + 7]!);
      for (; k < e; k++) t += fromCharCode(b[k]!);
      return t;
    }
  }
}

/**
 * Reads the string whose content starts at `start` (just after the opening quote); sets
 * {@link end} just after the closing quote.
 */
function readString(b: Uint8Array, len: number, start: number): string {
  let i = start;
  // A run of plain bytes is as many code units: when one byte past the limit is inside the
  // text, a 0 planted there stops the scan (the byte is put back before anything can throw).
  const stop = start + stringLimit + 1;
  if (stop < len) {
    const kept = b[stop]!;
    b[stop] = 0;
    while (PLAIN[b[i]!] === 1) i++;
    b[stop] = kept;
    if (i === stop) fail("string-too-long", start - 1);
  } else {
    while (PLAIN[b[i]!] === 1) i++;
  }
  if (b[i] === 0x22) {
    end = i + 1;
    const n = i - start;
    if (n === 0) return "";
    if (text !== undefined) return text.slice(start - skew, i - skew);
    return n <= 8 ? asciiString(b, start, n) : decoder.decode(b.subarray(start, i));
  }
  return readStringRest(b, len, start, i);
}

/**
 * Reads a member name like {@link readString}, hashing its bytes on the way so that a short
 * ASCII name repeated across objects comes from the cache as one internalized string.
 */
function readName(b: Uint8Array, len: number, start: number): string {
  let i = start;
  let h = 0;
  let c: number;
  // As in readString.
  const stop = start + stringLimit + 1;
  if (stop < len) {
    const kept = b[stop]!;
    b[stop] = 0;
    c = b[i]!;
    while (PLAIN[c] === 1) {
      h = (Math.imul(h, 31) + c) | 0;
      c = b[++i]!;
    }
    b[stop] = kept;
    if (i === stop) fail("string-too-long", start - 1);
    c = b[i]!;
  } else {
    c = b[i]!;
    while (PLAIN[c] === 1) {
      h = (Math.imul(h, 31) + c) | 0;
      c = b[++i]!;
    }
  }
  let name: string;
  if (c === 0x22) {
    end = i + 1;
    const n = i - start;
    if (n > 0 && n <= SHORT_MAX) return cachedName(b, start, n, h);
    if (n === 0) name = "";
    else if (text !== undefined) name = text.slice(start - skew, i - skew);
    else name = decoder.decode(b.subarray(start, i));
  } else {
    name = readStringRest(b, len, start, i);
  }
  nameInherited = name in ObjectPrototype;
  return name;
}

/** The value of the four hex digits at `b[i..i+4)`, or -1. */
function hex4(b: Uint8Array, len: number, i: number): number {
  if (i + 4 > len) return -1;
  const h0 = HEX[b[i]!]!,
    h1 = HEX[b[i + 1]!]!,
    h2 = HEX[b[i + 2]!]!,
    h3 = HEX[b[i + 3]!]!;
  if ((h0 | h1 | h2 | h3) < 0) return -1;
  return (h0 << 12) | (h1 << 8) | (h2 << 4) | h3;
}

/** Why the four hex digits at `b[i..i+4)` are not: a byte that is not one, or the end. */
function hexFailure(b: Uint8Array, len: number, i: number): JsonSyntaxErrorCode {
  for (let k = i; k < i + 4; k++) {
    if (k >= len) return "unexpected-end";
    if (HEX[b[k]!]! < 0) return "invalid-escape";
  }
  return "invalid-escape";
}

/**
 * Reads the rest of a string that holds an escape, a non-ASCII byte or an error; `i` is the
 * first byte at or after `start` that is not plain ASCII. Runs between escapes are sliced from
 * the decoded text where it is exact, else decoded by `decodeRun` (which checks their UTF-8), and
 * the escapes appended one by one.
 */
function readStringRest(b: Uint8Array, len: number, start: number, i: number): string {
  let s = "";
  let run = start;
  let ascii = true;
  for (;;) {
    let c = b[i]!;
    // Each continuation byte adds one to the skew and a four-byte lead takes one back: two,
    // three and four bytes decode to one, one and two UTF-16 code units.
    let extra = 0;
    // The padding after the text (a 0, neither plain nor ≥ 0x80) ends the run at the end.
    while (PLAIN[c] === 1 || c >= 0x80) {
      if (c >= 0x80) {
        ascii = false;
        if (c < 0xc0) extra++;
        else if (c >= 0xf0) extra--;
      }
      c = b[++i]!;
    }
    if (i >= len) fail("unexpected-end", len);
    if (i > run) {
      // The run decodes to its bytes less `extra` code units: checked before decoding it.
      if (s.length + (i - run - extra) > stringLimit) fail("string-too-long", start - 1);
      if (text !== undefined && i <= textExact) s += text.slice(run - skew, i - skew - extra);
      else s += decodeRun(b, run, i, ascii);
    }
    skew += extra;
    if (c === 0x22) {
      end = i + 1;
      return s;
    }
    if (c !== 0x5c) fail("control-character", i);
    const e = b[i + 1]!;
    const unit = ESCAPE[e]!;
    if (unit !== 0) {
      s += fromCharCode(unit);
      i += 2;
    } else if (e === 0x75) {
      const h = hex4(b, len, i + 2);
      if (h < 0) fail(hexFailure(b, len, i + 2), i);
      if (h >= 0xd800 && h <= 0xdfff) {
        if (h >= 0xdc00 || b[i + 6] !== 0x5c || b[i + 7] !== 0x75) fail("lone-surrogate", i);
        const l = hex4(b, len, i + 8);
        if (l < 0) fail(hexFailure(b, len, i + 8), i + 6);
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
    if (s.length > stringLimit) fail("string-too-long", start - 1);
    run = i;
    ascii = true;
  }
}

// ── Numbers ──────────────────────────────────────────────────────────────────────────────

const MAX_SAFE_INTEGER = 9007199254740991;

/** {@link ParseJsonOptions.bigIntegers} of the call under way. */
let bigIntegers = false;

/** 10⁰…10²², the powers of ten a double holds exactly. */
const POW10 = new Float64Array(23);
for (let k = 0, p = 1; k < 23; k++, p *= 10) POW10[k] = p;

/** Reads the number starting at `start` (a `-` or a digit); sets {@link end} after it. */
function readNumber(b: Uint8Array, len: number, start: number): number | bigint {
  let i = start;
  let c = b[i]!;
  const negative = c === 0x2d;
  if (negative) c = b[++i]!;
  // The digits as an integer m, exact while m ≤ 2⁵³−1; above it rounding is monotonic and
  // 2⁵³ is a double, so `m > MAX_SAFE_INTEGER` holds exactly when the digits exceed it.
  let m: number;
  if (c === 0x30) {
    m = 0;
    c = b[++i]!;
  } else if (c >= 0x31 && c <= 0x39) {
    m = c - 0x30;
    c = b[++i]!;
    while (c >= 0x30 && c <= 0x39) {
      m = m * 10 + (c - 0x30);
      c = b[++i]!;
    }
  } else {
    return failAt(len, i);
  }
  if (c !== 0x2e && c !== 0x65 && c !== 0x45) {
    end = i;
    if (m > MAX_SAFE_INTEGER) {
      if (!bigIntegers) fail("integer-out-of-range", start);
      // A form file's own bound (int64 and larger): its exact value, the literal's digits.
      return BigInt(text !== undefined ? text.slice(start - skew, i - skew) : asciiString(b, start, i - start));
    }
    return negative ? -m : m;
  }
  let p = 0;
  if (c === 0x2e) {
    c = b[++i]!;
    if (!(c >= 0x30 && c <= 0x39)) failAt(len, i);
    do {
      m = m * 10 + (c - 0x30);
      p--;
      c = b[++i]!;
    } while (c >= 0x30 && c <= 0x39);
  }
  if (c === 0x65 || c === 0x45) {
    c = b[++i]!;
    let negativeExponent = false;
    if (c === 0x2b || c === 0x2d) {
      negativeExponent = c === 0x2d;
      c = b[++i]!;
    }
    if (!(c >= 0x30 && c <= 0x39)) failAt(len, i);
    let e = 0;
    do {
      if (e < 1e9) e = e * 10 + (c - 0x30);
      c = b[++i]!;
    } while (c >= 0x30 && c <= 0x39);
    p += negativeExponent ? -e : e;
  }
  end = i;
  // Clinger's fast path: m and 10^|p| are exact doubles, so one IEEE operation rounds the
  // value correctly, the same double JSON.parse's correctly rounded conversion gives.
  if (m <= MAX_SAFE_INTEGER && p >= -22 && p <= 22) {
    const v = p >= 0 ? m * POW10[p]! : m / POW10[-p]!;
    return negative ? -v : v;
  }
  // The grammar is checked above; Number() rounds a JSON number exactly as JSON.parse does.
  // Its bytes are ASCII, so the string is a slice of the decoded text or made from the bytes
  // directly (a TextDecoder call and a subarray cost more than the conversion).
  const value = +(text !== undefined ? text.slice(start - skew, i - skew) : asciiString(b, start, i - start));
  if (value === Infinity || value === -Infinity) fail("number-out-of-range", start);
  return value;
}

// ── Values ───────────────────────────────────────────────────────────────────────────────

/** Options of {@link parseJson}. */
export interface ParseJsonOptions {
  /**
   * The most arrays and objects a value may nest, counting every container on the path from the
   * root (`[]` has depth 1, `[[]]` depth 2, a scalar 0). A non-negative integer; default 64.
   */
  readonly maxDepth?: number;
  /**
   * The longest string, in UTF-16 code units (JavaScript's `length`), that a member name or a
   * string value may decode to. A non-negative integer or `Infinity` (the default: no bound).
   * A longer string is refused with `string-too-long` as soon as the bytes read show it cannot
   * fit, before it is decoded: an address passes the longest string its form admits, so that a
   * 900 KB string in a 1 MiB body costs a scan of the bound, not a 900 KB allocation.
   */
  readonly maxStringLength?: number;
  /**
   * The most members any one object may have. A non-negative integer or `Infinity` (the
   * default: no bound). The member one too many is refused with `too-many-members` at the
   * comma before it (at its name when the bound is 0), before its name is read: an address
   * passes the most members any object of its form admits, so that a 1 MiB object of 90,000
   * members costs a few members' parse, not 90,000 properties.
   */
  readonly maxMembers?: number;
  /**
   * The most elements any one array may have. A non-negative integer or `Infinity` (the
   * default: no bound). The element one too many is refused with `too-many-items` at the comma
   * before it (at its first byte when the bound is 0), before it is read.
   */
  readonly maxItems?: number;
  /**
   * An integer literal (no fraction, no exponent) outside ±(2⁵³−1) becomes a `bigint` holding
   * its exact value, instead of being refused with `integer-out-of-range`. For a form file,
   * whose bounds may be int64 (`"maximum": 9223372036854775807`) and must be compared exactly,
   * never rounded to the next double (a wider bound); never for an act, whose numbers must be
   * the doubles a validator checks. Default false.
   */
  readonly bigIntegers?: boolean;
}

/** The default of {@link ParseJsonOptions.maxDepth}: containers nested, root included. */
export const DEFAULT_MAX_DEPTH = 64;

/**
 * The elements of the open arrays (see {@link parseText}), kept from call to call: V8 grows a
 * fresh array past some 10⁴ elements at about 100 ns per element, several times the cost of
 * parsing one. A successful call overwrites what it wrote with 0, so no value outlives it
 * here; a call left by a rejection may leave values behind, and the next call drops the array
 * ({@link elementsDirty}). An array of more than {@link ELEMENTS_KEPT} elements is dropped too.
 */
let elementsStack: unknown[] = [];

/** Whether the last call was left by a rejection and {@link elementsStack} may hold its values. */
let elementsDirty = false;

/**
 * The most elements {@link elementsStack} keeps between calls: 2¹⁹, as many as a body of the
 * default 1 MiB limit can hold (`[0,0,…]`); 4 MiB of references (2 MiB with V8's pointer
 * compression, as in workerd), kept after the largest body parsed.
 */
const ELEMENTS_KEPT = 1 << 19;

const hasOwn = Object.hasOwn;
const defineProperty = Object.defineProperty;

/** Checks the literal `word` (its bytes after the first) at `i`; returns the index after it. */
function readLiteral(b: Uint8Array, len: number, i: number, b1: number, b2: number, b3: number, b4: number): number {
  if (b[i + 1] !== b1) failAt(len, i + 1);
  if (b[i + 2] !== b2) failAt(len, i + 2);
  if (b[i + 3] !== b3) failAt(len, i + 3);
  if (b4 === 0) return i + 4;
  if (b[i + 4] !== b4) failAt(len, i + 4);
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
 * - more than `maxDepth` nested arrays and objects: `depth-exceeded`;
 * - a member name or string value longer than `maxStringLength` UTF-16 code units:
 *   `string-too-long`, decided from the bytes before the string is decoded (its offset is the
 *   string's opening quote);
 * - an object of more than `maxMembers` members: `too-many-members`, and an array of more than
 *   `maxItems` elements: `too-many-items`, decided at the comma before the one too many,
 *   before it is read.
 *
 * Number policy, otherwise: every number is the double `JSON.parse` gives. `-0` is -0, `1.0` is
 * 1, `1E+2` is 100, `1e-400` underflows to 0 (`-1e-400` to -0) and is accepted, and a number written with a
 * fraction or an exponent is accepted even when it is a large integer (`9007199254740993.0` is
 * 9007199254740992, `1e16` is 10¹⁶).
 *
 * Objects are plain objects (prototype `Object.prototype`) whose members are own enumerable
 * data properties; a member named `__proto__` is an ordinary own member and never changes the
 * prototype, and names inherited from `Object.prototype` (`toString`, `constructor`) are not
 * present until the text defines them. A name found on `Object.prototype` at the time of the
 * call is defined, never assigned, and never read through the prototype, so a frozen
 * `Object.prototype` or an inherited accessor changes nothing: no getter or setter of the
 * caller's runs, whenever it was added. The parser is iterative: depth never grows the call
 * stack.
 *
 * Cost: no allocation per character. The text is first copied into a buffer kept between
 * calls (up to 1 MiB) with zero bytes after it, so that no read goes past the end of its buffer
 * and every read sees one `Uint8Array` type: the speed of a call does not depend on what the
 * process parsed before (issue 16). A text of at most 1 MiB is decoded once and its strings
 * are slices of that copy (V8 keeps the copy, up to twice the text's bytes, alive as long as a
 * string sliced from it); a larger text is decoded string by string. Array elements are collected on one stack kept
 * between calls (up to 2¹⁹ slots; a successful call overwrites what it wrote, the call after a
 * rejection starts a new one), because V8 grows a fresh long array slowly. Rejections are
 * thrown without a stack trace, which would cost more than parsing a small text. With
 * `maxStringLength`, a scan of plain bytes that could pass the bound plants a 0 one byte past it
 * and puts the byte back before anything else runs (in the caller's buffer too, when that is
 * used in place): the bound costs no check per byte.
 *
 * @param bytes - the JSON text as UTF-8 bytes (no byte order mark).
 * @param options - {@link ParseJsonOptions}.
 * @returns the value, as `JSON.parse` returns it for the same text.
 * @throws {@link JsonSyntaxError} for every text it does not accept, with a stable `code` and
 *   the byte `offset` where the rejection was decided; nothing else for any input bytes.
 * @throws RangeError if `options.maxDepth` is not a non-negative integer, or
 *   `options.maxStringLength`, `options.maxMembers` or `options.maxItems` neither a
 *   non-negative integer nor `Infinity`.
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
  const maxStringLength = countLimit("maxStringLength", options?.maxStringLength);
  const maxMembers = countLimit("maxMembers", options?.maxMembers);
  const maxItems = countLimit("maxItems", options?.maxItems);
  const len = bytes.length;
  // No string, object or array of a text has more code units, members or elements than the
  // text has bytes: the bounds are small integers whatever was asked.
  stringLimit = Math.min(maxStringLength, len);
  bigIntegers = options?.bigIntegers === true;
  const b = padded(bytes);
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) fail("byte-order-mark", 0);
  call++;
  if (elementsDirty) elementsStack = [];
  elementsDirty = true;
  beginText(b, len);
  // A rejection leaves `text` set until the next call: at most TEXT_MAX bytes' worth (twice as
  // many as UTF-16), and no try/finally on the path every rejection takes.
  const value = parseText(b, len, maxDepth, Math.min(maxMembers, len), Math.min(maxItems, len));
  endText();
  elementsDirty = false;
  return value;
}

/** An option that is a non-negative integer or `Infinity` (its default). */
function countLimit(name: string, value: number | undefined): number {
  if (value === undefined) return Infinity;
  if (!(Number.isInteger(value) || value === Infinity) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer or Infinity`);
  }
  return value;
}

/**
 * Zero bytes after the text in {@link padded}'s copy: more than the furthest any read looks
 * past a position inside the text (`\uD83D\uDE00` reads 11 bytes after its backslash, a
 * literal 4 after its first letter). A caller that reads the text into a buffer of its own
 * with this many zero bytes after it spares the copy (the body reader does).
 */
export const PARSE_PADDING = 16;
const PAD = PARSE_PADDING;

/**
 * The buffer the text is copied into, kept from call to call up to {@link PADDED_KEPT} bytes.
 * One buffer of one type means every byte load in the parser sees the same receiver.
 */
let paddedBuffer = new Uint8Array(1024 + PAD);

/** The largest {@link paddedBuffer} kept between calls: a text of the default 1 MiB limit. */
const PADDED_KEPT = (1 << 20) + PAD;

/**
 * A copy of `bytes` followed by {@link PAD} zero bytes, so that no read of the parser ever goes
 * past the end of its buffer: a scan stops at the first 0 (not whitespace, not a digit, not a
 * plain string byte), and where the text ended is decided by comparing with the text's length.
 * A read past the end of a typed array would make V8 record an out-of-bounds load and
 * deoptimize the hot functions into slower code for the rest of the process, so a process that
 * has rejected truncated texts would parse every later text some 2× slower (issue 16). The
 * copy also makes every load see one `Uint8Array` type whatever the caller passes (a Node
 * `Buffer`, a subarray), and costs a `memcpy` (about 1 % of the parse at 256 KiB).
 */
function padded(bytes: Uint8Array): Uint8Array {
  const need = bytes.length + PAD;
  const own = alreadyPadded(bytes, need);
  if (own !== null) return own;
  let b = paddedBuffer;
  if (b.length < need) {
    b = new Uint8Array(Math.max(need, Math.min(b.length * 2, PADDED_KEPT)));
    if (b.length <= PADDED_KEPT) paddedBuffer = b;
  }
  b.set(bytes);
  b.fill(0, bytes.length, need);
  return b;
}

/**
 * `bytes` and the {@link PAD} bytes after it, as one view, when they are already what
 * {@link padded} would copy: a plain `Uint8Array` (no `Buffer`, whose loads would make the
 * parser's element loads polymorphic) over a fixed-length `ArrayBuffer`, followed inside it by
 * {@link PAD} zero bytes. Else null.
 */
function alreadyPadded(bytes: Uint8Array, need: number): Uint8Array | null {
  if (Object.getPrototypeOf(bytes) !== Uint8Array.prototype) return null;
  const buffer = bytes.buffer;
  if (!(buffer instanceof ArrayBuffer) || (buffer as { resizable?: boolean }).resizable === true) return null;
  if (bytes.byteOffset + need > buffer.byteLength) return null;
  const view = new Uint8Array(buffer, bytes.byteOffset, need);
  for (let k = bytes.length; k < need; k++) if (view[k] !== 0) return null;
  return view;
}

function parseText(b: Uint8Array, len: number, maxDepth: number, maxMembers: number, maxItems: number): unknown {
  /**
   * The open containers, outermost first: `objects[d]` is the object at depth d (`null` for an
   * array), `names[d]` its pending member name, `inherited[d]` whether that name is found on
   * the object's prototype, `members[d]` how many names it has read; an open array's
   * elements are `elements[first[d]..count)`, copied out whole when it closes.
   */
  const objects: (Record<string, unknown> | null)[] = [];
  const names: string[] = [];
  const inherited: boolean[] = [];
  const members: number[] = [];
  const first: number[] = [];
  const elements = elementsStack;
  let count = 0;
  /** The most elements on the stack at once, so far. */
  let peak = 0;
  let depth = 0;
  let i = 0;
  let c: number;
  let value: unknown;
  parseValue: for (;;) {
    c = b[i]!;
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
    if (c === 0x22) {
      value = readString(b, len, i + 1);
      i = end;
    } else if (c === 0x7b) {
      if (depth === maxDepth) fail("depth-exceeded", i);
      c = b[++i]!;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
      if (c === 0x7d) {
        value = {};
        i++;
      } else {
        if (c !== 0x22) failAt(len, i);
        if (maxMembers === 0) fail("too-many-members", i);
        const name = readName(b, len, i + 1);
        const object: Record<string, unknown> = {};
        names[depth] = name;
        inherited[depth] = nameInherited;
        members[depth] = 1;
        i = end;
        c = b[i]!;
        while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
        if (c !== 0x3a) failAt(len, i);
        i++;
        objects[depth++] = object;
        continue;
      }
    } else if (c === 0x5b) {
      if (depth === maxDepth) fail("depth-exceeded", i);
      c = b[++i]!;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
      if (c === 0x5d) {
        value = [];
        i++;
      } else {
        if (maxItems === 0) fail("too-many-items", i);
        objects[depth] = null;
        first[depth++] = count;
        continue;
      }
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      value = readNumber(b, len, i);
      i = end;
    } else if (c === 0x74) {
      i = readLiteral(b, len, i, 0x72, 0x75, 0x65, 0);
      value = true;
    } else if (c === 0x66) {
      i = readLiteral(b, len, i, 0x61, 0x6c, 0x73, 0x65);
      value = false;
    } else if (c === 0x6e) {
      i = readLiteral(b, len, i, 0x75, 0x6c, 0x6c, 0);
      value = null;
    } else {
      failAt(len, i);
    }
    // A value is complete: add it to the open container, and close containers that end here.
    for (;;) {
      c = b[i]!;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
      if (depth === 0) {
        if (i < len) fail("trailing-bytes", i);
        if (peak > ELEMENTS_KEPT) elementsStack = [];
        // A loop: Array.prototype.fill measured 10 % of a 1 KiB parse.
        else for (let k = 0; k < peak; k++) elements[k] = 0;
        return value;
      }
      const top = objects[depth - 1]!;
      if (top === null) {
        elements[count++] = value;
        if (c === 0x2c) {
          if (count - first[depth - 1]! === maxItems) fail("too-many-items", i);
          i++;
          continue parseValue;
        }
        if (c !== 0x5d) failAt(len, i);
        const from = first[depth - 1]!;
        if (count > peak) peak = count;
        value = elements.slice(from, count);
        count = from;
      } else {
        // A name found on the prototype (`toString`, `__proto__`) is defined as an own
        // property, never assigned, so no inherited setter runs and the prototype stays.
        if (inherited[depth - 1])
          defineProperty(top, names[depth - 1]!, { value, writable: true, enumerable: true, configurable: true });
        else top[names[depth - 1]!] = value;
        if (c === 0x2c) {
          if (members[depth - 1]!++ === maxMembers) fail("too-many-members", i);
          c = b[++i]!;
          while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
          if (c !== 0x22) failAt(len, i);
          const at = i;
          const name = readName(b, len, i + 1);
          // The duplicate is refused here, before its value is read. A name not on the
          // prototype is read (an own member is never undefined, so `undefined` proves it new,
          // faster than hasOwn); one on the prototype is only asked with hasOwn, so that no
          // inherited getter runs.
          if (nameInherited) {
            if (hasOwn(top, name)) fail("duplicate-name", at);
          } else if (top[name] !== undefined) {
            fail("duplicate-name", at);
          }
          inherited[depth - 1] = nameInherited;
          names[depth - 1] = name;
          i = end;
          c = b[i]!;
          while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
          if (c !== 0x3a) failAt(len, i);
          i++;
          continue parseValue;
        }
        if (c !== 0x7d) failAt(len, i);
        value = top;
      }
      i++;
      depth--;
    }
  }
}
