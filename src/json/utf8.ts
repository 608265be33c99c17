/**
 * UTF-8 (RFC 3629) for the parser: its two decoders, which one decodes a run of bytes, and where
 * a sequence goes wrong.
 *
 * @module
 */

/**
 * The decoder of short texts and runs (at most {@link LOOSE_MAX} bytes), not `fatal`: where
 * bytes are not well-formed UTF-8 (RFC 3629: overlong forms, encoded surrogates, code points
 * above U+10FFFF, truncated sequences) it yields U+FFFD instead of throwing (WHATWG Encoding,
 * UTF-8 decoder), so a decoded string without U+FFFD came from well-formed bytes; one with it,
 * from bytes that {@link invalidUtf8At} must check (well-formed bytes give it only as EF BF BD).
 * `ignoreBOM` keeps a U+FEFF at the start of a run as the character it is. Not `fatal` there,
 * because a rejection of a small act must be cheap: on Node 24 a `fatal` decoder's TypeError
 * cost about 5–7 µs, about as much as parsing and validating a valid 1 KiB act, and about 20 µs
 * in workerd; the bench's invalid-UTF-8 mutations of the 1 KiB page body cost about 4× a valid
 * one to reject (issue 16).
 */
export const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * The decoder of longer texts and runs, `fatal`: replacing bad bytes is slow (Node 24: about
 * 4 ns a byte, 1.3 ms for 256 KiB of 0xFF against one 5 µs throw), so above
 * {@link LOOSE_MAX} the throw is the cheaper rejection.
 */
export const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The most bytes {@link decoder} is given, 2 KiB: replacing as many bad bytes costs about one
 * throw of {@link strictDecoder} (about 8 µs on Node 24), so neither way of rejecting costs much
 * more than the other.
 */
export const LOOSE_MAX = 2048;

/**
 * The first byte of `b[start..stop)` that is not UTF-8, or -1, given `decoded`, what
 * {@link decoder} made of those bytes: they are checked only when it holds a U+FFFD.
 */
export function badByteIn(decoded: string, b: Uint8Array, start: number, stop: number): number {
  return decoded.indexOf("\uFFFD") === -1 ? -1 : invalidUtf8At(b, start, stop);
}

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
