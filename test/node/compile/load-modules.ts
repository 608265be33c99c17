/**
 * Loads many generated validator modules at once: each module's text is wrapped in a
 * function scope inside one batch file, written to a temporary directory, and imported once.
 *
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The exports of one generated module. */
export interface GeneratedModule {
  validate: ((value: unknown) => boolean) & { readonly parsed?: (value: unknown) => boolean };
  validateParsed(value: unknown): boolean;
  lastFailure(): string;
}

/** Imports the generated modules `sources` (texts from compileForm), in order. */
export async function loadModules(sources: ReadonlyArray<string>): Promise<GeneratedModule[]> {
  const wrapped = sources.map((source) => {
    // Only the generated `export function validate` / `validateParsed` / `lastFailure` lines start with "export ".
    const body = source.replace(/^export /gm, "");
    return `(() => {\n${body}\nreturn { validate, validateParsed, lastFailure };\n})()`;
  });
  const directory = mkdtempSync(join(tmpdir(), "gpt-address-compile-"));
  const file = join(directory, "batch.mjs");
  writeFileSync(file, `export const modules = [\n${wrapped.join(",\n")}\n];\n`);
  try {
    const loaded = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { modules: GeneratedModule[] };
    return loaded.modules;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
