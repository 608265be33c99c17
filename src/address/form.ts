/**
 * The build output for one form: what the generated module `<name>.js` (built from
 * `forms/<name>.json`) exports as `form`, and what {@link address} serves and checks.
 *
 * GET and POST are both answered from this one object, built from one file, so the form that
 * is published and the form that is enforced cannot diverge (draft: Verification, req. 3; V3).
 *
 * @module
 */

/**
 * A form's validator: true when `value` is valid against the form. Never throws; never mutates
 * `value`. The generated one carries `parsed`, its module's `validateParsed`: the same check,
 * faster, for a value parsed from JSON text (src/compile/README.md). The doors call `parsed`
 * only when the very function they were given carries it, so a `validate` replaced or wrapped
 * (`{...form, validate}`) is what runs.
 *
 * @typeParam Act - the TypeScript type of a valid act body.
 */
export type FormValidate<Act = unknown> = ((value: unknown) => value is Act) & {
  readonly parsed?: (value: unknown) => value is Act;
};

/**
 * A form compiled at build time by `gpt-address/compile`.
 *
 * @typeParam Act - the TypeScript type of a valid act body, generated from the form.
 */
export interface CompiledForm<Act = unknown> {
  /** The form's name: its file name in `forms/` without `.json` (`page` for `forms/page.json`). */
  readonly name: string;
  /**
   * The arrival document `{p, m, s}` exactly as GET serves it: the JSON text of the form
   * file, whose UTF-8 encoding is the response content (draft: Arrival).
   */
  readonly arrival: string;
  /** Strong entity-tag of the UTF-8 bytes of {@link arrival}, quoted (RFC 9110 §8.8.3). */
  readonly etag: string;
  /** The HTML page for people (draft: Representation for Human Readers), rendered at build time. */
  readonly page: string;
  /** Strong entity-tag of the UTF-8 bytes of {@link page}, quoted. */
  readonly pageEtag: string;
  /**
   * The `Content-Security-Policy` field of {@link page}: its one inline script allowed by hash,
   * `fetch` to its own origin only, nothing loaded, no framing.
   */
  readonly pageContentSecurityPolicy: string;
  /**
   * The same page built for an MCP Apps host (`text/html;profile=mcp-app`): it cannot fetch
   * (no `connect-src`) and sends the act as the host's `tools/call` of the tool named
   * {@link name}. Served by `mcp()` as `resources/read` of `ui://<name>/form`. Absent from a
   * form built before it existed: then the tool declares no UI.
   */
  readonly appPage?: string;
  /**
   * The generated validator for `s`: true when `value` is valid against the form.
   * Never throws; never mutates `value`. Its `parsed`: {@link FormValidate}.
   */
  readonly validate: FormValidate<Act>;
  /**
   * After `validate` returned false: the JSON Pointer, into the form `s`, of the keyword that
   * failed (a `keywordLocation`, such as `/properties/title/maxLength`). For logs only; never
   * sent on the wire (R2).
   */
  readonly lastFailure: () => string;
  /**
   * The deepest nesting of arrays and objects a valid act can have, plus one; or `null` when
   * the form admits unbounded nesting. The parser's default `maxDepth` (DESIGN.md §6).
   */
  readonly maxDepth: number | null;
  /**
   * The longest string, value or member name, a valid act can hold, in UTF-16 code units
   * (`admittedStringLength`: a `maxLength` of L counts as 2·L); or `null` when the form admits
   * unbounded strings. The parser's default `maxStringLength` (DESIGN.md §6).
   */
  readonly maxStringLength: number | null;
  /**
   * The most members any object of a valid act can have (`admittedMembers`: a closed object's
   * properties, `maxProperties`); or `null` when the form admits an object with open names and
   * no `maxProperties`. The parser's default `maxMembers`. Absent from a form built before it
   * existed: no bound.
   */
  readonly maxMembers?: number | null;
  /**
   * The most items any array of a valid act can have (`admittedItems`: `maxItems`,
   * `prefixItems` with `items: false`); or `null` when unbounded. The parser's default
   * `maxItems`. Absent from a form built before it existed: no bound.
   */
  readonly maxItems?: number | null;
  /**
   * The longest valid act as any serializer writes it, in bytes (`admittedBytes`: every
   * character escaped, numbers in 32 bytes, a whitespace margin before every value; see
   * src/compile/README.md); or `null` when the form does not bound it. The default `maxBytes`
   * when it is below 1 MiB. Absent from a form built before it existed: 1 MiB.
   */
  readonly maxBytes?: number | null;
}
