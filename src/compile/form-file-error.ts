/**
 * The one error of the build step: a form file (or a shared file one refers to) that cannot be
 * built, with the place and the rule it breaks.
 *
 * @module
 */

/** One form file that cannot be built, with the place and the rule it breaks. */
export class FormFileError extends Error {
  override readonly name = "FormFileError";
  /** The form file (or shared file), relative to the project root. */
  readonly file: string;
  /** JSON Pointer into the file (`/s/properties/title/maxLength`). */
  readonly pointer: string;
  /** What is wrong, in words. */
  readonly rule: string;

  constructor(file: string, pointer: string, rule: string, options?: ErrorOptions) {
    super(`${file}#${pointer}: ${rule}`, options);
    this.file = file;
    this.pointer = pointer;
    this.rule = rule;
  }
}
