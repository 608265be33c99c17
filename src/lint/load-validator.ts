/**
 * Loads the validator the compiler generates for a form, so that the linter judges examples
 * with the very code the address runs (V3): written to a temporary file, imported, removed.
 *
 * @module
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compileForm } from "../compile/compile-form.ts";

/** The exports of a generated validator module. */
export interface GeneratedValidator {
  validate(value: unknown): boolean;
  lastFailure(): string;
}

/**
 * Compiles `schema` and imports the module.
 *
 * @throws {FormError} when the compiler refuses the form.
 */
export async function loadValidator(schema: unknown): Promise<GeneratedValidator> {
  const source = compileForm(schema);
  const directory = await mkdtemp(join(tmpdir(), "gpt-address-lint-"));
  const file = join(directory, "validate.mjs");
  try {
    await writeFile(file, source);
    return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as GeneratedValidator;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
