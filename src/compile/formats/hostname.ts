/**
 * `hostname`: RFC 1123 §2.1 labels (letters, digits, inner hyphens; 1–63 octets; 253 in all,
 * no trailing dot), where an `xn--` label must be a Punycode A-label (RFC 5890 §2.3.2.1)
 * whose U-label passes the checks of RFC 5891 §4.2.3 and RFC 5892's contextual rules: those
 * that need no Unicode tables beyond the RegExp property escapes, and A.1 (ZERO WIDTH
 * NON-JOINER) with the Joining_Type classes of `./joining-type.ts` (generated from the UCD by
 * `scripts/joining-types.ts`).
 *
 * @module
 */
import type { FormatCheck } from "./format-check.ts";
import { JOINS_LEFT, JOINS_RIGHT, TRANSPARENT } from "./joining-type.ts";

/** RFC 3492 Punycode decoding; null for an invalid encoding. */
const punycode = String.raw`function F_punycode(input) {
  const base = 36, tMin = 1, tMax = 26;
  const adapt = (delta, points, first) => {
    delta = first ? Math.floor(delta / 700) : delta >> 1;
    delta += Math.floor(delta / points);
    let k = 0;
    for (; delta > 455; k += base) delta = Math.floor(delta / 35);
    return k + Math.floor((36 * delta) / (delta + 38));
  };
  const out = [];
  const split = input.lastIndexOf("-");
  for (let j = 0; j < split; j++) out.push(input.charCodeAt(j));
  let n = 128, i = 0, bias = 72;
  for (let k = split + 1; k < input.length; ) {
    const old = i;
    let w = 1;
    for (let t = base; ; t += base) {
      if (k >= input.length) return null;
      const c = input.charCodeAt(k++);
      const digit = c >= 48 && c <= 57 ? c - 22 : c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 97 : base;
      if (digit >= base) return null;
      i += digit * w;
      const threshold = t <= bias ? tMin : t >= bias + tMax ? tMax : t - bias;
      if (digit < threshold) break;
      w *= base - threshold;
      if (i > 0x7fffffff) return null;
    }
    bias = adapt(i - old, out.length + 1, old === 0);
    n += Math.floor(i / (out.length + 1));
    i %= out.length + 1;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null;
    out.splice(i++, 0, n);
  }
  return String.fromCodePoint(...out);
}`;

const uLabel = String.raw`const F_PVALID = /^[\p{L}\p{N}\p{M}\u00df\u03c2\u06fd\u06fe\u0f0b\u3007\u00b7\u0375\u05f3\u05f4\u30fb\u200c\u200d-]+$/u;
const F_DISALLOWED = /[\u0640\u07fa\u302e\u302f\u3031-\u3035\u303b]/u;
const F_VIRAMA = /[\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d3b\u0d3c\u0d4d\u0dca\u0e3a\u0eba\u0f84\u1039\u103a\u1714\u1734\u17d2\u1a60\u1b44\u1baa\u1bab\u1bf2\u1bf3\u2d7f\ua806\ua8c4\ua953\ua9c0\uaaf6\uabed]$/u;
const F_ZWNJ_BEFORE = /${JOINS_LEFT}${TRANSPARENT}*$/u;
const F_ZWNJ_AFTER = /^${TRANSPARENT}*${JOINS_RIGHT}/u;
function F_ulabel(label) {
  if (label === null || !/[^\x00-\x7f]/.test(label) || !F_PVALID.test(label) || F_DISALLOWED.test(label)) return false;
  if (label.startsWith("-") || label.endsWith("-") || label.slice(2, 4) === "--" || /^\p{M}/u.test(label)) return false;
  const cps = Array.from(label);
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i], before = cps[i - 1] ?? "", after = cps[i + 1] ?? "";
    if (c === "\u00b7" && (before !== "l" || after !== "l")) return false;
    if (c === "\u0375" && !/\p{Script=Greek}/u.test(after)) return false;
    if ((c === "\u05f3" || c === "\u05f4") && !/\p{Script=Hebrew}/u.test(before)) return false;
    // RFC 5892 A.1: ZWNJ after a virama, or between joining letters (L/D, T*, ZWNJ, T*, R/D); A.2: ZWJ after a virama.
    if (c === "\u200c" && !F_VIRAMA.test(before) && !(F_ZWNJ_BEFORE.test(cps.slice(0, i).join("")) && F_ZWNJ_AFTER.test(cps.slice(i + 1).join("")))) return false;
    if (c === "\u200d" && !F_VIRAMA.test(before)) return false;
  }
  if (label.includes("\u30fb") && !/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(label.replaceAll("\u30fb", ""))) return false;
  return !(/[\u0660-\u0669]/.test(label) && /[\u06f0-\u06f9]/.test(label));
}`;

export const hostname: FormatCheck = {
  name: "hostname",
  fn: "format_hostname",
  source: String.raw`${punycode}
${uLabel}
const F_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
function format_hostname(s) {
  if (s.length === 0 || s.length > 253) return false;
  for (const label of s.split(".")) {
    if (!F_LABEL.test(label)) return false;
    if (label[2] === "-" && label[3] === "-" && (!/^xn--/i.test(label) || !F_ulabel(F_punycode(label.slice(4))))) return false;
  }
  return true;
}`,
};
