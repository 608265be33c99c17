/**
 * The build step: every `forms/<name>.json` (an arrival document `{p, m, s}`) becomes a
 * generated ES module `<name>.js` holding the exact bytes GET serves, their entity-tag, the
 * HTML page for people and the compiled validator of the same `s` (`<name>.validate.js`),
 * with `<name>.d.ts` beside it declaring the TypeScript type `Act` of an act body. GET and
 * POST come from one build of one file (V3). The modules are plain JavaScript: they run on
 * any runtime with no TypeScript loader.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { isJsonObject } from "../json/is-json-object.ts";
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import { stringifyJson } from "../json/stringify.ts";
import type { Finding } from "../lint/finding.ts";
import { ACT_TYPE_NAME, generateActType } from "./act-type.ts";
import {
  admittedBytes,
  admittedDepth,
  admittedItems,
  admittedMembers,
  admittedStringLength,
  compileForm,
} from "./compile-form.ts";
import { FormError } from "./form-error.ts";
import { FORM_NAME } from "./form-name.ts";
import { checkMetaSchema } from "./meta-schema.ts";
import { buildArrivalPage } from "./page.ts";
import { upgradeForm } from "./upgrade.ts";

/** Where the build reads forms and writes modules; paths are absolute or relative to `root`. */
export interface BuildFormsOptions {
  /** The project folder; names in messages are relative to it. */
  readonly root: string;
  /** Folder of form files, `forms` by default. */
  readonly formsDir?: string;
  /** Folder of generated modules, `src/generated` by default. Emptied first. */
  readonly outDir?: string;
  /**
   * The module specifier generated modules import the `CompiledForm` type from:
   * `"gpt-address"` by default; a relative path for code inside this package.
   */
  readonly typesFrom?: string;
  /**
   * Runs the form linter on each form and hands its findings here (warnings included); an
   * error-level finding then fails the build like any other broken form. Off when absent.
   */
  readonly onLint?: (file: string, findings: ReadonlyArray<Finding>) => void;
}

/** One form file that cannot be built, with the place and the rule it breaks. */
export class FormFileError extends Error {
  override readonly name = "FormFileError";
  /** The form file, relative to the project root. */
  readonly file: string;
  /** JSON Pointer into the form file (`/s/properties/title/maxLength`). */
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

/** What one built form produced. */
export interface BuiltForm {
  readonly name: string;
  readonly file: string;
  /** The generated module, relative to the project root. */
  readonly module: string;
  /** UTF-8 bytes of the arrival document served on GET. */
  readonly arrivalBytes: number;
  readonly maxDepth: number | null;
  /** The longest string a valid act can hold, in UTF-16 code units (`admittedStringLength`), or null. */
  readonly maxStringLength: number | null;
  /** The most members any object of a valid act can have (`admittedMembers`), or null. */
  readonly maxMembers: number | null;
  /** The most items any array of a valid act can have (`admittedItems`), or null. */
  readonly maxItems: number | null;
  /** The longest text of a valid act as a serializer writes it, in bytes (`admittedBytes`), or null. */
  readonly maxBytes: number | null;
  /**
   * Why the generated `Act` type is `unknown` rather than the form's type (the type generator
   * could not take the form), or `null` when it is the form's type. The validator is exact
   * either way.
   */
  readonly typeFallback: string | null;
}

/**
 * Builds every form in `formsDir` into `outDir` (`<name>.js`, `<name>.d.ts`,
 * `<name>.validate.js`, `<name>.validate.d.ts`), plus `forms.js` and `forms.d.ts` that list
 * them all.
 *
 * @throws FormFileError for the first form that is not strict JSON, not an arrival document
 *   (A2), not a valid 2020-12 schema (F1), or uses a keyword the compiler does not
 *   implement (V4); nothing is written then.
 */
export async function buildForms(options: BuildFormsOptions): Promise<BuiltForm[]> {
  const formsDir = join(options.root, options.formsDir ?? "forms");
  const outDir = join(options.root, options.outDir ?? join("src", "generated"));
  const files = (await readdir(formsDir)).filter((file) => file.endsWith(".json")).sort();
  const outputs: { built: BuiltForm; files: Record<string, string> }[] = [];
  for (const file of files) {
    const path = join(formsDir, file);
    try {
      const output = await buildForm(path, options.root, outDir, options.typesFrom ?? "gpt-address");
      if (options.onLint !== undefined) await lintBuilt(path, output.built.file, options.onLint);
      outputs.push(output);
    } catch (error) {
      if (error instanceof FormFileError) throw error;
      // A fault of the build itself (a bug, a form beyond what it can hold) still names the form.
      throw new FormFileError(relative(options.root, path), "", `internal error: ${String(error)}`, { cause: error });
    }
  }
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  for (const output of outputs) {
    for (const [name, text] of Object.entries(output.files)) await writeFile(join(outDir, name), text);
  }
  const built = outputs.map((output) => output.built);
  await writeFile(join(outDir, "forms.js"), formsIndex(built));
  await writeFile(join(outDir, "forms.d.ts"), formsIndexDeclarations(built));
  return built;
}

/**
 * The bytes of a form file.
 *
 * @throws FormFileError when it cannot be read (a folder named `x.json`, a dangling link, no
 *   permission), naming the file and the system's error code.
 */
async function readFormFile(path: string, file: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new FormFileError(file, "", `cannot be read as a file (${typeof code === "string" ? code : String(error)})`);
  }
}

/** Lints one built form: hands over the findings, then fails on the first error-level one. */
async function lintBuilt(path: string, file: string, onLint: NonNullable<BuildFormsOptions["onLint"]>) {
  // Loaded only when asked for: the linter brings the ReDoS checker along.
  const { lintBytes } = await import("../lint/lint-form.ts");
  const findings = await lintBytes(await readFormFile(path, file));
  onLint(file, findings);
  const error = findings.find((finding) => finding.severity === "error");
  if (error !== undefined) throw new FormFileError(file, error.pointer, `${error.message} (lint rule ${error.rule})`);
}

async function buildForm(path: string, root: string, outDir: string, typesFrom: string) {
  const file = relative(root, path);
  const name = basename(path, ".json");
  if (!FORM_NAME.test(name)) {
    throw new FormFileError(
      file,
      "",
      `a form's file name must match ${FORM_NAME.source} (it becomes a path and a module name)`,
    );
  }
  if (name === "forms") {
    throw new FormFileError(file, "", "a form cannot be named forms: forms.js is the generated index of all forms");
  }
  const bytes = await readFormFile(path, file);
  let document: unknown;
  try {
    // A form file's bounds may be int64 and larger: kept exact (bigint), never rounded.
    document = parseJson(bytes, { maxDepth: 256, bigIntegers: true });
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      throw new FormFileError(file, "", `not strict JSON: ${error.messageIn(bytes)}`);
    }
    throw error;
  }
  const arrival = checkArrival(file, document);
  upgradeArrival(file, arrival);
  const violations = checkMetaSchema(arrival.s);
  const violation = violations[0];
  if (violation) {
    throw new FormFileError(
      file,
      `/s${violation.pointer}`,
      `not a valid JSON Schema 2020-12 (meta-schema ${violation.keywordLocation}: ${violation.error})`,
    );
  }
  let validatorSource: string;
  let maxDepth: number | null;
  let maxStringLength: number | null;
  let maxMembers: number | null;
  let maxItems: number | null;
  let maxBytes: number | null;
  try {
    validatorSource = compileForm(arrival.s, { source: file });
    // The parser may go one level deeper than any valid act, so that an act one level too
    // deep is still parsed and then refused by the form, not by the parser's limit.
    const depth = admittedDepth(arrival.s);
    maxDepth = depth === null ? null : depth + 1;
    // Already loose (a code point counts as two code units), so no margin is added: a string
    // past the form's maxLength but within this is still parsed and then refused by the form.
    maxStringLength = admittedStringLength(arrival.s);
    // Exact: an object one member too many, an array one item too many, is refused by the parser.
    maxMembers = admittedMembers(arrival.s);
    maxItems = admittedItems(arrival.s);
    // The longest act as a serializer writes it, whitespace margin included (admitted-bytes.ts);
    // a bound past 2⁵³ (unrolled recursion multiplies) is no bound.
    const bytes = admittedBytes(arrival.s);
    maxBytes = bytes !== null && Number.isSafeInteger(bytes) ? bytes : null;
  } catch (error) {
    if (error instanceof FormError) throw new FormFileError(file, `/s${error.pointer}`, error.message);
    throw error;
  }
  const arrivalText = stringifyJson(document);
  const { html: page, contentSecurityPolicy } = buildArrivalPage(arrival, { name, validator: validatorSource });
  const appPage = buildArrivalPage(arrival, { name, validator: validatorSource, mode: "mcp-app" }).html;
  const actType = await generateActType(arrival.s);
  const header = `// Code generated by gpt-address build from ${file}. DO NOT EDIT.\n// form sha256: ${sha256Hex(bytes)}\n`;
  const module = [
    header,
    `import { lastFailure, validate } from "./${name}.validate.js";`,
    "",
    `/** The form built from ${file}. */`,
    `export const form = {`,
    `  name: ${JSON.stringify(name)},`,
    `  arrival: ${JSON.stringify(arrivalText)},`,
    `  etag: ${JSON.stringify(entityTag(arrivalText))},`,
    `  page: ${JSON.stringify(page)},`,
    `  pageEtag: ${JSON.stringify(entityTag(page))},`,
    `  pageContentSecurityPolicy: ${JSON.stringify(contentSecurityPolicy)},`,
    `  appPage: ${JSON.stringify(appPage)},`,
    `  validate,`,
    `  lastFailure,`,
    `  maxDepth: ${maxDepth === null ? "null" : String(maxDepth)},`,
    `  maxStringLength: ${maxStringLength === null ? "null" : String(maxStringLength)},`,
    `  maxMembers: ${maxMembers === null ? "null" : String(maxMembers)},`,
    `  maxItems: ${maxItems === null ? "null" : String(maxItems)},`,
    `  maxBytes: ${maxBytes === null ? "null" : String(maxBytes)},`,
    `};`,
    "",
  ].join("\n");
  const declarations = [
    header,
    `import type { CompiledForm } from ${JSON.stringify(typesFrom)};`,
    "",
    actType.declarations,
    "",
    `/** The form built from ${file}; \`validate\` narrows a value to {@link ${ACT_TYPE_NAME}}. */`,
    `export declare const form: CompiledForm<${ACT_TYPE_NAME}>;`,
    "",
  ].join("\n");
  const validatorDeclarations = `${header}export declare const validate: ((value: unknown) => boolean) & { readonly parsed: (value: unknown) => boolean };\nexport declare function validateParsed(value: unknown): boolean;\nexport declare function lastFailure(): string;\n`;
  const built: BuiltForm = {
    name,
    file,
    module: relative(root, join(outDir, `${name}.js`)),
    arrivalBytes: new TextEncoder().encode(arrivalText).length,
    maxDepth,
    maxStringLength,
    maxMembers,
    maxItems,
    maxBytes,
    typeFallback: actType.fallback,
  };
  return {
    built,
    files: {
      [`${name}.js`]: module,
      [`${name}.d.ts`]: declarations,
      [`${name}.validate.js`]: validatorSource,
      [`${name}.validate.d.ts`]: validatorDeclarations,
    },
  };
}

interface ArrivalDocument {
  p: string;
  m: unknown[];
  s: unknown;
  [member: string]: unknown;
}

/**
 * A form in an older draft (its `$schema`: draft-04, -06, -07, 2019-09) becomes its 2020-12
 * upgrade, in place: the `s` GET publishes and the validator enforces (upgrade.ts).
 *
 * @throws FormFileError when the upgrade cannot keep the form's meaning, or reports a keyword
 *   whose meaning changed between the drafts (`gpt-address upgrade` writes the form so its
 *   author decides).
 */
function upgradeArrival(file: string, arrival: ArrivalDocument): void {
  let upgraded: ReturnType<typeof upgradeForm>;
  try {
    upgraded = upgradeForm(arrival.s);
  } catch (error) {
    if (error instanceof FormError) throw new FormFileError(file, `/s${error.pointer}`, error.message);
    throw error;
  }
  const changed = upgraded.notes.find((note) => note.changed);
  if (changed !== undefined)
    throw new FormFileError(
      file,
      `/s${changed.pointer}`,
      `${changed.message} (a ${upgraded.from} form: run gpt-address upgrade ${file}, then decide)`,
    );
  arrival.s = upgraded.schema;
}

/** A2: an object with `p` a string, `m` an array of `{role, content}` strings, `s` an object. */
function checkArrival(file: string, document: unknown): ArrivalDocument {
  if (!isJsonObject(document))
    throw new FormFileError(file, "", "an arrival document must be a JSON object {p, m, s} (A2)");
  if (typeof document.p !== "string") throw new FormFileError(file, "/p", "p must be a string (A2)");
  if (!Array.isArray(document.m)) throw new FormFileError(file, "/m", "m must be an array of messages (A2)");
  document.m.forEach((message, index) => {
    if (!isJsonObject(message) || typeof message.role !== "string" || typeof message.content !== "string") {
      throw new FormFileError(
        file,
        `/m/${index}`,
        "a message must be an object with string members role and content (A2)",
      );
    }
  });
  if (!isJsonObject(document.s)) throw new FormFileError(file, "/s", "s must be a JSON Schema object (A2, F1)");
  return document as ArrivalDocument;
}

function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A strong entity-tag (RFC 9110 §8.8.3) from the SHA-256 of the UTF-8 bytes of `text`. */
function entityTag(text: string): string {
  return `"${createHash("sha256").update(text, "utf8").digest("base64url")}"`;
}

const indexHeader = "// Code generated by gpt-address build from forms/. DO NOT EDIT.";

function formsIndex(forms: BuiltForm[]): string {
  const lines = [indexHeader, ""];
  for (const [index, form] of forms.entries()) lines.push(`import { form as form${index} } from "./${form.name}.js";`);
  lines.push("", "/** Every form in forms/, by name. */", "export const forms = {");
  for (const [index, form] of forms.entries()) lines.push(`  ${JSON.stringify(form.name)}: form${index},`);
  lines.push("};", "");
  return lines.join("\n");
}

function formsIndexDeclarations(forms: BuiltForm[]): string {
  const lines = [indexHeader, ""];
  for (const [index, form] of forms.entries())
    lines.push(`import type { form as form${index} } from "./${form.name}.js";`);
  lines.push("", "/** Every form in forms/, by name. */", "export declare const forms: {");
  for (const [index, form] of forms.entries())
    lines.push(`  readonly ${JSON.stringify(form.name)}: typeof form${index};`);
  lines.push("};", "");
  return lines.join("\n");
}
