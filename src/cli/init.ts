/**
 * `gpt-address init [dir] --runtime workers|node|bun|deno|vercel`: makes a project a user can commit,
 * serving one address (`hello`) on the runtime chosen: `package.json` (scripts `dev`, `build`,
 * `test`, and `start` or `deploy` where the runtime has one), `tsconfig.json`, `.gitignore`, a
 * README, `src/app.ts` (the Hono app), the runtime's entry and configuration (from
 * `templates/<runtime>/`), and the address's form, module and test (`scaffold.ts`, as `new`);
 * `--form zod|valibot|arktype` writes the form with that library (`forms/hello.ts`) and adds the
 * library to devDependencies.
 *
 * The versions the project depends on are the ones this package is tested with (its own
 * `package.json`); `gpt-address` itself is `^<this version>`, or `--from` (a tarball, a folder or
 * a git URL, as npm takes them).
 *
 * @module
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { defineCommand } from "citty";
import { FIRST_ADDRESS, RUNTIMES, type Runtime, runtimeNames } from "./runtimes.ts";
import {
  checkFormStyle,
  FORM_STYLE_PACKAGES,
  type FormStyle,
  fillTemplate,
  formArg,
  TEMPLATES,
  writeAddress,
} from "./scaffold.ts";
import { exitCodes, ioOf, UsageError } from "./shared.ts";

/** This package's manifest: its version, and the versions a new project pins. */
interface OwnManifest {
  readonly version: string;
  readonly devDependencies: Readonly<Record<string, string>>;
}

async function ownManifest(): Promise<OwnManifest> {
  return JSON.parse(await readFile(join(TEMPLATES, "..", "package.json"), "utf8")) as OwnManifest;
}

/** A package name npm takes (`My Address!` → `my-address`). */
export function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return name === "" ? "gpt-address-project" : name.slice(0, 214);
}

/**
 * The dependency spec of `gpt-address` for a project at `root`: `^<version>` (the registry), or
 * `from`. A `from` that names a file or folder (it exists, or starts with `.`, `/` or `file:`,
 * or ends with `.tgz`) becomes `file:` and a path relative to the project; anything else (a git
 * URL, `user/repo`, a version range) is passed to npm as it is.
 */
function gptAddressSpec(from: string | undefined, version: string, cwd: string, root: string): string {
  if (from === undefined) return `^${version}`;
  const path = from.replace(/^file:/, "");
  const local = from !== path || /^[./]/.test(from) || from.endsWith(".tgz") || existsSync(resolve(cwd, from));
  if (!local) return from;
  const relativePath = relative(root, resolve(cwd, path));
  return `file:${isAbsolute(relativePath) ? resolve(cwd, path) : relativePath.split("\\").join("/")}`;
}

/** Every file of `folder` (recursively), as paths relative to it. */
async function filesOf(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

/** Template file names npm would not pack or would act on: `gitignore` → `.gitignore`, `dev.vars` → `.dev.vars`. */
const dotted = (file: string) => file.replace(/(^|\/)(gitignore|dev\.vars)$/, "$1.$2");

/** The files of a new project on `runtime`, by path relative to it. */
export async function projectFiles(
  runtime: Runtime,
  values: {
    readonly name: string;
    readonly gptAddress: string;
    readonly own: OwnManifest;
    /** How the first address's form is written (`json` by default). */
    readonly form?: FormStyle;
  },
): Promise<Record<string, string>> {
  const template = RUNTIMES[runtime];
  const fill = {
    name: values.name,
    runtime,
    compatibilityDate: template.compatibilityDate ?? "",
    dev: template.devCommand,
    devReload: template.devReload,
    deploy: template.deploy,
    address: FIRST_ADDRESS,
  };
  const files: Record<string, string> = {};
  for (const folder of ["common", ...template.folders]) {
    const base = join(TEMPLATES, folder);
    for (const file of await filesOf(base))
      files[dotted(file)] = fillTemplate(await readFile(join(base, file), "utf8"), fill);
  }
  const version = (name: string) => {
    const pinned = values.own.devDependencies[name];
    if (pinned === undefined) throw new Error(`no version of ${name} in gpt-address's own package.json`);
    return pinned;
  };
  // From a git URL npm builds gpt-address in its clone (its `prepare`), which npm 11 runs only
  // when approved, by the spec as written (npm matches a git dependency by its spec, not its name).
  const fromGit = /^(?:git(?:\+[a-z]+)?:|github:|gitlab:|bitbucket:|gist:)/.test(values.gptAddress);
  const allowScripts = [...template.allowScripts, ...(fromGit ? [values.gptAddress] : [])];
  const codeForm = (values.form ?? "json") !== "json";
  const manifest = {
    name: values.name,
    version: "0.0.0",
    private: true,
    type: "module",
    scripts: { build: "gpt-address build", ...template.scripts, test: "gpt-address build && tsc && vitest run" },
    // A form in TypeScript is imported by Node's type stripping (on by default from 22.18).
    engines: { node: codeForm && template.node === ">=22" ? ">=22.18" : template.node },
    dependencies: { "gpt-address": values.gptAddress, hono: version("hono") },
    devDependencies: Object.fromEntries(
      ["typescript", "vitest", ...template.devDependencies, ...FORM_STYLE_PACKAGES[values.form ?? "json"]]
        .sort()
        .map((name) => [name, version(name)]),
    ),
    ...(allowScripts.length > 0 ? { allowScripts: Object.fromEntries(allowScripts.map((name) => [name, true])) } : {}),
  };
  files["package.json"] = `${JSON.stringify(manifest, null, 2)}\n`;
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      allowImportingTsExtensions: true,
      erasableSyntaxOnly: true,
      verbatimModuleSyntax: true,
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      lib: template.lib,
      types: template.types,
    },
    include: template.include,
  };
  files["tsconfig.json"] = `${JSON.stringify(tsconfig, null, 2)}\n`;
  return files;
}

export default defineCommand({
  meta: {
    name: "init",
    description: "Make a new project in a folder: one address, its test, and the runtime's entry and configuration.",
  },
  args: {
    dir: { type: "positional", required: false, description: "The project folder (default: the current folder)" },
    runtime: {
      type: "enum",
      options: [...runtimeNames],
      default: "workers",
      description: `Where it runs: ${runtimeNames.join(", ")}`,
      valueHint: runtimeNames.join("|"),
    },
    from: {
      type: "string",
      description: "Where npm gets gpt-address (a tarball, a folder or a git URL; default: the registry)",
      valueHint: "spec",
    },
    ...formArg,
  },
  async run(context) {
    const io = ioOf(context);
    const runtime = context.args.runtime as Runtime;
    const form = checkFormStyle(context.args.form);
    if (!Object.hasOwn(RUNTIMES, runtime))
      throw new UsageError(`--runtime must be one of ${runtimeNames.join(", ")}: ${runtime}`);
    const dir = typeof context.args.dir === "string" ? context.args.dir : ".";
    const root = resolve(io.cwd, dir);
    const present = await readdir(root).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [] as string[];
      throw new UsageError(`${dir} cannot be read as a folder (${error.code ?? String(error)})`);
    });
    const kept = present.filter((entry) => ![".git", ".DS_Store"].includes(entry));
    if (kept.length > 0)
      throw new UsageError(
        `${dir} is not empty (${kept.slice(0, 3).join(", ")}${kept.length > 3 ? ", …" : ""}): init makes a new project`,
      );
    const own = await ownManifest();
    const files = await projectFiles(runtime, {
      name: packageName(basename(root)),
      gptAddress: gptAddressSpec(context.args.from, own.version, io.cwd, root),
      own,
      form,
    });
    for (const [file, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, file)), { recursive: true });
      await writeFile(join(root, file), text);
    }
    const { written } = await writeAddress(root, FIRST_ADDRESS, form);
    for (const file of [...Object.keys(files), ...written.filter((file) => !(file in files))].sort())
      io.stdout(`wrote ${file}\n`);
    const cd = relative(io.cwd, root);
    io.stdout(
      `\nA ${RUNTIMES[runtime].title} project with one address, /${FIRST_ADDRESS}. Next:\n\n${cd === "" ? "" : `  cd ${cd.includes(" ") ? JSON.stringify(cd) : cd}\n`}  npm install\n  npm run dev\n\nthen open http://127.0.0.1:8787/${FIRST_ADDRESS}; npm test runs its tests.\n`,
    );
    return exitCodes.ok;
  },
});
