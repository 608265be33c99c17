/**
 * Forms as code (issue 33): a form written in zod, valibot or ArkType (`forms/<name>.ts`) is built,
 * served and verified like a `.json` one, GET publishing the library's own JSON Schema 2020-12 and
 * POST agreeing with the library's own validation; its `Act` type is the library's input type.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build as esbuild } from "esbuild";
import fc from "fast-check";
import { Hono } from "hono";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltForm, buildForms } from "../../../src/compile/build-forms.ts";
import { address, type CompiledForm } from "../../../src/index.ts";
import { nearValue, validValue } from "./schema-arbitrary.ts";

const repo = join(import.meta.dirname, "..", "..", "..");
const fixtures = join(repo, "test", "fixtures", "form-modules");
/** Each library, and whether its string lengths count code points as JSON Schema does (zod 4) or UTF-16 code units. */
const libraries = [
  { vendor: "zod", form: "zod-note", codePoints: true },
  { vendor: "valibot", form: "valibot-note", codePoints: false },
  { vendor: "arktype", form: "arktype-note", codePoints: false },
] as const;

interface Standard {
  readonly "~standard": {
    readonly vendor: string;
    readonly validate: (value: unknown) => { readonly issues?: unknown } | Promise<{ readonly issues?: unknown }>;
    readonly jsonSchema: { readonly input: (options: { readonly target: string }) => unknown };
  };
}

let root = "";
let built: BuiltForm[] = [];

/** A project folder whose node_modules is this repository's (the libraries a form imports). */
async function project(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "gpt-address-form-modules-"));
  await symlink(join(repo, "node_modules"), join(folder, "node_modules"), "dir");
  await writeFile(join(folder, "package.json"), '{ "type": "module" }\n');
  await mkdir(join(folder, "forms"));
  return folder;
}

beforeAll(async () => {
  root = await project();
  for (const { form } of libraries) await copyFile(join(fixtures, `${form}.ts`), join(root, "forms", `${form}.ts`));
  built = await buildForms({ root, outDir: "src/generated", typesFrom: join(repo, "src", "index.ts") });
}, 60_000);

afterAll(async () => {
  if (root !== "") await rm(root, { recursive: true, force: true });
});

async function served(form: string) {
  const { form: compiled } = (await import(pathToFileURL(join(root, "src", "generated", `${form}.js`)).href)) as {
    form: CompiledForm<unknown>;
  };
  const app = new Hono();
  app.route(`/${form}`, address({ form: compiled, act: (act) => ({ received: act }) }));
  return { compiled, app };
}

describe.each(libraries)("a form written with $vendor", ({ vendor, form, codePoints }) => {
  it("is built from forms/<name>.ts, its Act typed by the library (no fallback)", () => {
    expect(built.find((each) => each.name === form)).toMatchObject({ file: `forms/${form}.ts`, typeFallback: null });
  });

  it("V3 GET serves the library's own JSON Schema 2020-12 as s, the JSON text of what the library wrote", async () => {
    const { default: source } = (await import(pathToFileURL(join(fixtures, `${form}.ts`)).href)) as {
      default: { p: string; m: unknown[]; s: Standard };
    };
    expect(source.s["~standard"].vendor).toBe(vendor);
    const own = source.s["~standard"].jsonSchema.input({ target: "draft-2020-12" });
    const { app, compiled } = await served(form);
    const response = await app.request(`http://localhost/${form}`, { headers: { accept: "application/json" } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toBe(JSON.stringify({ p: source.p, m: source.m, s: own }));
    expect(compiled.arrival).toBe(text);
  });

  it("V1 POST agrees with the library's own ~standard.validate on 400 values near the form (accepts and rejects)", async () => {
    const { default: source } = (await import(pathToFileURL(join(fixtures, `${form}.ts`)).href)) as {
      default: { s: Standard };
    };
    const own = source.s["~standard"].jsonSchema.input({ target: "draft-2020-12" }) as Record<string, unknown>;
    const { app } = await served(form);
    const seen = { accepted: 0, rejected: 0 };
    const disagreements: unknown[] = [];
    const check = async (value: unknown) => {
      const body = JSON.stringify(value);
      const library = (await source.s["~standard"].validate(JSON.parse(body))).issues === undefined;
      const response = await app.request(`http://localhost/${form}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const answered = response.status === 200;
      expect([200, 204]).toContain(response.status);
      if (answered) expect(await response.json()).toEqual({ received: JSON.parse(body) });
      seen[answered ? "accepted" : "rejected"]++;
      if (answered !== library) disagreements.push({ value, library, answered });
    };
    await fc.assert(fc.asyncProperty(validValue(own), check), { numRuns: 200, seed: 33 });
    await fc.assert(fc.asyncProperty(nearValue(own), check), { numRuns: 400, seed: 34 });
    expect(disagreements).toEqual([]);
    // Both sides exercised: every valid value accepted, and a good share of the near ones refused.
    expect(seen.accepted).toBeGreaterThanOrEqual(250);
    expect(seen.rejected).toBeGreaterThanOrEqual(100);
  });

  it(`beyond U+FFFF the published form counts code points, as the library does${codePoints ? "" : " not (it counts UTF-16 code units): the form decides"}`, async () => {
    const { default: source } = (await import(pathToFileURL(join(fixtures, `${form}.ts`)).href)) as {
      default: { s: Standard };
    };
    const { compiled } = await served(form);
    const own = source.s["~standard"].jsonSchema.input({ target: "draft-2020-12" }) as Record<string, unknown>;
    const valid = fc.sample(validValue(own), { numRuns: 1, seed: 7 })[0] as Record<string, unknown>;
    // 20 astral characters: 20 code points (maxLength 20 holds), 40 code units (the library's max(20) does not).
    const act = { ...valid, title: "😀".repeat(20) };
    expect(compiled.validate(act)).toBe(true);
    expect((await source.s["~standard"].validate(act)).issues === undefined).toBe(codePoints);
  });
});

describe("the generated module of a form written with a library", () => {
  it("imports nothing of the library: an esbuild bundle of the address holds none of it (and does when the form module is imported)", async () => {
    for (const { vendor, form } of libraries) {
      // esbuild marks each bundled module with its path: node_modules/<package>/….
      const mark = new RegExp(`node_modules/(?:@[a-z]+/)?${vendor === "valibot" ? "valibot|@valibot" : vendor}`);
      const bundle = async (entry: string) => {
        const result = await esbuild({
          stdin: { contents: entry, resolveDir: root, loader: "ts" },
          bundle: true,
          write: false,
          format: "esm",
          platform: "neutral",
          mainFields: ["module", "main"],
          logLevel: "silent",
        });
        return result.outputFiles[0]?.text ?? "";
      };
      const generated = await bundle(
        `import { address } from ${JSON.stringify(join(repo, "src", "index.ts"))};\nimport { form } from "./src/generated/${form}.js";\nexport default address({ form, act: (act) => act });`,
      );
      expect(generated).toContain("validate");
      expect(generated, vendor).not.toMatch(mark);
      expect(generated, vendor).not.toMatch(/node_modules\/(?:zod|valibot|arktype|@ark|@valibot)\//);
      // The control: the same bundle with the form module imported for its value does hold the library.
      const withSource = await bundle(
        `import source from "./forms/${form}.ts";\nimport { form } from "./src/generated/${form}.js";\nexport default [form, source];`,
      );
      expect(withSource, vendor).toMatch(mark);
    }
  });

  it("types Act as the library's input type: tsc accepts the equalities and refuses a deliberate mismatch", async () => {
    const check = join(root, "check.ts");
    const mismatch = join(root, "mismatch.ts");
    await writeFile(
      check,
      [
        'import { expectTypeOf } from "vitest";',
        'import type { z } from "zod";',
        'import type * as v from "valibot";',
        'import type { Act as ZodAct, form as zodForm } from "./src/generated/zod-note.js";',
        'import type { Act as ValibotAct } from "./src/generated/valibot-note.js";',
        'import type { Act as ArkTypeAct } from "./src/generated/arktype-note.js";',
        'import type { schema as zodSchema } from "./forms/zod-note.ts";',
        'import type { schema as valibotSchema } from "./forms/valibot-note.ts";',
        'import type { schema as arkTypeSchema } from "./forms/arktype-note.ts";',
        'import type { CompiledForm } from "gpt-address";',
        "expectTypeOf<ZodAct>().toEqualTypeOf<z.input<typeof zodSchema>>();",
        "expectTypeOf<ValibotAct>().toEqualTypeOf<v.InferInput<typeof valibotSchema>>();",
        "expectTypeOf<ArkTypeAct>().toEqualTypeOf<(typeof arkTypeSchema)['inferIn']>();",
        "expectTypeOf<typeof zodForm>().toEqualTypeOf<CompiledForm<z.input<typeof zodSchema>>>();",
        "// The input type: an optional member may be absent.",
        'expectTypeOf<ZodAct["done"]>().toEqualTypeOf<boolean | undefined>();',
        "",
      ].join("\n"),
    );
    await writeFile(
      mismatch,
      [
        'import { expectTypeOf } from "vitest";',
        'import type { Act as ZodAct } from "./src/generated/zod-note.js";',
        'import type { Act as ValibotAct } from "./src/generated/valibot-note.js";',
        'import type { Act as ArkTypeAct } from "./src/generated/arktype-note.js";',
        "expectTypeOf<ZodAct>().toEqualTypeOf<{ title: string; count: number }>();",
        "expectTypeOf<ValibotAct>().toEqualTypeOf<ArkTypeAct & { extra: 1 }>();",
        "expectTypeOf<ArkTypeAct>().toEqualTypeOf<unknown>();",
        "",
      ].join("\n"),
    );
    const errors = (file: string) => {
      const program = ts.createProgram([file], {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        allowImportingTsExtensions: true,
        verbatimModuleSyntax: true,
        noEmit: true,
        strict: true,
        skipLibCheck: true,
        lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
        types: [],
        paths: { "gpt-address": [join(repo, "src", "index.ts")] },
      });
      return ts
        .getPreEmitDiagnostics(program)
        .map(
          (diagnostic) =>
            `${diagnostic.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
        );
    };
    expect(errors(check)).toEqual([]);
    const refused = errors(mismatch);
    // One error for each of the three mismatched lines, each in mismatch.ts.
    expect(refused.filter((error) => error.startsWith(mismatch))).toHaveLength(3);
    expect(await readFile(join(root, "src", "generated", "zod-note.d.ts"), "utf8")).toContain(
      'import type source from "../../forms/zod-note.ts";',
    );
  }, 120_000);
});
