/**
 * The `Prefer` request field (RFC 7240) as the HTTP door reads it: only `respond-async` (§4.1)
 * and `wait` (§4.3) mean anything here; every other preference is ignored, as the RFC asks of
 * a server that does not support one (§2).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7240
 * @module
 */

/** What a request prefers, of what the address can honour. */
export interface Preferences {
  /** `respond-async`: the client can follow a run (a `202 Accepted` with its URL). */
  readonly respondAsync: boolean;
  /**
   * `wait=N`: how long the client would wait for the act's own answer, in seconds (a
   * non-negative integer; a larger value than `Number.MAX_SAFE_INTEGER` reads as that), or
   * `undefined` when not given or not a delta-seconds value.
   */
  readonly wait: number | undefined;
}

const NONE: Preferences = Object.freeze({ respondAsync: false, wait: undefined });
const DELTA_SECONDS = /^[0-9]+$/u;
const QUOTED_PAIR = /\\(.)/gu;

/**
 * Reads the `Prefer` field (every `Prefer` line of the request, as `Headers.get` joins them with
 * `, `). Tolerant: names are compared case-insensitively, whitespace around `=` and `;` is
 * allowed (BWS, OWS), a value may be a token or a quoted-string, parameters after `;` are
 * skipped, an element that does not parse is skipped, and of a preference given twice only the
 * first counts (§2).
 *
 * @param field - the field's value, or `null` when absent.
 * @returns the {@link Preferences}; never throws.
 * @example
 * ```ts
 * readPrefer("respond-async, wait=5"); // { respondAsync: true, wait: 5 }
 * readPrefer("return=minimal");        // { respondAsync: false, wait: undefined }
 * ```
 */
export function readPrefer(field: string | null): Preferences {
  if (field === null) return NONE;
  let respondAsync: boolean | undefined;
  let wait: number | null | undefined;
  for (const element of elements(field)) {
    const preference = element.split(";", 1)[0]!;
    const equals = preference.indexOf("=");
    const name = (equals === -1 ? preference : preference.slice(0, equals)).trim().toLowerCase();
    const value = equals === -1 ? "" : unquote(preference.slice(equals + 1).trim());
    if (name === "respond-async") respondAsync ??= true;
    else if (name === "wait" && wait === undefined) {
      // A wait that is no delta-seconds is an invalid preference: ignored, and still the first.
      wait = DELTA_SECONDS.test(value) ? Math.min(Number(value), Number.MAX_SAFE_INTEGER) : null;
    }
  }
  if (respondAsync === undefined && wait === undefined) return NONE;
  return { respondAsync: respondAsync === true, wait: wait ?? undefined };
}

/** The comma-separated elements of a list field, commas inside a quoted-string kept. */
function elements(field: string): string[] {
  const found: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < field.length; i++) {
    const char = field[i];
    if (quoted && char === "\\") i++;
    else if (char === '"') quoted = !quoted;
    else if (char === "," && !quoted) {
      found.push(field.slice(start, i));
      start = i + 1;
    }
  }
  found.push(field.slice(start));
  return found;
}

/** A quoted-string's content (RFC 9110 §5.6.4: quoted-pairs unescaped), a token as it is. */
function unquote(value: string): string {
  if (value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return value;
  return value.slice(1, -1).replace(QUOTED_PAIR, "$1");
}
