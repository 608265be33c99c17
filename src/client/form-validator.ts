/**
 * The client's local check of a value against a form, with the very compiler the addresses
 * are built with (`compileForm`), so a value that passes here passes there.
 *
 * The generated module is plain JavaScript importing nothing; it is loaded from a `data:` URL
 * (no file is written). This is Node-side client code, never part of the runtime entry.
 *
 * @module
 */
import { compileForm } from "../compile/compile-form.ts";

/** Why a value failed the form. */
export interface FormFailure {
  /** JSON Pointer into the form (`s`) of the keyword that failed. */
  readonly pointer: string;
  /** That keyword (the pointer's last segment). */
  readonly keyword: string;
}

/** A compiled form. */
export interface FormValidator {
  /** `null` when `value` is valid; otherwise where the form rejected it. */
  check(value: unknown): FormFailure | null;
}

interface GeneratedModule {
  validate(value: unknown): boolean;
  lastFailure(): string;
}

/** Decodes the last segment of a JSON Pointer (RFC 6901 §4). */
function lastSegment(pointer: string): string {
  const segment = pointer.slice(pointer.lastIndexOf("/") + 1);
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * Compiles `schema` (the arrival's `s`) and loads the validator.
 *
 * @throws {FormError} when the compiler refuses the form (it cannot enforce it exactly).
 */
export async function compileValidator(schema: unknown): Promise<FormValidator> {
  const source = compileForm(schema);
  const module = (await import(
    `data:text/javascript;base64,${Buffer.from(source, "utf8").toString("base64")}`
  )) as GeneratedModule;
  return {
    check(value) {
      if (module.validate(value)) return null;
      const pointer = module.lastFailure();
      return { pointer, keyword: lastSegment(pointer) };
    },
  };
}
