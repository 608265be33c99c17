/**
 * `gpt-address lint <form.json…>`: lints form files; `--actors` adds the actor findings and
 * prints the table of which actors accept each form; `--projected` judges, for each actor, the
 * form as the client projects it for that actor (`src/client/projection.ts`) instead.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { dirname, extname, relative, resolve } from "node:path";
import { defineCommand } from "citty";
import { fromLintProfile } from "../client/lint-profile.ts";
import { projectForm } from "../client/projection.ts";
import { readArrival } from "../compile/build-forms.ts";
import { FormDocument } from "../compile/document.ts";
import { FormFileError } from "../compile/form-file-error.ts";
import { FORM_MODULE_EXTENSIONS } from "../compile/form-module.ts";
import { upgradeForm } from "../compile/upgrade.ts";
import { parseJson } from "../json/parse.ts";
import { stringifyJson } from "../json/stringify.ts";
import { profiles, resolveProfile } from "../lint/actors/index.ts";
import type { ActorProfile } from "../lint/actors/profile.ts";
import { type ActorRow, actorRows, renderActorTable } from "../lint/actors/table.ts";
import { type CostBound, costBound } from "../lint/cost.ts";
import type { Finding } from "../lint/finding.ts";
import { lintBytes } from "../lint/lint-form.ts";
import { exitCodes, formatArg, ioOf, UsageError } from "./shared.ts";

/** One linted file, as `--format json` prints it. */
export interface LintedFile {
  readonly file: string;
  readonly findings: ReadonlyArray<Finding>;
  /** The bound on the validator's work per act (absent when the form is not valid). */
  readonly cost?: CostBound;
  readonly actors?: ReadonlyArray<ActorRow>;
  /** Whether {@link actors} judged each actor's projection of the form rather than the form. */
  readonly projected?: boolean;
}

/** Reads a form file, or throws a usage error naming it (exit 2: unreadable input). */
async function readForm(path: string, shown: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
    throw new UsageError(`cannot read ${shown} (${reason})`);
  }
}

/**
 * What the linter reads of a form file, as the build reads it (`readArrival`): a JSON form's own
 * bytes (its syntax and duplicate names are findings then), or, for a form module
 * (`forms/<name>.ts`, a zod, valibot or ArkType `s` written as JSON Schema) or a JSON form with
 * `$ref`s to shared files (bundled into `$defs`), the JSON text of the document the build
 * publishes, whose pointers the findings use.
 *
 * @returns the bytes to lint, or the FormFileError that stops the build (a module that cannot be
 *   imported, a missing shared file), which becomes a `valid-form` finding.
 */
async function readLintInput(path: string, file: string, cwd: string): Promise<Uint8Array | FormFileError> {
  if (extname(path) === ".json") {
    const bytes = await readForm(path, file);
    try {
      const { arrival, bundled } = await readArrival(path, cwd, dirname(path));
      return bundled.files.length === 0 ? bytes : new TextEncoder().encode(stringifyJson(arrival));
    } catch {
      return bytes; // what stops the build in a JSON form, the linter reports itself
    }
  }
  if (!FORM_MODULE_EXTENSIONS.includes(extname(path))) return readForm(path, file);
  try {
    const { arrival } = await readArrival(path, cwd, dirname(path));
    return new TextEncoder().encode(stringifyJson(arrival));
  } catch (error) {
    if (error instanceof FormFileError) return error;
    throw error;
  }
}

/**
 * The rows of the actor table for the projections of `schema`: each actor judges the form as the
 * client sends it to that actor (what the projection drops is enforced by the local check).
 */
export function projectedActorRows(profiles: ReadonlyArray<ActorProfile>, schema: unknown): ActorRow[] {
  return profiles.flatMap((profile) =>
    actorRows([profile], projectForm(schema, fromLintProfile(profile.id, profile)).schema),
  );
}

/**
 * Lints files (paths relative to `cwd`); with `actors`, judges each for every actor profile, and
 * with `projected` each actor's projection of the form.
 */
export async function lintFiles(
  paths: ReadonlyArray<string>,
  cwd: string,
  actors: boolean,
  projected = false,
): Promise<LintedFile[]> {
  const selected = actors ? profiles.map(resolveProfile) : [];
  const results: LintedFile[] = [];
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const file = relative(cwd, absolute) || path;
    const read = await readLintInput(absolute, file, cwd);
    if (read instanceof FormFileError) {
      const finding = {
        rule: "valid-form",
        messageId: "unreadable",
        pointer: read.pointer,
        severity: "error",
        message: read.file === file ? read.rule : `${read.file}#${read.pointer}: ${read.rule}`,
      } as const;
      results.push({ file, findings: [finding] });
      continue;
    }
    const bytes = read;
    const findings = await lintBytes(bytes, { actors: selected });
    if (findings.some((finding) => finding.rule === "valid-form")) {
      results.push({ file, findings });
      continue;
    }
    const parsed = parseJson(bytes, { maxDepth: 256, bigIntegers: true }) as { s: unknown };
    // An older draft's form is read as the 2020-12 form the build publishes (the linter did too).
    const form = { ...parsed, s: upgradeForm(parsed.s).schema };
    const cost = costBound(new FormDocument(form.s));
    if (!actors) results.push({ file, findings, cost });
    else if (projected) results.push({ file, findings, cost, actors: projectedActorRows(selected, form.s), projected });
    else results.push({ file, findings, cost, actors: actorRows(selected, form.s) });
  }
  return results;
}

/** The terminal report: findings per file, then a summary line. */
export function renderText(results: ReadonlyArray<LintedFile>): string {
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  let actorFindings = 0;
  for (const result of results) {
    const own = result.findings.filter((finding) => finding.actor === undefined);
    if (own.length > 0) {
      lines.push(result.file);
      for (const finding of own) {
        lines.push(`  ${finding.pointer || "/"}  ${finding.severity}  ${finding.message}  ${finding.rule}`);
      }
      lines.push("");
    }
    for (const finding of result.findings) {
      if (finding.actor !== undefined) actorFindings++;
      else if (finding.severity === "error") errors++;
      else warnings++;
    }
    if (result.cost !== undefined) {
      const n = (value: number) => Math.round(value).toLocaleString("en");
      lines.push(
        `${result.file}: validation cost at most ${n(result.cost.steps)} steps per act of ${n(result.cost.maxBytes)} bytes (${n(result.cost.perByte)} per byte)`,
      );
    }
    if (result.actors !== undefined) {
      const title = result.projected ? "actors (each judging its projection of the form)" : "actors";
      lines.push(`${result.file}: ${title}`, renderActorTable(result.actors), "");
    }
  }
  const total = errors + warnings;
  lines.push(
    total === 0
      ? `${results.length} form(s) clean`
      : `${total} problem(s) (${errors} error(s), ${warnings} warning(s)) in ${results.length} form(s)`,
  );
  if (actorFindings > 0) lines.push(`${actorFindings} actor finding(s) (warnings; --format json lists each)`);
  return `${lines.join("\n")}\n`;
}

export default defineCommand({
  meta: {
    name: "lint",
    description:
      "Lint form files: attack surface (S2), vocabulary (F2-F4), mistakes; --actors adds each actor's support. Exit 0 clean, 1 errors, 2 usage or unreadable input.",
  },
  args: {
    files: {
      type: "positional",
      description: "Form files: arrival documents {p, m, s} (forms/<name>.json) or form modules (forms/<name>.ts, .js)",
      valueHint: "form.json…",
    },
    ...formatArg,
    actors: {
      type: "boolean",
      default: false,
      description: "Judge each form for every actor profile and print the table",
    },
    projected: {
      type: "boolean",
      default: false,
      description:
        "With --actors: judge each actor's projection of the form (what gpt-address act and the tool adapters send)",
    },
  },
  async run(context) {
    const io = ioOf(context);
    const paths = context.args._;
    if (paths.length === 0) throw new UsageError("name at least one form file (gpt-address lint forms/*.json)");
    if (context.args.projected === true && context.args.actors !== true) {
      throw new UsageError("--projected judges the actors' projections: use it with --actors");
    }
    const results = await lintFiles(paths, io.cwd, context.args.actors === true, context.args.projected === true);
    if (context.args.format === "json") io.stdout(`${JSON.stringify(results, null, 2)}\n`);
    else io.stdout(renderText(results));
    const failed = results.some((result) => result.findings.some((finding) => finding.severity === "error"));
    return failed ? exitCodes.findings : exitCodes.ok;
  },
});
