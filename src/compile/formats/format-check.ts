/**
 * The shape of an asserted format: the JavaScript source of `function <fn>(s) { … }` (plus any
 * module-scope constants it needs, all prefixed `F_`), and the checks it calls.
 *
 * @module
 */

/** One asserted format. */
export interface FormatCheck {
  /** The `format` value, as JSON Schema spells it. */
  readonly name: string;
  /** The generated function's identifier. */
  readonly fn: string;
  /** Plain JavaScript declaring `fn`; written with String.raw so regex escapes survive. */
  readonly source: string;
  /** Checks `source` calls, emitted before it. */
  readonly uses?: ReadonlyArray<FormatCheck>;
}
