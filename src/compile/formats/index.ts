/**
 * The asserted formats: each a JavaScript function `(string) => boolean` emitted into a
 * module only when a form uses it.
 *
 * @module
 */

/** A format check: the source of `function <name>(s) {…}` plus module-scope declarations. */
export interface FormatCheck {
  readonly name: string;
  readonly source: string;
}

const checks: ReadonlyArray<FormatCheck> = [];

/** Names of the formats the compiler asserts. */
export const formatNames: ReadonlyArray<string> = checks.map((check) => check.name);

/** The check for a supported format. */
export function formatCheck(name: string): FormatCheck {
  const check = checks.find((candidate) => candidate.name === name);
  if (check === undefined) throw new Error(`no format ${name}`);
  return check;
}
