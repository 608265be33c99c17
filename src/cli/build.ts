/**
 * `gpt-address build`: lints and compiles every form of a project (`forms/*.json`, and form
 * modules `forms/*.ts`, `.mts`, `.js`, `.mjs` → `src/generated/`; shared files they `$ref`
 * bundled in), the build step of a project made by `gpt-address init` and of this
 * repository (scripts/build.ts calls {@link buildProject} too).
 *
 * Each lint finding prints on stderr as one line, `forms/x.json#/s/…: warning: message (rule)`;
 * a form that cannot be built (not strict JSON, not `{p, m, s}`, not a valid 2020-12 schema, a
 * keyword the compiler does not implement, an error-level lint finding) ends the build with one
 * line `build failed: forms/x.json#/pointer: rule` and exit 1, and nothing is written.
 *
 * @module
 */
import { resolve } from "node:path";
import { defineCommand } from "citty";
import { DEFAULT_MAX_BYTES } from "../address/verification.ts";
import { type BuildFormsOptions, type BuiltForm, buildForms, FormFileError } from "../compile/build-forms.ts";
import { type CliIo, type ExitCode, exitCodes, ioOf } from "./shared.ts";

/** Where the project's forms are, and where their modules go, by default (`init`'s layout). */
export const DEFAULT_FORMS_DIR = "forms";
export const DEFAULT_OUT_DIR = "src/generated";

/**
 * One line per built form: where it went and the bounds the address takes from it (`maxBytes`
 * as `address()` applies it: the form's own bound, or {@link DEFAULT_MAX_BYTES} above it).
 */
export function describeBuilt(form: BuiltForm): string {
  const bound = (value: number | null) => value ?? "unbounded";
  const bounds = [
    `maxDepth ${bound(form.maxDepth)}`,
    `maxStringLength ${bound(form.maxStringLength)}`,
    `maxMembers ${bound(form.maxMembers)}`,
    `maxItems ${bound(form.maxItems)}`,
    // address() reads at most DEFAULT_MAX_BYTES whatever the form admits (verification.ts).
    form.maxBytes !== null && form.maxBytes <= DEFAULT_MAX_BYTES
      ? `maxBytes ${form.maxBytes}`
      : `maxBytes ${DEFAULT_MAX_BYTES} (the default: the form admits ${form.maxBytes === null ? "unbounded" : "longer"} acts)`,
  ].join(", ");
  const type = form.typeFallback === null ? "" : `\n  its Act type is unknown: ${form.typeFallback}`;
  const shared = form.sharedFiles.length === 0 ? "" : ` (with ${form.sharedFiles.join(", ")})`;
  return `built ${form.file}${shared} → ${form.module} (${form.arrivalBytes} bytes on GET, ${bounds})${type}`;
}

/**
 * Builds the forms of `options.root` with the form linter on, writing what happens to `io`.
 *
 * @returns `exitCodes.ok` when every form was built, `exitCodes.findings` when one could not be
 *   (a broken form or an error-level finding: one line naming `file#pointer: rule`), and
 *   `exitCodes.usage` when the forms folder cannot be read.
 * @throws only what is not a fault of a form (a bug of the build), which the bin reports.
 */
export async function buildProject(
  options: Omit<BuildFormsOptions, "onLint">,
  io: Pick<CliIo, "stdout" | "stderr">,
): Promise<{ readonly code: ExitCode; readonly built: ReadonlyArray<BuiltForm> }> {
  try {
    const built = await buildForms({
      ...options,
      onLint(file, findings) {
        for (const finding of findings) {
          // Errors are printed once, as the build's failure line below.
          if (finding.severity === "error") continue;
          io.stderr(`${file}#${finding.pointer}: ${finding.severity}: ${finding.message} (${finding.rule})\n`);
        }
      },
    });
    if (built.length === 0)
      io.stderr(`no form in ${options.formsDir ?? DEFAULT_FORMS_DIR}/: write one (gpt-address new <name>)\n`);
    for (const form of built) io.stdout(`${describeBuilt(form)}\n`);
    return { code: exitCodes.ok, built };
  } catch (error) {
    if (error instanceof FormFileError) {
      io.stderr(`build failed: ${error.message}\n`);
      return { code: exitCodes.findings, built: [] };
    }
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      io.stderr(`build failed: no forms folder ${options.formsDir ?? DEFAULT_FORMS_DIR}/ in ${options.root}\n`);
      return { code: exitCodes.usage, built: [] };
    }
    throw error;
  }
}

export default defineCommand({
  meta: {
    name: "build",
    description: `Lint and compile every form: ${DEFAULT_FORMS_DIR}/<name>.json (or .ts, .mts, .js, .mjs) → ${DEFAULT_OUT_DIR}/<name>.js and .d.ts (exit 1 on a form that cannot be built).`,
  },
  args: {
    dir: { type: "string", description: "The project folder (default: the current folder)", valueHint: "folder" },
    forms: {
      type: "string",
      default: DEFAULT_FORMS_DIR,
      description: "The folder of form files, relative to the project or absolute",
      valueHint: "folder",
    },
    out: {
      type: "string",
      default: DEFAULT_OUT_DIR,
      description: "The folder of generated modules, relative to the project or absolute (emptied first)",
      valueHint: "folder",
    },
  },
  async run(context) {
    const io = ioOf(context);
    const root = resolve(io.cwd, context.args.dir ?? ".");
    const { code } = await buildProject({ root, formsDir: context.args.forms, outDir: context.args.out }, io);
    return code;
  },
});
