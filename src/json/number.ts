/**
 * Numbers of a JSON text (RFC 8259 §6) read from its bytes, under the I-JSON (RFC 7493 §2.2)
 * policy of DESIGN.md §6.
 *
 * @module
 */
import { fail, failAt } from "./reject.ts";
import { cursor } from "./string.ts";
import { decoder } from "./utf8.ts";

const MAX_SAFE_INTEGER = 9007199254740991;

/** 10⁰…10²², the powers of ten a double holds exactly. */
const POW10 = new Float64Array(23);
for (let k = 0, p = 1; k < 23; k++, p *= 10) POW10[k] = p;

/** Reads the number starting at `start` (a `-` or a digit); sets {@link cursor}.end after it. */
export function readNumber(b: Uint8Array, start: number): number {
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
    return failAt(b, i);
  }
  if (c !== 0x2e && c !== 0x65 && c !== 0x45) {
    cursor.end = i;
    if (m > MAX_SAFE_INTEGER) fail("integer-out-of-range", start);
    return negative ? -m : m;
  }
  let p = 0;
  if (c === 0x2e) {
    c = b[++i]!;
    if (!(c >= 0x30 && c <= 0x39)) failAt(b, i);
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
    if (!(c >= 0x30 && c <= 0x39)) failAt(b, i);
    let e = 0;
    do {
      if (e < 1e9) e = e * 10 + (c - 0x30);
      c = b[++i]!;
    } while (c >= 0x30 && c <= 0x39);
    p += negativeExponent ? -e : e;
  }
  cursor.end = i;
  // Clinger's fast path: m and 10^|p| are exact doubles, so one IEEE operation rounds the
  // value correctly, the same double JSON.parse's correctly rounded conversion gives.
  if (m <= MAX_SAFE_INTEGER && p >= -22 && p <= 22) {
    const v = p >= 0 ? m * POW10[p]! : m / POW10[-p]!;
    return negative ? -v : v;
  }
  // The grammar is checked above; Number() rounds a JSON number exactly as JSON.parse does.
  const value = +decoder.decode(b.subarray(start, i));
  if (value === Infinity || value === -Infinity) fail("number-out-of-range", start);
  return value;
}

