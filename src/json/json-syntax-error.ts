/**
 * The one error {@link parseJson} throws for bytes it does not accept.
 *
 * @module
 */

/**
 * Why a text was rejected: a stable string, safe to log and to match on.
 *
 * Grammar (RFC 8259), rejected by `JSON.parse` as well:
 * - `unexpected-byte`: a byte the grammar does not allow at that point (outside a string this
 *   includes every byte ≥ 0x80).
 * - `unexpected-end`: the text ends before the value is complete (the empty text included).
 * - `trailing-bytes`: bytes other than whitespace after the value (RFC 8259 §2, V2).
 * - `control-character`: an unescaped byte below 0x20 inside a string (RFC 8259 §7).
 * - `invalid-escape`: a backslash not followed by one of `"\/bfnrt` or by `u` and four hex digits.
 *
 * I-JSON (RFC 7493) and this project's policy, accepted by `JSON.parse`:
 * - `duplicate-name`: a member name already present in the same object, compared after
 *   unescaping (RFC 7493 §2.3, V2).
 * - `invalid-utf8`: a string holding bytes that are not UTF-8 (RFC 3629: overlong forms, encoded
 *   surrogates, code points above U+10FFFF, truncated sequences, stray continuation bytes;
 *   RFC 7493 §2.1).
 * - `byte-order-mark`: the text starts with EF BB BF (RFC 8259 §8.1).
 * - `lone-surrogate`: a `\u` escape of a surrogate that is not part of a high–low pair
 *   (RFC 7493 §2.1).
 * - `number-out-of-range`: a number whose magnitude rounds to infinity as an IEEE 754 double
 *   (RFC 7493 §2.2).
 * - `integer-out-of-range`: an integer literal (no fraction, no exponent) outside
 *   ±(2⁵³−1) (RFC 7493 §2.2).
 * - `depth-exceeded`: more nested arrays and objects than `maxDepth`.
 * - `string-too-long`: a member name or string value of more UTF-16 code units than
 *   `maxStringLength`.
 * - `too-many-members`: an object of more members than `maxMembers`.
 * - `too-many-items`: an array of more elements than `maxItems`.
 */
export type JsonSyntaxErrorCode =
  | "unexpected-byte"
  | "unexpected-end"
  | "trailing-bytes"
  | "control-character"
  | "invalid-escape"
  | "duplicate-name"
  | "invalid-utf8"
  | "byte-order-mark"
  | "lone-surrogate"
  | "number-out-of-range"
  | "integer-out-of-range"
  | "depth-exceeded"
  | "string-too-long"
  | "too-many-members"
  | "too-many-items";

const descriptions: Readonly<Record<JsonSyntaxErrorCode, string>> = {
  "unexpected-byte": "unexpected byte",
  "unexpected-end": "unexpected end of text",
  "trailing-bytes": "bytes after the value",
  "control-character": "unescaped control character in a string",
  "invalid-escape": "invalid escape in a string",
  "duplicate-name": "duplicate member name",
  "invalid-utf8": "invalid UTF-8 in a string",
  "byte-order-mark": "byte order mark",
  "lone-surrogate": "lone surrogate escape",
  "number-out-of-range": "number outside the double range",
  "integer-out-of-range": "integer literal outside ±(2^53-1)",
  "depth-exceeded": "nesting deeper than maxDepth",
  "string-too-long": "string longer than maxStringLength",
  "too-many-members": "object with more members than maxMembers",
  "too-many-items": "array with more elements than maxItems",
};

/**
 * A JSON text was rejected by {@link parseJson}.
 *
 * The message names the reason and the byte offset only, never the text's content, so it is
 * safe to log an untrusted body's error.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8259 RFC 8259 (JSON)
 * @see https://www.rfc-editor.org/rfc/rfc7493 RFC 7493 (I-JSON)
 */
export class JsonSyntaxError extends SyntaxError {
  /** Why the text was rejected. */
  readonly code: JsonSyntaxErrorCode;
  /** Offset in bytes from the start of the text of the byte where the rejection was decided. */
  readonly offset: number;

  constructor(code: JsonSyntaxErrorCode, offset: number) {
    super(`${descriptions[code]} at byte ${offset}`);
    this.name = "JsonSyntaxError";
    this.code = code;
    this.offset = offset;
  }

  /**
   * The message with the line and column of {@link offset} in `text`, the bytes that were
   * parsed: `duplicate member name at line 3, column 5 (byte 41)`. For people reading a file
   * or a development-mode answer; it costs one pass over the text up to the offset, so the
   * wire path keeps {@link message}.
   *
   * @param text - the very bytes given to `parseJson`.
   */
  messageIn(text: Uint8Array): string {
    const { line, column } = textPosition(text, this.offset);
    return `${descriptions[this.code]} at line ${line}, column ${column} (byte ${this.offset})`;
  }
}

/**
 * The 1-based line and column of the byte at `offset` in UTF-8 `text`, as an editor shows
 * them: a line ends at LF, CR LF or a lone CR; the column counts characters (code points, one
 * per UTF-8 lead byte), not bytes.
 *
 * @param offset - a byte offset, 0 ≤ offset ≤ `text.length` (clamped to that range).
 */
export function textPosition(text: Uint8Array, offset: number): { line: number; column: number } {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let column = 1;
  for (let i = 0; i < end; i++) {
    const byte = text[i] as number;
    if (byte === 0x0a || (byte === 0x0d && text[i + 1] !== 0x0a)) {
      line++;
      column = 1;
    } else if ((byte & 0xc0) !== 0x80 && byte !== 0x0d) {
      column++;
    }
  }
  return { line, column };
}
