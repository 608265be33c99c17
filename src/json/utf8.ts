/**
 * UTF-8 (RFC 3629) for the parser: the one strict decoder, and where a sequence goes wrong.
 *
 * @module
 */

/**
 * The one decoder of string bytes, not `fatal`: where bytes are not well-formed UTF-8 (RFC
 * 3629: overlong forms, encoded surrogates, code points above U+10FFFF, truncated sequences) it
 * yields U+FFFD instead of throwing (WHATWG Encoding, UTF-8 decoder), so a decoded string
 * without U+FFFD came from well-formed bytes; one with it, from bytes that {@link invalidUtf8At}
 * must check (well-formed bytes give it only as EF BF BD). `ignoreBOM` keeps a U+FEFF at the start of a run
 * as the character it is. Not `fatal`, because rejecting must be cheap: on Node 24 a `fatal`
 * decoder's TypeError cost about 7 µs, more than parsing and validating a valid 1 KiB act, and
 * an invalid-UTF-8 body cost 6× a valid one to reject (issue 16).
 */
export const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * The offset of the first byte in `b[start..stop)` that does not begin a well-formed UTF-8
 * sequence (RFC 3629 §4), or -1 if there is none.
 */
export function invalidUtf8At(b: Uint8Array, start: number, stop: number): number {
  let i = start;
  while (i < stop) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const c1 = i + 1 < stop ? b[i + 1]! : 0;
    const c2 = i + 2 < stop ? b[i + 2]! : 0;
    const c3 = i + 3 < stop ? b[i + 3]! : 0;
    if (c >= 0xc2 && c <= 0xdf && (c1 & 0xc0) === 0x80) i += 2;
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
  return -1;
}
