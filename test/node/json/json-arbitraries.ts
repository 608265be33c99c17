/**
 * fast-check generators for the differential tests of `parseJson` against `JSON.parse`
 * (issue 3): JSON values serialized with random whitespace, escapes and number spellings, and
 * random byte mutations of such texts. Shared by `differential.test.ts` (a sample in
 * `npm test`) and `scripts/fuzz-parse.ts` (the ≥ 10⁶-input run).
 *
 * A value is generated as a small syntax tree so that the same value can be spelled many ways;
 * the expected value is always `JSON.parse` of the spelled text, never built here.
 */
import fc from "fast-check";
import type { JsonSyntaxErrorCode } from "../../../src/json/json-syntax-error.ts";
import { random } from "../../seeded-random.ts";

/** A JSON value as a tree: object members keep their order and unique names. */
export type Tree =
  | { readonly t: "null" }
  | { readonly t: "bool"; readonly v: boolean }
  | { readonly t: "num"; readonly v: number }
  | { readonly t: "str"; readonly v: string }
  | { readonly t: "arr"; readonly items: readonly Tree[] }
  | { readonly t: "obj"; readonly members: readonly (readonly [string, Tree])[] };

/** Names that must behave as ordinary members: those of `Object.prototype` and a few more. */
export const specialNames: readonly string[] = [
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupSetter__",
  "prototype",
  "length",
  "0",
  "",
  "a",
  "é",
  "😀",
  "\u0000",
  "\ufeff",
];

const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

const stringArb = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(...specialNames) },
);

export const nameArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...specialNames) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 4 }) },
);

const numberArb = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    0,
    -0,
    MAX_SAFE_INTEGER,
    -MAX_SAFE_INTEGER,
    2 ** 53,
    1e16,
    1e21,
    5e-324,
    1.7976931348623157e308,
    0.1,
    1e-7,
  ),
);

/** Trees of depth at most `maxDepth` (containers counted), members with unique names. */
export function treeArb(maxDepth = 5): fc.Arbitrary<Tree> {
  const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.oneof(
      { maxDepth, depthSize: "small", withCrossShrink: true },
      fc.constant<Tree>({ t: "null" }),
      fc.boolean().map<Tree>((v) => ({ t: "bool", v })),
      numberArb.map<Tree>((v) => ({ t: "num", v })),
      stringArb.map<Tree>((v) => ({ t: "str", v })),
      fc.array(tie("tree"), { maxLength: 5 }).map<Tree>((items) => ({ t: "arr", items })),
      fc
        .uniqueArray(fc.tuple(nameArb, tie("tree")), { maxLength: 5, selector: ([name]) => name })
        .map<Tree>((members) => ({ t: "obj", members })),
    ),
  }));
  return tree;
}

/** A spelled text and the policy codes its spelling knowingly calls for (empty: must be accepted). */
export interface Spelled {
  readonly text: string;
  readonly expect: ReadonlySet<JsonSyntaxErrorCode>;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "/": "\\/",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

function hex4(unit: number, rnd: () => number): string {
  const h = unit.toString(16).padStart(4, "0");
  return rnd() < 0.5 ? h : h.toUpperCase();
}

/** `s` as a JSON string with each code point spelled raw, as a short escape or as `\u` escapes. */
export function spellString(s: string, rnd: () => number): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const r = rnd();
    const mustEscape = cp < 0x20 || ch === '"' || ch === "\\";
    if (!mustEscape && r < 0.6) out += ch;
    else if (SHORT_ESCAPES[ch] !== undefined && r < 0.8) out += SHORT_ESCAPES[ch];
    else if (cp > 0xffff) out += `\\u${hex4(ch.charCodeAt(0), rnd)}\\u${hex4(ch.charCodeAt(1), rnd)}`;
    else out += `\\u${hex4(cp, rnd)}`;
  }
  return `${out}"`;
}

/**
 * A spelling of the double `v`: the same rational number as its shortest round-trip form,
 * with the decimal point moved, zeros added, `e`/`E` and exponent signs varied, so it rounds
 * to the same double. `integerLiteral` is set when the spelling has no fraction and no exponent.
 */
export function spellNumber(v: number, rnd: () => number): { text: string; integerLiteral: boolean } {
  const negative = v < 0 || Object.is(v, -0);
  const [mantissa, exp] = Math.abs(v).toExponential().split("e") as [string, string];
  let digits = mantissa.replace(".", "");
  // The value is 0.digits × 10^point.
  let point = Number(exp) + 1;
  if (digits === "0") point = 1;
  const sign = negative ? "-" : "";
  const r = rnd();
  if (r < 0.35 && point >= digits.length && point - digits.length <= 25) {
    const text = sign + digits + "0".repeat(point - digits.length);
    if (digits === "0") return { text: `${sign}0`, integerLiteral: true };
    if (rnd() < 0.3) return { text: `${text}.${"0".repeat(1 + Math.floor(rnd() * 3))}`, integerLiteral: false };
    return { text, integerLiteral: true };
  }
  digits += "0".repeat(Math.floor(rnd() * 3));
  // Choose where the point goes: after k digits (k ≥ 1), with exponent e = point − k.
  const k = 1 + Math.floor(rnd() * digits.length);
  let intPart = digits.slice(0, k).replace(/^0+(?=\d)/, "");
  let frac = digits.slice(k);
  let e = point - k;
  if (rnd() < 0.3 && e < 0 && -e <= 30) {
    // No exponent: write the point inside or left of the digits.
    const all = digits;
    const at = k + e;
    if (at > 0) {
      intPart = all.slice(0, at).replace(/^0+(?=\d)/, "");
      frac = all.slice(at);
    } else {
      intPart = "0";
      frac = "0".repeat(-at) + all;
    }
    e = 0;
    return { text: `${sign}${intPart}.${frac}`, integerLiteral: false };
  }
  const mark = rnd() < 0.5 ? "e" : "E";
  const expSign = e < 0 ? "-" : rnd() < 0.5 ? "+" : "";
  const zeros = rnd() < 0.2 ? "0".repeat(1 + Math.floor(rnd() * 3)) : "";
  const fracText = frac === "" ? "" : `.${frac}`;
  return { text: `${sign}${intPart}${fracText}${mark}${expSign}${zeros}${Math.abs(e)}`, integerLiteral: false };
}

const WHITESPACE = [" ", "\t", "\n", "\r"];

function ws(rnd: () => number): string {
  if (rnd() < 0.6) return "";
  let s = "";
  const n = 1 + Math.floor(rnd() * 3);
  for (let k = 0; k < n; k++) s += WHITESPACE[Math.floor(rnd() * 4)]!;
  return s;
}

/** Spells `tree` as a JSON text with random whitespace, escapes and number spellings. */
export function spell(tree: Tree, seed: number): Spelled {
  const rnd = random(seed);
  const expect = new Set<JsonSyntaxErrorCode>();
  const go = (node: Tree): string => {
    switch (node.t) {
      case "null":
        return "null";
      case "bool":
        return node.v ? "true" : "false";
      case "num": {
        const { text, integerLiteral } = spellNumber(node.v, rnd);
        if (integerLiteral && Math.abs(node.v) > MAX_SAFE_INTEGER) expect.add("integer-out-of-range");
        return text;
      }
      case "str":
        return spellString(node.v, rnd);
      case "arr":
        return `[${ws(rnd)}${node.items.map((item) => go(item) + ws(rnd)).join(`,${ws(rnd)}`)}]`;
      case "obj":
        return `{${ws(rnd)}${node.members
          .map(([name, value]) => `${spellString(name, rnd)}${ws(rnd)}:${ws(rnd)}${go(value)}${ws(rnd)}`)
          .join(`,${ws(rnd)}`)}}`;
    }
  };
  const text = ws(rnd) + go(tree) + ws(rnd);
  return { text, expect };
}

/** Codes for reasons `JSON.parse` does not check: the only rejections allowed of a text it accepts. */
export const policyCodes: ReadonlySet<JsonSyntaxErrorCode> = new Set<JsonSyntaxErrorCode>([
  "duplicate-name",
  "invalid-utf8",
  "byte-order-mark",
  "lone-surrogate",
  "number-out-of-range",
  "integer-out-of-range",
  "depth-exceeded",
  "string-too-long",
  "too-many-members",
  "too-many-items",
]);

/** Bytes worth planting: JSON punctuation, escapes, UTF-8 lead and continuation bytes, a BOM's. */
const INTERESTING = [
  0x00, 0x09, 0x0a, 0x0d, 0x20, 0x22, 0x2c, 0x2d, 0x2b, 0x2e, 0x30, 0x31, 0x39, 0x3a, 0x45, 0x5b, 0x5c, 0x5d, 0x65,
  0x66, 0x6e, 0x74, 0x75, 0x7b, 0x7d, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5,
  0xff, 0x44, 0x38, 0x61,
];

/** One edit of a byte string. */
export type Mutation =
  | { readonly op: "set"; readonly at: number; readonly byte: number }
  | { readonly op: "insert"; readonly at: number; readonly bytes: readonly number[] }
  | { readonly op: "delete"; readonly at: number; readonly n: number }
  | { readonly op: "copy"; readonly from: number; readonly n: number; readonly at: number };

const byteArb = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...INTERESTING));
const at = fc.nat({ max: 1 << 20 });

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("set" as const), at, byte: byteArb }),
  fc.record({ op: fc.constant("insert" as const), at, bytes: fc.array(byteArb, { minLength: 1, maxLength: 4 }) }),
  fc.record({ op: fc.constant("delete" as const), at, n: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ op: fc.constant("copy" as const), from: at, n: fc.integer({ min: 1, max: 24 }), at }),
);

/** Applies the mutations in order; positions wrap around the current length. */
export function mutate(bytes: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  const b = Array.from(bytes);
  for (const m of mutations) {
    const len = b.length;
    switch (m.op) {
      case "set":
        if (len > 0) b[m.at % len] = m.byte;
        break;
      case "insert":
        b.splice(m.at % (len + 1), 0, ...m.bytes);
        break;
      case "delete":
        if (len > 0) b.splice(m.at % len, m.n);
        break;
      case "copy":
        if (len > 0) {
          const from = m.from % len;
          b.splice(m.at % (len + 1), 0, ...b.slice(from, from + m.n));
        }
        break;
    }
  }
  return Uint8Array.from(b);
}

/**
 * Whether `a` is exactly what `JSON.parse` returned as `b`: same types, numbers equal by
 * `Object.is` (so -0 is not 0), same member names in the same order, plain prototypes, every
 * member an own enumerable writable configurable data property.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a !== "object" || a === null || b === null) return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const da = Object.getOwnPropertyDescriptors(a);
  const db = Object.getOwnPropertyDescriptors(b as object);
  const ka = Reflect.ownKeys(da);
  const kb = Reflect.ownKeys(db);
  if (ka.length !== kb.length) return false;
  for (let k = 0; k < ka.length; k++) {
    if (ka[k] !== kb[k]) return false;
    const pa = da[ka[k] as string]!;
    const pb = db[kb[k] as string]!;
    if (pa.enumerable !== pb.enumerable || pa.writable !== pb.writable || pa.configurable !== pb.configurable)
      return false;
    if ("get" in pa || "set" in pa) return false;
    if (!sameJson(pa.value, pb.value)) return false;
  }
  return true;
}
