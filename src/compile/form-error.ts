/**
 * The one build-time error of the form compiler.
 *
 * @module
 */

/** Stable codes of {@link FormError}; each names one kind of refusal. */
export type FormErrorCode =
  | "invalid-schema"
  | "unknown-keyword"
  | "refused-keyword"
  | "invalid-keyword-value"
  | "unsupported-dialect"
  | "unsupported-format"
  | "invalid-pattern"
  | "remote-ref"
  | "unresolvable-ref"
  | "ref-cycle"
  | "fan-out"
  | "duplicate-identifier";

/**
 * A form the compiler refuses to build (DESIGN.md V4: fail closed). Raised at build time, never
 * at validation time.
 *
 * @see DESIGN.md V4
 */
export class FormError extends Error {
  override readonly name = "FormError";
  /** Stable machine-readable reason. */
  readonly code: FormErrorCode;
  /** JSON Pointer (RFC 6901) into the schema of the offending keyword. */
  readonly pointer: string;
  /** The keyword that was refused or malformed ("" for a whole schema node). */
  readonly keyword: string;

  constructor(code: FormErrorCode, pointer: string, keyword: string, rule: string) {
    super(`${code} at "${pointer}"${keyword === "" ? "" : ` (${keyword})`}: ${rule}`);
    this.code = code;
    this.pointer = pointer;
    this.keyword = keyword;
  }
}
