/**
 * Text from a server, made safe to print on a terminal. Whatever an address sends (a run's
 * `statusMessage`, a header field, a `Location`, an error message that quotes its content) is
 * the server's, and a terminal obeys control characters: a NUL, a line break that fakes a line
 * of the CLI's own, an ESC that starts a sequence (colours, cursor moves, a window title,
 * OSC 8 links, ECMA-48 §5.3). Every place the CLI prints server text goes through
 * {@link terminalText}; JSON printed for a reader goes through {@link terminalJson}.
 *
 * @see ECMA-48 §5 (C0 and C1 control functions); Unicode UAX #9 §2 (explicit directional formatting)
 * @module
 */

/**
 * The code points shown escaped: C0 controls and DEL (U+0000–U+001F, U+007F), C1 controls
 * (U+0080–U+009F: CSI U+009B and OSC U+009D start sequences on their own), the line and
 * paragraph separators (U+2028, U+2029), and the explicit bidirectional controls (U+061C,
 * U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which reorder what a reader sees.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching C0 controls is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** {@link UNSAFE} but C0, which `JSON.stringify` escapes in strings itself (its own line breaks are the layout's). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** A UTF-16 code unit of a surrogate pair with no partner (no character). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The longest server text printed, in code points (more is cut and ends with `…`). */
export const MAX_TERMINAL_TEXT = 300;

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * `text` (from a server) as one line a terminal shows as it is: each code point above written
 * `\uXXXX` (so an ESC is the six characters `\u001b`, and no sequence starts), a lone surrogate
 * U+FFFD, and at most `max` code points (then cut, ending with `…`).
 *
 * @param max - the most code points kept (default {@link MAX_TERMINAL_TEXT}).
 * @example terminalText("\u0000\n\u001b[31mred") // "\\u0000\\u000a\\u001b[31mred"
 */
export function terminalText(text: string, max: number = MAX_TERMINAL_TEXT): string {
  const whole = text.replace(LONE_SURROGATE, "\ufffd");
  const points = Array.from(whole);
  const kept = points.length > max ? `${points.slice(0, Math.max(0, max - 1)).join("")}…` : whole;
  return kept.replace(UNSAFE, escaped);
}

/**
 * `value` as JSON (`JSON.stringify(value, null, indent)`) that a terminal shows as it is: the
 * code points {@link terminalText} escapes, written as JSON's own `\uXXXX` escapes (which
 * `JSON.stringify` leaves raw for C1, U+2028, U+2029 and the bidirectional controls). The
 * JSON is the same value; nothing is cut (`undefined` is written `null`).
 */
export function terminalJson(value: unknown, indent = 2): string {
  return (JSON.stringify(value, null, indent) ?? "null").replace(UNSAFE_IN_JSON, escaped);
}
