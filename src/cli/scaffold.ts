/**
 * The files of one address in the layout `gpt-address init` makes, shared by `init` (its first
 * address) and `new` (every further one):
 *
 * - `forms/<name>.json`: the form (`templates/address/form.json`, with the name put in), or with
 *   `--form zod|valibot|arktype` the same form written with that library, `forms/<name>.ts`
 *   (forms as code: the build writes its `s` as JSON Schema 2020-12);
 * - `src/<name>.ts`: the address, `address({ form, act })` as the default export;
 * - `test/<name>.test.ts`: a vitest file: GET serves the form, the form's own example is
 *   answered 200, an act the form refuses 204;
 * - one import and one `app.route("/<name>", …)` added to `src/app.ts`.
 *
 * @module
 */
import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ArgsDef } from "citty";
import { FORM_NAME } from "../compile/form-name.ts";
import { UsageError } from "./shared.ts";

/** The package's `templates/` folder (two levels above this module, in `src/cli/` and `dist/cli/`). */
export const TEMPLATES = join(import.meta.dirname, "..", "..", "templates");

/**
 * `{{key}}` in `text` replaced by `values[key]` (project files of `templates/<runtime>/`).
 *
 * @throws Error for a key without a value.
 */
export function fillTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`template key {{${key}}} has no value`);
    return value;
  });
}

/** `guest-book` → `guestBook`. */
export const camelName = (name: string) => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** @throws UsageError when `name` cannot be a form's name ({@link FORM_NAME}). */
export function checkAddressName(name: string): void {
  if (!FORM_NAME.test(name))
    throw new UsageError(`the name must match ${FORM_NAME.source} (it becomes a path and a module name)`);
}

/** How a new address's form is written: a JSON file, or a module with a schema library (forms as code). */
export const FORM_STYLES = ["json", "zod", "valibot", "arktype"] as const;
export type FormStyle = (typeof FORM_STYLES)[number];

/** The packages a form style needs, each at the version this package is tested with (its own devDependencies). */
export const FORM_STYLE_PACKAGES: Readonly<Record<FormStyle, ReadonlyArray<string>>> = {
  json: [],
  zod: ["zod"],
  valibot: ["valibot", "@valibot/to-json-schema"],
  arktype: ["arktype"],
};

/**
 * `name@version` of each package `style` needs, at the version this package is tested with (its
 * own `package.json`: exact).
 *
 * @throws Error when this package's manifest does not name one (a packaging bug).
 */
export async function formStylePackages(style: FormStyle): Promise<Record<string, string>> {
  const own = JSON.parse(await readFile(join(TEMPLATES, "..", "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  const versions: Record<string, string> = {};
  for (const name of FORM_STYLE_PACKAGES[style]) {
    const version = own.devDependencies[name];
    if (version === undefined) throw new Error(`no version of ${name} in gpt-address's own package.json`);
    versions[name] = version;
  }
  return versions;
}

/**
 * Adds the packages `style` needs to the devDependencies of the project's `package.json` (the
 * form module is read at build time only), unless it names them already.
 *
 * @returns the packages added (`name@version`), or null when the project has no package.json.
 */
export async function addFormPackages(root: string, style: FormStyle): Promise<string[] | null> {
  const file = join(root, "package.json");
  if (!(await exists(file))) return null;
  const manifest = JSON.parse(await readFile(file, "utf8")) as Record<string, Record<string, string> | undefined>;
  const added: string[] = [];
  const dev = { ...(manifest.devDependencies ?? {}) };
  for (const [name, version] of Object.entries(await formStylePackages(style))) {
    if (manifest.dependencies?.[name] !== undefined || dev[name] !== undefined) continue;
    dev[name] = version;
    added.push(`${name}@${version}`);
  }
  if (added.length === 0) return added;
  manifest.devDependencies = Object.fromEntries(Object.entries(dev).sort(([a], [b]) => (a < b ? -1 : 1)));
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return added;
}

/** `--form`: shared by `init` and `new`. */
export const formArg = {
  form: {
    type: "enum",
    options: [...FORM_STYLES],
    default: "json",
    description: `How the form is written: ${FORM_STYLES.join(", ")} (a library: forms/<name>.ts)`,
    valueHint: FORM_STYLES.join("|"),
  },
} as const satisfies ArgsDef;

/** @throws UsageError for a style not in {@link FORM_STYLES}. */
export function checkFormStyle(style: string): FormStyle {
  if (!(FORM_STYLES as ReadonlyArray<string>).includes(style))
    throw new UsageError(`--form must be one of ${FORM_STYLES.join(", ")}: ${style}`);
  return style as FormStyle;
}

interface TemplateForm {
  p: string;
  m: { role: string; content: string }[];
  s: { title?: string; description?: string; properties: { text: { maxLength: number; description: string } } };
}

/**
 * The form of a new address: `templates/address/form.json` (the form every actor can follow,
 * docs/lint.md "Forms every actor accepts") titled with its name.
 */
export async function formTemplate(name: string): Promise<string> {
  const form = JSON.parse(await readFile(join(TEMPLATES, "address", "form.json"), "utf8")) as TemplateForm;
  form.s.title = name;
  return `${JSON.stringify(form, null, 2)}\n`;
}

/** The schema of the template form written with `style`'s library (a TypeScript expression and its imports). */
function librarySchema(style: Exclude<FormStyle, "json">, text: TemplateForm["s"]["properties"]["text"]) {
  const max = text.maxLength;
  const description = JSON.stringify(text.description);
  switch (style) {
    case "zod":
      return {
        imports: 'import { z } from "zod";',
        s: `z.strictObject({\n    text: z.string().max(${max}).describe(${description}),\n  })`,
      };
    case "valibot":
      return {
        imports: 'import { toStandardJsonSchema } from "@valibot/to-json-schema";\nimport * as v from "valibot";',
        s: `toStandardJsonSchema(\n    v.strictObject({\n      text: v.pipe(v.string(), v.maxLength(${max}), v.description(${description})),\n    }),\n  )`,
      };
    case "arktype":
      return {
        imports: 'import { type } from "arktype";',
        s: `type({\n    "+": "reject",\n    text: type("string <= ${max}").describe(${description}),\n  })`,
      };
  }
}

/**
 * The template form written as a module with `style`'s library (`forms/<name>.ts`): the same
 * prompt, messages and constraints as the JSON one.
 */
export async function formModuleTemplate(name: string, style: Exclude<FormStyle, "json">): Promise<string> {
  const form = JSON.parse(await readFile(join(TEMPLATES, "address", "form.json"), "utf8")) as TemplateForm;
  const { imports, s } = librarySchema(style, form.s.properties.text);
  const messages = form.m.map((message) => `    ${JSON.stringify(message)},`).join("\n");
  return `/**
 * The form of the ${name} address, written with ${style}: \`gpt-address build\` writes s as JSON
 * Schema 2020-12 (what GET serves, byte for byte) and compiles its validator; the act's type is
 * ${style}'s input type of s.
 */
import type { FormSource } from "gpt-address/compile";
${imports}

export default {
  p: ${JSON.stringify(form.p)},
  m: [
${messages}
  ],
  s: ${s},
} satisfies FormSource;
`;
}

/** The form's own example: the content of the last assistant message of `m`, parsed. */
function exampleOf(formText: string): unknown {
  const form = JSON.parse(formText) as { m: { role: string; content: string }[] };
  const answer = form.m.findLast((message) => message.role === "assistant");
  if (answer === undefined) throw new Error("the address template's form has no example in m");
  return JSON.parse(answer.content);
}

function addressSource(name: string, formFile: string): string {
  return `/**
 * The ${name} address: GET /${name} serves the form built from ${formFile}; a POST whose
 * body that form accepts runs the act below and is answered 200 with what it returns, any other
 * body is answered 204 with nothing.
 *
 * @module
 */
import { address } from "gpt-address";
import { form } from "./generated/${name}.js";

export default address({
  form,
  // \`act\` is typed by the form (src/generated/${name}.d.ts); what it returns is the 200 JSON.
  act: (act) => ({ received: true, text: act.text }),
});
`;
}

function testSource(name: string, example: unknown): string {
  const body = JSON.stringify(JSON.stringify(example));
  return `import { describe, expect, it } from "vitest";
import app from "../src/app.ts";

const post = (body: string) =>
  app.request("/${name}", { method: "POST", headers: { "content-type": "application/json" }, body });

describe("the ${name} address", () => {
  it("serves its form on GET", async () => {
    const response = await app.request("/${name}");
    expect(response.status).toBe(200);
    expect(Object.keys((await response.json()) as object)).toEqual(["p", "m", "s"]);
  });

  it("answers the form's own example 200 with what the act returns", async () => {
    const response = await post(${body});
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, text: ${JSON.stringify((example as { text?: unknown }).text)} });
  });

  it("answers an act the form refuses (a member it does not name) 204, with no body", async () => {
    const response = await post(${JSON.stringify(JSON.stringify({ ...(example as object), extra: 1 }))});
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
  });
});
`;
}

/** The new files of address `name`, by path relative to the project. */
export async function addressFiles(name: string, style: FormStyle = "json"): Promise<Record<string, string>> {
  checkAddressName(name);
  const form = await formTemplate(name);
  const formFile = join("forms", `${name}.${style === "json" ? "json" : "ts"}`);
  return {
    [formFile]: style === "json" ? form : await formModuleTemplate(name, style),
    [join("src", `${name}.ts`)]: addressSource(name, formFile.split("\\").join("/")),
    [join("test", `${name}.test.ts`)]: testSource(name, exampleOf(form)),
  };
}

/**
 * `app` (the text of `src/app.ts`) with address `name` mounted: its import after the last
 * import, its route after the last route of an address (`app.route("/<name>", <name>);`, or after
 * `const app = new Hono…`). `null`
 * when either place is not there.
 */
export function mountAddress(app: string, name: string): string | null {
  const identifier = camelName(name);
  const lines = app.split("\n");
  const lastImport = lines.findLastIndex((line) => /^import .* from "[^"]+";$/.test(line));
  let routeAfter = lines.findLastIndex((line) => /^app\.route\("\/[a-z][a-z0-9-]*", \w+\);$/.test(line));
  if (routeAfter < 0) routeAfter = lines.findIndex((line) => /^const app = new Hono\b/.test(line));
  if (lastImport < 0 || routeAfter < lastImport) return null;
  lines.splice(routeAfter + 1, 0, `app.route("/${name}", ${identifier});`);
  lines.splice(lastImport + 1, 0, `import ${identifier} from "./${name}.ts";`);
  return lines.join("\n");
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * Writes address `name` into the project at `root` and mounts it in `src/app.ts` when there is
 * one to mount it in.
 *
 * @returns the paths written (relative to `root`), and the lines to add by hand when
 *   `src/app.ts` is missing or has no place for them (else `null`).
 * @throws UsageError for a bad name, or when one of the files exists (then nothing is written).
 */
export async function writeAddress(
  root: string,
  name: string,
  style: FormStyle = "json",
): Promise<{ readonly written: ReadonlyArray<string>; readonly mountByHand: string | null }> {
  const files = await addressFiles(name, style);
  // A form written as forms/<name>.json or .ts: either one taken means the name is.
  for (const extension of [".json", ".ts", ".mts", ".js", ".mjs"]) {
    const file = join("forms", `${name}${extension}`);
    if (await exists(join(root, file))) throw new UsageError(`${file} exists; nothing was written`);
  }
  for (const file of Object.keys(files))
    if (await exists(join(root, file))) throw new UsageError(`${file} exists; nothing was written`);
  const appFile = join(root, "src", "app.ts");
  const app = (await exists(appFile)) ? await readFile(appFile, "utf8") : null;
  const mounted = app === null ? null : mountAddress(app, name);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
  const written = Object.keys(files);
  if (mounted !== null) {
    await writeFile(appFile, mounted);
    return { written: [...written, join("src", "app.ts")], mountByHand: null };
  }
  const identifier = camelName(name);
  return {
    written,
    mountByHand: `import ${identifier} from "./${name}.ts";\napp.route("/${name}", ${identifier});`,
  };
}
