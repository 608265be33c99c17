/**
 * JSON Pointer (RFC 6901) helpers for schema locations.
 *
 * @module
 */

/** Escapes one reference token: `~` as `~0`, `/` as `~1` (RFC 6901 §3). */
export function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Unescapes one reference token: `~1` as `/`, then `~0` as `~` (RFC 6901 §4). */
export function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** Appends reference tokens to a JSON Pointer. */
export function childPointer(pointer: string, ...tokens: ReadonlyArray<string | number>): string {
  let out = pointer;
  for (const token of tokens) out += `/${escapeToken(String(token))}`;
  return out;
}

/**
 * Splits a JSON Pointer into unescaped reference tokens, or returns null when it is malformed
 * (not starting with `/`, or a `~` not followed by `0` or `1`).
 */
export function parsePointer(pointer: string): string[] | null {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return null;
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split("/")) {
    if (/~(?![01])/.test(raw)) return null;
    tokens.push(unescapeToken(raw));
  }
  return tokens;
}
