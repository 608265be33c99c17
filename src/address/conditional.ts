/**
 * Conditional GET: `If-None-Match` against the entity-tag computed at build time.
 *
 * @module
 */

/**
 * Whether an `If-None-Match` field matches `etag`, so that a GET or HEAD may answer 304.
 *
 * Uses the weak comparison RFC 9110 prescribes for `If-None-Match` (a `W/` prefix is ignored);
 * `*` matches any current representation. Entity-tags may contain commas, so the list is
 * scanned tag by tag rather than split. A malformed field matches nothing: the full response
 * is always a correct answer.
 *
 * @param field - the `If-None-Match` field value, or `null` when absent.
 * @param etag - the representation's entity-tag, quoted (`"…"`).
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.2
 */
export function matchesIfNoneMatch(field: string | null, etag: string): boolean {
  if (field === null) return false;
  if (field.trim() === "*") return true;
  const length = field.length;
  let i = 0;
  for (;;) {
    // #entity-tag: OWS, then the tag, then OWS and a comma or the end (RFC 9110 §5.6.1).
    while (i < length && isListSpace(field.charCodeAt(i))) i++;
    if (i === length) return false;
    if (field.startsWith("W/", i)) i += 2;
    if (field.charCodeAt(i) !== 0x22) return false;
    const end = field.indexOf('"', i + 1);
    if (end === -1) return false;
    const matches = end + 1 - i === etag.length && field.startsWith(etag, i);
    i = end + 1;
    while (i < length && isSpace(field.charCodeAt(i))) i++;
    if (i < length && field.charCodeAt(i) !== 0x2c) return false;
    if (matches) return true;
  }
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09;
const isListSpace = (c: number): boolean => isSpace(c) || c === 0x2c;
