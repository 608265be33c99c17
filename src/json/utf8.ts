/**
 * UTF-8 (RFC 3629) for the parser: the one strict decoder, and where a sequence goes wrong.
 *
 * @module
 */

/**
 * The one decoder of runs of string bytes: `fatal` rejects what RFC 3629 does not allow
 * (overlong forms, encoded surrogates, code points above U+10FFFF, truncated sequences), and
 * `ignoreBOM` keeps a U+FEFF at the start of a run as the character it is.
 */
export const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The offset of the first byte in `b[start..stop)` that does not begin a well-formed UTF-8
 * sequence (RFC 3629 §4), or `start` if there is none (never expected).
 */
export function invalidUtf8At(b: Uint8Array, start: number, stop: number): number {
  let i = start;
  while (i < stop) {
    const c = b[i]!;
    const c1 = i + 1 < stop ? b[i + 1]! : 0;
    const c2 = i + 2 < stop ? b[i + 2]! : 0;
    const c3 = i + 3 < stop ? b[i + 3]! : 0;
    if (c < 0x80) i += 1;
    else if (c >= 0xc2 && c <= 0xdf && (c1 & 0xc0) === 0x80) i += 2;
    else if (
      c >= 0xe0 &&
      c <= 0xef &&
      c1 >= (c === 0xe0 ? 0xa0 : 0x80) &&
      c1 <= (c === 0xed ? 0x9f : 0xbf) &&
      (c2 & 0xc0) === 0x80
    )
      i += 3;
    else if (
      c >= 0xf0 &&
      c <= 0xf4 &&
      c1 >= (c === 0xf0 ? 0x90 : 0x80) &&
      c1 <= (c === 0xf4 ? 0x8f : 0xbf) &&
      (c2 & 0xc0) === 0x80 &&
      (c3 & 0xc0) === 0x80
    )
      i += 4;
    else return i;
  }
  return start;
}
