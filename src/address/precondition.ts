/**
 * Form pinning (the draft's open question X2, form change; an extension): an act may carry
 * `If-Match` with the entity-tag of the arrival it was written against, and is refused with 412
 * when the address now publishes another form. Without `If-Match` nothing changes.
 *
 * @module
 */

/**
 * Whether an `If-Match` field lets an act against the form whose current entity-tags are
 * `etags` go on (RFC 9110 §13.1.1): `*` matches, as does any listed tag equal to one of `etags`
 * by the strong comparison (a weak `W/` tag never matches). An absent field lets every act
 * through, and so does an empty one (only spaces or nothing): workerd drops an empty field
 * before the address sees it and Node keeps it, so it is read as absent on every runtime
 * rather than as a list of no tags. A malformed field matches nothing.
 *
 * @param field - the `If-Match` field value, or `null` when absent.
 * @param etags - the form's entity-tags, quoted (`"…"`): the JSON arrival's and the page's.
 * @returns `true` when the act may go on, `false` when it must be answered 412.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.1
 */
export function satisfiesIfMatch(field: string | null, etags: readonly string[]): boolean {
  if (field === null) return true;
  const trimmed = field.trim();
  if (trimmed === "" || trimmed === "*") return true;
  const length = field.length;
  let i = 0;
  let matched = false;
  for (;;) {
    // #entity-tag: OWS, a tag, OWS, then a comma or the end (RFC 9110 §5.6.1).
    while (i < length && (isSpace(field.charCodeAt(i)) || field.charCodeAt(i) === 0x2c)) i++;
    if (i === length) return matched;
    const weak = field.startsWith("W/", i);
    if (weak) i += 2;
    if (field.charCodeAt(i) !== 0x22) return false;
    const end = field.indexOf('"', i + 1);
    if (end === -1) return false;
    const tag = field.slice(i, end + 1);
    if (!weak && etags.includes(tag)) matched = true;
    i = end + 1;
    while (i < length && isSpace(field.charCodeAt(i))) i++;
    if (i < length && field.charCodeAt(i) !== 0x2c) return false;
  }
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09;
