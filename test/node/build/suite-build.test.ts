/**
 * V3, V4: the build accepts only what it can serve. Every schema of JSON-Schema-Test-Suite
 * draft2020-12 that `compileForm` accepts becomes the `s` of a form file, and all of them go
 * through the whole build at once (`buildForms`: meta-schema, validator, `Act` type, modules),
 * then through `tsc` with declaration files checked, then into plain Node (no TypeScript
 * loader), where every suite test runs through the built `form.validate`.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltForm, buildForms, FormFileError } from "../../../src/compile/build-forms.ts";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { suiteGroups } from "../compile/suite-files.ts";
import { differingTests } from "../compile/suite-ledger.ts";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("../../../", import.meta.url).href);
const tsc = join(repo, "node_modules", "typescript", "bin", "tsc");

/** Groups whose schema compileForm accepts, each with its form name. */
const accepted = suiteGroups()
  .filter((group) => {
    try {
      compileForm(group.schema);
      return true;
    } catch {
      return false;
    }
  })
  .map((group, index) => ({ ...group, name: `s${String(index).padStart(3, "0")}` }));
/** A2: the arrival document's `s` is an object, so a boolean schema is not a form. */
const objectForms = accepted.filter((group) => typeof group.schema === "object");
const booleanForms = accepted.filter((group) => typeof group.schema === "boolean");

/**
 * The form file of a suite schema. An integer literal beyond ±(2^53-1) is refused by the
 * strict parser (I-JSON, V2), so the three such numbers of the suite (`9007199254740992`,
 * `±18446744073709552000`) are written with an exponent: the same double.
 */
const arrival = (s: unknown) =>
  JSON.stringify({ p: "A suite schema as a form.", m: [], s }).replace(
    /([:,[])(-?\d{16,})(?=[,\]}])/g,
    (_, before: string, digits: string) => `${before}${Number(digits).toExponential()}`,
  );

let root = "";
let built: BuiltForm[] = [];

/**
 * Valid instances whose TypeScript literal is not the JSON value, so the check says nothing of
 * the type: a JavaScript object literal's `"__proto__": 12` sets the prototype instead of
 * making a member (JSON.parse makes a member), and TypeScript then compares the literal's
 * inherited `toString` and `constructor` with the optional properties of those names.
 */
const knownNarrow = new Map([
  [
    "properties.json › properties whose names are Javascript object property names › all present and valid",
    'the literal {"__proto__": 12, …} has no __proto__ member',
  ],
]);

let typechecked: Promise<{ errors: string[]; valueAt: Map<number, string> }> | undefined;

/**
 * One `tsc` run over every generated declaration, the forms index, a user of every form
 * (`consumer.ts`), and every valid suite instance assigned to its form's `Act` (`values.ts`).
 */
function typecheck(): Promise<{ errors: string[]; valueAt: Map<number, string> }> {
  typechecked ??= (async () => {
    const lines = [`import type { CompiledForm } from ${JSON.stringify(join(repo, "src", "index.ts"))};`];
    lines.push(`import { forms } from "./out/forms.js";`);
    for (const form of built) lines.push(`import type { Act as ${form.name} } from "./out/${form.name}.js";`);
    lines.push("export const checked: ReadonlyArray<CompiledForm<unknown>> = [");
    for (const form of built) lines.push(`  forms.${form.name} satisfies CompiledForm<${form.name}>,`);
    lines.push("];", "");
    await writeFile(join(root, "consumer.ts"), lines.join("\n"));
    const values: string[] = [];
    const valueAt = new Map<number, string>();
    for (const group of objectForms) {
      values.push(`import type { Act as ${group.name} } from "./out/${group.name}.js";`);
      group.tests.forEach((test, index) => {
        const key = `${group.id} › ${test.description}`;
        if ((differingTests.has(key) ? !test.valid : test.valid) === false) return;
        values.push(`export const ${group.name}_${index}: ${group.name} = ${JSON.stringify(test.data)};`);
        valueAt.set(values.length, key);
      });
    }
    await writeFile(join(root, "values.ts"), `${values.join("\n")}\n`);
    await writeFile(
      join(root, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          allowImportingTsExtensions: true,
          verbatimModuleSyntax: true,
          noUncheckedIndexedAccess: true,
          module: "ESNext",
          moduleResolution: "Bundler",
          target: "ES2022",
          lib: ["ES2023", "WebWorker"],
          types: [],
        },
        include: ["consumer.ts", "values.ts", "out/*.d.ts"],
      }),
    );
    const output = await run(process.execPath, [tsc, "-p", root, "--pretty", "false"], { cwd: root }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    const errors = output.split("\n").filter((line) => /^\S.*error TS\d+/.test(line));
    if (output !== "" && errors.length === 0) errors.push(output);
    return { errors, valueAt };
  })();
  return typechecked;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "gpt-address-suite-build-"));
  await mkdir(join(root, "forms"));
  for (const group of objectForms) await writeFile(join(root, "forms", `${group.name}.json`), arrival(group.schema));
  built = await buildForms({ root, outDir: "out", typesFrom: join(repo, "src", "index.ts") });
}, 120_000);

afterAll(async () => {
  if (root !== "") await rm(root, { recursive: true, force: true });
});

describe("V3 V4 the whole build over JSON-Schema-Test-Suite draft2020-12", () => {
  it("has the suite's schemas to build (386 accepted by compileForm, 2 of them boolean)", () => {
    expect(accepted.length).toBe(386);
    expect(booleanForms.map((group) => group.id)).toEqual([
      "boolean_schema.json › boolean schema 'true'",
      "boolean_schema.json › boolean schema 'false'",
    ]);
  });

  it("builds every accepted object schema, each with its exact Act type (no fallback)", () => {
    expect(built.map((form) => form.name)).toEqual(objectForms.map((group) => group.name));
    expect(built.filter((form) => form.typeFallback !== null)).toEqual([]);
  });

  it("every generated declaration and the forms index typecheck, root type Act whatever title or $id", async () => {
    const { errors } = await typecheck();
    expect(errors.filter((error) => !error.startsWith("values.ts("))).toEqual([]);
  }, 60_000);

  it("every valid instance of the suite is assignable to its form's Act (the type is wide enough)", async () => {
    const { errors, valueAt } = await typecheck();
    const narrow = errors
      .filter((error) => error.startsWith("values.ts("))
      .map((error) => valueAt.get(Number(/^values\.ts\((\d+),/.exec(error)?.[1])) ?? error);
    expect(new Set(narrow)).toEqual(new Set(knownNarrow.keys()));
    expect(valueAt.size).toBeGreaterThan(800);
  }, 60_000);

  it("every built form module runs in plain Node and answers every suite test as the suite says", async () => {
    const script = [
      `import { forms } from "./out/forms.js";`,
      `const groups = JSON.parse(process.argv[2] ?? "[]");`,
      `const answers = groups.map(({ name, data }) => data.map((value) => forms[name].validate(value)));`,
      `process.stdout.write(JSON.stringify(answers));`,
    ].join("\n");
    await writeFile(join(root, "answer.mjs"), script);
    await writeFile(
      join(root, "groups.json"),
      JSON.stringify(objectForms.map((group) => ({ name: group.name, data: group.tests.map((test) => test.data) }))),
    );
    // The groups go in a file read by a tiny wrapper: argument lists have a size limit.
    await writeFile(
      join(root, "main.mjs"),
      `import { readFileSync } from "node:fs";\nprocess.argv[2] = readFileSync(new URL("./groups.json", import.meta.url), "utf8");\nawait import("./answer.mjs");\n`,
    );
    const { stdout } = await run(process.execPath, ["--no-experimental-strip-types", join(root, "main.mjs")], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
    const answers = JSON.parse(stdout) as boolean[][];
    const wrong: string[] = [];
    objectForms.forEach((group, index) => {
      group.tests.forEach((test, testIndex) => {
        const key = `${group.id} › ${test.description}`;
        const expected = differingTests.has(key) ? !test.valid : test.valid;
        if (answers[index]?.[testIndex] !== expected) wrong.push(key);
      });
    });
    expect(wrong).toEqual([]);
    expect(answers.flat().length).toBe(1820);
  }, 60_000);

  it("A2 refuses a boolean s with a FormFileError naming the file and /s (control: the same value in an object)", async () => {
    const project = await mkdtemp(join(tmpdir(), "gpt-address-suite-boolean-"));
    try {
      await mkdir(join(project, "forms"));
      await writeFile(join(project, "forms", "b.json"), arrival(true));
      const error = await buildForms({ root: project, outDir: "out" }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(FormFileError);
      expect(error).toMatchObject({ file: "forms/b.json", pointer: "/s" });
      await writeFile(join(project, "forms", "b.json"), arrival({ allOf: [true] }));
      const [form] = await buildForms({ root: project, outDir: "out" });
      expect(form?.typeFallback).toBeNull();
      expect(await readFile(join(project, "out", "b.d.ts"), "utf8")).toMatch(/^export type Act = unknown;$/m);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
