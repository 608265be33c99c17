/**
 * The build step: every `forms/<name>.json` (an arrival document `{p, m, s}`), and every form
 * module `forms/<name>.ts` (`.mts`, `.js`, `.mjs`) whose default export is one with `s` a
 * Standard JSON Schema or a JSON Schema object (form-module.ts), with the shared files its `$ref`s
 * reach bundled in (shared-files.ts), becomes a generated ES module `<name>.js` holding the exact bytes GET serves, their entity-tag, the
 * HTML page for people and the compiled validator of the same `s` (`<name>.validate.js`),
 * with `<name>.d.ts` beside it declaring the TypeScript type `Act` of an act body (for a `.ts`
 * or `.mts` module whose `s` is a library's schema, that library's own input type). GET and
 * POST come from one build of one file (V3). The modules are plain JavaScript: they run on
 * any runtime with no TypeScript loader.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { extname, join, relative, resolve } from "node:path";
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
import { FormFileError } from "./form-file-error.ts";
import { FORM_MODULE_EXTENSIONS, loadFormModule } from "./form-module.ts";
import { FORM_NAME } from "./form-name.ts";
import { checkMetaSchema } from "./meta-schema.ts";
import { buildArrivalPage } from "./page.ts";
import { type Bundled, bundleSharedFiles } from "./shared-files.ts";
import { upgradeForm } from "./upgrade.ts";

export { FormFileError };

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
  /** The shared files bundled into the form (`forms/shared/address.json`), relative to the project root. */
  readonly sharedFiles: ReadonlyArray<string>;
}

/** The extensions of form files: JSON, or a module (form-module.ts). */
const FORM_EXTENSIONS: ReadonlyArray<string> = [".json", ...FORM_MODULE_EXTENSIONS];

/** The name of a form file (`page.json`, `page.ts` → `page`), or null when it is no form file (`x.d.ts`, `notes.md`). */
export function formNameOf(file: string): string | null {
  const extension = extname(file);
  if (!FORM_EXTENSIONS.includes(extension) || /\.d\.m?ts$/.test(file)) return null;
  return file.slice(0, -extension.length);
}

/**
 * Builds every form in `formsDir` into `outDir` (`<name>.js`, `<name>.d.ts`,
 * `<name>.validate.js`, `<name>.validate.d.ts`), plus `forms.js` and `forms.d.ts` that list
 * them all, and nothing else (what a removed form left there is deleted). A file whose text is
 * unchanged is not written again (see {@link writeChanged}).
 *
 * @throws FormFileError for the first form that is not strict JSON, not an arrival document
 *   (A2), not a valid 2020-12 schema (F1), or uses a keyword the compiler does not
 *   implement (V4); nothing is written then.
 */
export async function buildForms(options: BuildFormsOptions): Promise<BuiltForm[]> {
  // resolve, not join: an absolute formsDir or outDir is taken as it is (join would put it
  // under root).
  const formsDir = resolve(options.root, options.formsDir ?? "forms");
  const outDir = resolve(options.root, options.outDir ?? join("src", "generated"));
  const files = (await readdir(formsDir)).filter((file) => formNameOf(file) !== null).sort();
  const outputs: { built: BuiltForm; files: Record<string, string> }[] = [];
  const named = new Map<string, string>();
  for (const file of files) {
    const path = join(formsDir, file);
    const name = formNameOf(file) as string;
    const twin = named.get(name);
    if (twin !== undefined)
      throw new FormFileError(
        relative(options.root, path),
        "",
        `${relative(options.root, join(formsDir, twin))} is the same form: one file per name`,
      );
    named.set(name, file);
    try {
      const output = await buildForm(path, options.root, formsDir, outDir, options.typesFrom ?? "gpt-address");
      if (options.onLint !== undefined) await lintBuilt(output.lint, options.onLint);
      outputs.push(output);
    } catch (error) {
      if (error instanceof FormFileError) throw error;
      // A fault of the build itself (a bug, a form beyond what it can hold) still names the form.
      throw new FormFileError(relative(options.root, path), "", `internal error: ${String(error)}`, { cause: error });
    }
  }
  const built = outputs.map((output) => output.built);
  const written = new Map(outputs.flatMap((output) => Object.entries(output.files)));
  written.set("forms.js", formsIndex(built));
  written.set("forms.d.ts", formsIndexDeclarations(built));
  await writeChanged(outDir, written);
  return built;
}

/**
 * Makes `outDir` hold exactly `files` (name → text): removes every other entry, and writes a file
 * only when its text differs from what is there. A build that changes nothing touches nothing, so
 * a watcher of `src/` that runs the build (`wrangler dev`'s `[build] watch_dir`) is not woken by
 * the build's own output again and again.
 */
async function writeChanged(outDir: string, files: ReadonlyMap<string, string>): Promise<void> {
  await mkdir(outDir, { recursive: true });
  for (const entry of await readdir(outDir)) {
    if (!files.has(entry)) await rm(join(outDir, entry), { recursive: true, force: true });
  }
  for (const [name, text] of files) {
    const path = join(outDir, name);
    const kept = await readFile(path, "utf8").catch(() => undefined);
    if (kept !== text) await writeFile(path, text);
  }
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

/**
 * What the linter reads of one form: the form file's bytes, or for a module or a form with shared
 * files the text of the document built from them, whose pointers `locate` maps back to the files.
 */
interface LintInput {
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly locate: Bundled["locate"];
  /** The library `s` was written with (form-module.ts), whose own spelling a failure names. */
  readonly vendor: string | null;
}

/** How to say in each library what an error-level lint rule asks for. */
const libraryHints: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  zod: { "use-closed-object": "in zod: z.strictObject({…}), as z.object lets other members through" },
  valibot: {
    "use-closed-object": "in valibot: v.strictObject({…})",
    "use-max-items": "in valibot: v.strictTuple([…]) for a tuple, v.maxLength(n) in the array's pipe",
  },
  arktype: { "use-closed-object": 'in ArkType: "+": "reject" among the keys' },
};

/**
 * Lints one built form: hands over the findings (pointers into the file each came from; the
 * linter reads a shared file's part where the form embeds it), then fails on the first
 * error-level one.
 */
async function lintBuilt(input: LintInput, onLint: NonNullable<BuildFormsOptions["onLint"]>) {
  // Loaded only when asked for: the linter brings the ReDoS checker along.
  const { lintBytes } = await import("../lint/lint-form.ts");
  const findings = (await lintBytes(input.bytes)).map((finding) => {
    const { file, pointer } = input.locate(finding.pointer);
    return file === input.file ? { finding, file } : { finding: { ...finding, pointer }, file };
  });
  const byFile = new Map<string, Finding[]>();
  for (const { finding, file } of findings) byFile.set(file, [...(byFile.get(file) ?? []), finding]);
  if (byFile.size === 0) byFile.set(input.file, []);
  for (const [file, list] of byFile) onLint(file, list);
  const error = findings.find(({ finding }) => finding.severity === "error");
  if (error !== undefined) {
    const hint = input.vendor === null ? undefined : libraryHints[input.vendor]?.[error.finding.rule];
    throw new FormFileError(
      error.file,
      error.finding.pointer,
      `${error.finding.message}${hint === undefined ? "" : ` (${hint})`} (lint rule ${error.finding.rule})`,
    );
  }
}

/**
 * A form file as the build reads it, before compiling: a JSON form parsed strictly (int64 bounds
 * kept as `bigint`) or a form module imported and its `s` written as JSON Schema
 * (form-module.ts), checked as an arrival document (A2), upgraded to 2020-12 from an older draft
 * (upgrade.ts), and its `$ref`s to shared files bundled into `$defs` (shared-files.ts). The
 * linter reads form files the same way (`gpt-address lint`).
 *
 * @param path - the form file, absolute.
 * @param root - the project folder, which file names are relative to.
 * @param formsDir - the form files' folder, absolute.
 * @throws FormFileError naming the file and pointer of what could not be read.
 */
export async function readArrival(
  path: string,
  root: string,
  formsDir: string,
): Promise<{ arrival: ArrivalDocument; vendor: string | null; bundled: Bundled; bytes: Uint8Array }> {
  const file = relative(root, path);
  const extension = extname(path);
  const bytes = await readFormFile(path, file);
  let document: unknown;
  let vendor: string | null = null;
  if (extension !== ".json") ({ document, vendor } = await loadFormModule(path, file, bytes));
  else {
    try {
      // A form file's bounds may be int64 and larger: kept exact (bigint), never rounded.
      document = parseJson(bytes, { maxDepth: 256, bigIntegers: true });
    } catch (error) {
      if (error instanceof JsonSyntaxError) {
        throw new FormFileError(file, "", `not strict JSON: ${error.messageIn(bytes)}`);
      }
      throw error;
    }
  }
  const arrival = checkArrival(file, document);
  upgradeArrival(file, arrival);
  const bundled = await bundleSharedFiles(arrival.s, { root, path, formsDir, at: "/s" });
  arrival.s = bundled.schema;
  return { arrival, vendor, bundled, bytes };
}

async function buildForm(path: string, root: string, formsDir: string, outDir: string, typesFrom: string) {
  const file = relative(root, path);
  const extension = extname(path);
  const name = formNameOf(file.split(/[\\/]/).at(-1) ?? file) as string;
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
  const { arrival, vendor, bundled, bytes } = await readArrival(path, root, formsDir);
  /** A FormFileError at a pointer of the arrival document, in the file that part came from. */
  const located = (pointer: string, rule: string) => {
    const at = bundled.locate(pointer);
    return new FormFileError(at.file, at.pointer, rule);
  };
  const violations = checkMetaSchema(arrival.s);
  const violation = violations[0];
  if (violation) {
    throw located(
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
    if (error instanceof FormError)
      throw located(
        `/s${error.pointer}`,
        error.code === "remote-ref" ? `${error.message}; ${VENDOR_HINT}` : error.message,
      );
    throw error;
  }
  const arrivalText = stringifyJson(arrival);
  const { html: page, contentSecurityPolicy } = buildArrivalPage(arrival, { name, validator: validatorSource });
  const appPage = buildArrivalPage(arrival, { name, validator: validatorSource, mode: "mcp-app" }).html;
  const actType =
    vendor !== null && [".ts", ".mts"].includes(extension)
      ? libraryActType(relative(outDir, path), vendor)
      : await generateActType(arrival.s);
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
    sharedFiles: bundled.files,
  };
  const plain = extension === ".json" && bundled.files.length === 0;
  return {
    built,
    lint: {
      file,
      bytes: plain ? bytes : new TextEncoder().encode(arrivalText),
      locate: bundled.locate,
      vendor,
    } satisfies LintInput,
    files: {
      [`${name}.js`]: module,
      [`${name}.d.ts`]: declarations,
      [`${name}.validate.js`]: validatorSource,
      [`${name}.validate.d.ts`]: validatorDeclarations,
    },
  };
}

/** How a schema found at a URL becomes part of a form: said with every remote-ref refusal. */
const VENDOR_HINT =
  'to use it, save a copy under forms/shared/ and $ref it by a path relative to the form file ("./shared/name.json#/$defs/x"), which the build bundles into the form';

/**
 * The `Act` type of a form module whose `s` is a library's schema: the library's own input type
 * (Standard Schema's `InferInput`), through a type-only import of the module, so that nothing of
 * the library reaches the generated JavaScript.
 */
function libraryActType(modulePath: string, vendor: string): { declarations: string; fallback: null } {
  const specifier = modulePath.split("\\").join("/");
  return {
    declarations: [
      `import type source from ${JSON.stringify(specifier.startsWith(".") ? specifier : `./${specifier}`)};`,
      "",
      `/** What the form's ${vendor} schema accepts: its input type (Standard Schema's InferInput). */`,
      `export type ${ACT_TYPE_NAME} = NonNullable<(typeof source)["s"]["~standard"]["types"]>["input"];`,
    ].join("\n"),
    fallback: null,
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
