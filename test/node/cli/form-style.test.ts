/**
 * `gpt-address init --form` and `new --form` (issue 33): an address whose form is written with zod,
 * valibot or ArkType (`forms/<name>.ts`), the library pinned at the version this package tests,
 * built clean by `gpt-address build` and type-checked as written.
 */
import { mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.ts";

const repo = join(import.meta.dirname, "..", "..", "..");
const own = JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
};
let folder = "";

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "gpt-address-form-style-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const manifestOf = async (project: string) => JSON.parse(await readFile(join(project, "package.json"), "utf8"));

/** tsc's errors for `file`, gpt-address resolved to this repository's sources. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    erasableSyntaxOnly: true,
    verbatimModuleSyntax: true,
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: [],
    paths: {
      "gpt-address": [join(repo, "src", "index.ts")],
      "gpt-address/compile": [join(repo, "src", "compile", "index.ts")],
    },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName.startsWith(repo) !== true)
    .map(
      (diagnostic) =>
        `${diagnostic.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
    );
}

describe("--form zod|valibot|arktype", () => {
  it("init --form zod writes forms/hello.ts and pins zod in devDependencies at the version gpt-address tests", async () => {
    const project = join(folder, "with-zod");
    const made = await runCli(["init", project, "--runtime", "workers", "--form", "zod"], folder);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain("wrote forms/hello.ts\n");
    expect(made.stdout).not.toContain("forms/hello.json");
    const manifest = await manifestOf(project);
    expect(manifest.devDependencies.zod).toBe(own.devDependencies.zod);
    expect(manifest.devDependencies.zod).toMatch(/^\d+\.\d+\.\d+$/);
    // Type stripping imports the form: Node 22.18 or later.
    expect(manifest.engines.node).toBe(">=22.18");
    expect(await readFile(join(project, "src", "hello.ts"), "utf8")).toContain("the form built from forms/hello.ts");
    const plain = join(folder, "plain");
    expect((await runCli(["init", plain], folder)).code).toBe(0);
    expect((await manifestOf(plain)).devDependencies.zod).toBeUndefined();
  });

  it("new --form valibot and --form arktype add the libraries once; every style builds clean and type-checks", async () => {
    const project = join(folder, "styles");
    expect((await runCli(["init", project, "--runtime", "node", "--form", "zod"], folder)).code).toBe(0);
    const valibot = await runCli(["new", "guest-book", "--dir", project, "--form", "valibot"], folder);
    expect(valibot.code).toBe(0);
    expect(valibot.stdout).toContain(
      `added to package.json devDependencies: valibot@${own.devDependencies.valibot}, @valibot/to-json-schema@${own.devDependencies["@valibot/to-json-schema"]}\n`,
    );
    expect(valibot.stdout).toContain("next: npm install && npm run build && npm test\n");
    expect((await runCli(["new", "survey", "--dir", project, "--form", "arktype"], folder)).code).toBe(0);
    const again = await runCli(["new", "other", "--dir", project, "--form", "zod"], folder);
    expect(again.stdout).not.toContain("added to package.json");
    expect(await manifestOf(project)).toMatchObject({
      devDependencies: {
        zod: own.devDependencies.zod,
        valibot: own.devDependencies.valibot,
        "@valibot/to-json-schema": own.devDependencies["@valibot/to-json-schema"],
        arktype: own.devDependencies.arktype,
      },
    });
    // A name taken by a form in either style is taken.
    const twin = await runCli(["new", "survey", "--dir", project], folder);
    expect(twin.code).toBe(2);
    expect(twin.stderr).toContain("forms/survey.ts exists");
    expect((await runCli(["new", "x", "--dir", project, "--form", "yup"], folder)).code).toBe(2);

    await symlink(join(repo, "node_modules"), join(project, "node_modules"), "dir");
    const built = await runCli(["build", "--dir", project], folder);
    expect(built.stderr).toBe("");
    expect(built.code).toBe(0);
    for (const name of ["hello", "guest-book", "survey", "other"]) {
      expect(built.stdout).toContain(`built forms/${name}.ts → src/generated/${name}.js`);
      const { form } = await import(pathToFileURL(join(project, "src", "generated", `${name}.js`)).href);
      // The template's own example is accepted, a member the form does not name refused.
      expect(form.validate({ text: "Hello, team!" }), name).toBe(true);
      expect(form.validate({ text: "Hello, team!", extra: 1 }), name).toBe(false);
      expect(form.validate({ text: "x".repeat(201) }), name).toBe(false);
      expect(JSON.parse(form.arrival).s.properties.text.description).toBe("The greeting, at most 200 characters.");
      expect(typeErrors(join(project, "forms", `${name}.ts`)), name).toEqual([]);
      expect(await readFile(join(project, "src", "generated", `${name}.d.ts`), "utf8")).toContain(
        `import type source from "../../forms/${name}.ts";`,
      );
    }
  }, 120_000);
});
