/**
 * The Content-Security-Policy of every HTML document this package and its example serve: the
 * one place its directives are written.
 *
 * @module
 */

/** What a document may do beyond showing text with inline styles. */
export interface PolicyOptions {
  /**
   * `sha256-…` sources (base64, without quotes) of the inline scripts the document may run.
   * None: no script runs at all.
   */
  readonly scriptHashes?: readonly string[];
  /** Whether scripts may `fetch` the document's own origin (`connect-src 'self'`). */
  readonly connectSelf?: boolean;
  /**
   * Whether to add `frame-ancestors 'none'`, which only a response field can carry (a `<meta>`
   * element's policy ignores it, and browsers warn about it there).
   */
  readonly field?: boolean;
}

/**
 * The policy of a document: nothing loads (`default-src 'none'`, `img-src 'none'`), styles are
 * inline, no `<base>`, no form navigates anywhere (acts are sent by `fetch`), and only the
 * inline scripts named by hash run.
 *
 * @param options - {@link PolicyOptions}.
 * @returns the policy text, for a `Content-Security-Policy` field or `<meta http-equiv>`.
 * @see https://www.w3.org/TR/CSP3/#directive-script-src (hash sources)
 */
export function contentSecurityPolicy(options: PolicyOptions = {}): string {
  const directives = ["default-src 'none'"];
  const hashes = options.scriptHashes ?? [];
  if (hashes.length > 0) directives.push(`script-src ${hashes.map((hash) => `'sha256-${hash}'`).join(" ")}`);
  if (options.connectSelf === true) directives.push("connect-src 'self'");
  directives.push("style-src 'unsafe-inline'", "img-src 'none'", "base-uri 'none'", "form-action 'none'");
  if (options.field === true) directives.push("frame-ancestors 'none'");
  return directives.join("; ");
}

/** The policy of a document that runs no script (a published page, an index), as a `<meta>`. */
export const NO_SCRIPT_POLICY: string = contentSecurityPolicy();

/** The same policy as a response field, with `frame-ancestors 'none'`. */
export const NO_SCRIPT_POLICY_FIELD: string = contentSecurityPolicy({ field: true });
