/**
 * Shared files and form-module failures (issue 33): a `$ref` to another JSON file of the project is
 * bundled into the form's `$defs`; what cannot be built names the file and pointer it comes from.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { describeBuilt } from "../../../src/cli/build.ts";
import { buildForms, FormFileError } from "../../../src/compile/build-forms.ts";
import { typeStrippingMissing } from "../../../src/compile/form-module.ts";

const repo = join(import.meta.dirname, "..", "..", "..");
const roots: string[] = [];

afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** A project with `files` (paths relative to it), node_modules linked to this repository's. */
async function project(files: Record<string, unknown>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "gpt-address-shared-"));
  roots.push(root);
  await symlink(join(repo, "node_modules"), join(root, "node_modules"), "dir");
  await writeFile(join(root, "package.json"), '{ "type": "module" }\n');
  await mkdir(join(root, "forms"));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

const p = "This address takes a place. An act is one JSON object valid against s, sent as the body of a POST.";
const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});
const coordinate = { type: "integer", minimum: -90, maximum: 90 };
const point = closed({ x: coordinate, y: coordinate });
const address = {
  $defs: {
    postal: closed({ street: { type: "string", maxLength: 40 }, at: { $ref: "point.json" } }),
    tag: { type: "string", maxLength: 8 },
  },
};

async function served(root: string, name: string) {
  const { form } = await import(pathToFileURL(join(root, "out", `${name}.js`)).href);
  return { form, s: JSON.parse(form.arrival).s };
}

async function buildError(root: string): Promise<FormFileError> {
  const error = await buildForms({ root, outDir: "out", onLint: () => {} }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FormFileError);
  return error as FormFileError;
}

describe("shared files", () => {
  it("bundles the files a form's $refs reach into its $defs, refs rewritten to pointers, and serves one document", async () => {
    const root = await project({
      "forms/place.json": {
        p,
        m: [],
        s: closed({
          home: { $ref: "./shared/address.json#/$defs/postal" },
          label: { $ref: "shared/address.json#/$defs/tag" },
          spot: { $ref: "shared/point.json" },
        }),
      },
      "forms/shared/address.json": address,
      "forms/shared/point.json": point,
    });
    const [built] = await buildForms({ root, outDir: "out" });
    expect(built?.sharedFiles).toEqual(["forms/shared/address.json", "forms/shared/point.json"]);
    expect(describeBuilt(built!)).toMatch(
      /^built forms\/place\.json \(with forms\/shared\/address\.json, forms\/shared\/point\.json\) → out\/place\.js/,
    );
    const { form, s } = await served(root, "place");
    expect(s).toEqual({
      ...closed({ home: { $ref: "#/$defs/postal" }, label: { $ref: "#/$defs/tag" }, spot: { $ref: "#/$defs/point" } }),
      // A file of definitions only gives each its own name; any other file is one definition.
      $defs: {
        postal: closed({ street: { type: "string", maxLength: 40 }, at: { $ref: "#/$defs/point" } }),
        tag: { type: "string", maxLength: 8 },
        point,
      },
    });
    const act = { home: { street: "Main", at: { x: 1, y: 2 } }, label: "home", spot: { x: 0, y: -90 } };
    expect(form.validate(act)).toBe(true);
    expect(form.validate({ ...act, spot: { x: 0, y: 91 } })).toBe(false);
    expect(form.validate({ ...act, label: "too long a label" })).toBe(false);
    // The shared folder holds no address.
    expect((await buildForms({ root, outDir: "out" })).map((each) => each.name)).toEqual(["place"]);
    const types = await readFile(join(root, "out", "place.d.ts"), "utf8");
    expect(types).toMatch(/export interface Act \{/);
    expect(types).toMatch(/export interface Point \{/);
  });

  it("keeps the form's own $defs and names a shared file apart from them; a recursive pair of files is a recursive form", async () => {
    const root = await project({
      "forms/tree.json": {
        p,
        m: [],
        s: { ...closed({ root: { $ref: "shared/node.json" } }), $defs: { node: { type: "boolean" } } },
      },
      "forms/shared/node.json": closed(
        { name: { type: "string", maxLength: 9 }, children: { $ref: "list.json" } },
        { required: ["name"] },
      ),
      "forms/shared/list.json": { type: "array", maxItems: 3, items: { $ref: "node.json" } },
    });
    await buildForms({ root, outDir: "out" });
    const { form, s } = await served(root, "tree");
    expect(Object.keys(s.$defs)).toEqual(["node", "node2", "list"]);
    expect(s.properties.root).toEqual({ $ref: "#/$defs/node2" });
    expect(s.$defs.list.items).toEqual({ $ref: "#/$defs/node2" });
    expect(form.validate({ root: { name: "a", children: [{ name: "b", children: [{ name: "c" }] }] } })).toBe(true);
    expect(form.validate({ root: { name: "a", children: [{ name: 1 }] } })).toBe(false);
  });

  it("refuses a cycle of shared files that never descends into the instance, at the $ref in the file that closes it", async () => {
    const root = await project({
      "forms/loop.json": { p, m: [], s: closed({ a: { $ref: "shared/a.json" } }) },
      "forms/shared/a.json": { $ref: "b.json" },
      "forms/shared/b.json": { $ref: "a.json" },
    });
    const error = await buildError(root);
    expect(error.file).toMatch(/^forms\/shared\/[ab]\.json$/);
    expect(error.pointer).toBe("/$ref");
    expect(error.message).toMatch(/^forms\/shared\/[ab]\.json#\/\$ref: ref-cycle .*validation would never end/);
  });

  it("refuses a $ref to a missing file, to nothing in a file, to another form, and outside the project, at the $ref", async () => {
    const cases: Array<[unknown, string | RegExp]> = [
      [
        { $ref: "shared/nope.json" },
        /^forms\/x\.json#\/s\/properties\/a\/\$ref: the shared file forms\/shared\/nope\.json cannot be read \(ENOENT\)$/,
      ],
      [
        { $ref: "shared/point.json#/properties/z" },
        "forms/x.json#/s/properties/a/$ref: #/properties/z points at no schema in forms/shared/point.json",
      ],
      [
        { $ref: "other.json" },
        "forms/x.json#/s/properties/a/$ref: forms/other.json is a form (an address), not a shared file: move what both use to forms/shared/",
      ],
      [{ $ref: "../../outside.json" }, /is outside the project folder: copy it under forms\/shared\/$/],
    ];
    for (const [a, message] of cases) {
      const root = await project({
        "forms/x.json": { p, m: [], s: closed({ a }) },
        "forms/other.json": { p, m: [], s: { type: "boolean" } },
        "forms/shared/point.json": point,
      });
      expect((await buildError(root)).message).toMatch(message);
    }
    const inFile = await project({
      "forms/x.json": { p, m: [], s: closed({ a: { $ref: "shared/address.json#/$defs/postal" } }) },
      "forms/shared/address.json": address,
    });
    expect((await buildError(inFile)).message).toBe(
      "forms/shared/address.json#/$defs/postal/properties/at/$ref: the shared file forms/shared/point.json cannot be read (ENOENT)",
    );
  });

  it("names the shared file and its pointer when the compiler or the linter refuses a part of it", async () => {
    const root = await project({
      "forms/x.json": { p, m: [], s: closed({ a: { $ref: "shared/bad.json" } }) },
      "forms/shared/bad.json": closed({ b: { type: "string", maxLength: 4, nullable: true } }),
    });
    expect((await buildError(root)).message).toMatch(
      /^forms\/shared\/bad\.json#\/properties\/b\/nullable: refused-keyword/,
    );
    const open = await project({
      "forms/x.json": { p, m: [], s: closed({ a: { $ref: "shared/open.json" } }) },
      "forms/shared/open.json": { type: "object", properties: { b: { type: "boolean" } } },
    });
    expect((await buildError(open)).message).toMatch(/^forms\/shared\/open\.json#: .*\(lint rule use-closed-object\)$/);
  });

  it("refuses a remote URL $ref with how to vendor it", async () => {
    const root = await project({
      "forms/x.json": { p, m: [], s: closed({ a: { $ref: "https://example.com/schemas/point.json" } }) },
    });
    const error = await buildError(root);
    expect(error.pointer).toBe("/s/properties/a/$ref");
    expect(error.message).toContain("https://example.com/schemas/point.json is outside the document");
    expect(error.message).toContain(
      'save a copy under forms/shared/ and $ref it by a path relative to the form file ("./shared/name.json#/$defs/x")',
    );
  });
});

describe("form modules: what cannot be built", () => {
  const module = (s: string, imports = "") =>
    `${imports}\nexport default { p: ${JSON.stringify(p)}, m: [], s: ${s} };\n`;

  it("names /s when the library cannot write s as JSON Schema, or has no converter", async () => {
    const cases: Array<[string, string, RegExp]> = [
      [
        'import { z } from "zod";',
        "z.strictObject({ d: z.date() })",
        /^forms\/x\.ts#\/s: zod cannot write s as JSON Schema 2020-12: Date cannot be represented/,
      ],
      [
        'import * as v from "valibot"; import { toStandardJsonSchema } from "@valibot/to-json-schema";',
        "toStandardJsonSchema(v.strictObject({ a: v.pipe(v.string(), v.check((s) => s.length > 2)) }))",
        /^forms\/x\.ts#\/s: valibot cannot write s as JSON Schema 2020-12: The "check" action cannot be converted/,
      ],
      [
        'import * as v from "valibot";',
        "v.strictObject({ a: v.string() })",
        /^forms\/x\.ts#\/s: valibot cannot write s as JSON Schema 2020-12: .*wrap it in toStandardJsonSchema\(\) from @valibot\/to-json-schema$/,
      ],
      // ArkType's Standard JSON Schema would silently widen these; the build asks it to say so.
      [
        'import { type } from "arktype";',
        'type({ "+": "reject", a: type("string <= 9").narrow((s) => s !== "x") })',
        /^forms\/x\.ts#\/s: arktype cannot write s as JSON Schema 2020-12: ArkType cannot write this predicate/,
      ],
      [
        'import { type } from "arktype";',
        'type({ "+": "reject", a: "Date" })',
        /^forms\/x\.ts#\/s: arktype cannot write s as JSON Schema 2020-12: ArkType cannot write this date in JSON Schema, so the address could not enforce it$/,
      ],
      // `| undefined` would become an anyOf branch {} (any value).
      [
        'import { type } from "arktype";',
        'type({ "+": "reject", "b?": "(string <= 3) | undefined" })',
        /^forms\/x\.ts#\/s: arktype cannot write s as JSON Schema 2020-12: ArkType cannot write this unit/,
      ],
    ];
    for (const [imports, s, message] of cases) {
      const root = await project({ "forms/x.ts": module(s, imports) });
      expect((await buildError(root)).message).toMatch(message);
    }
  });

  it("names the pointer of a value JSON cannot hold, and a module with no default export", async () => {
    const cases: Array<[string, string]> = [
      ['{ type: "object", default: new Date(0) }', "forms/x.ts#/s/default: a Date is not a JSON value"],
      ["{ type: 'number', maximum: Number.POSITIVE_INFINITY }", "forms/x.ts#/s/maximum: Infinity is not a JSON number"],
      ["{ enum: [() => 1] }", "forms/x.ts#/s/enum/0: a function is not a JSON value"],
    ];
    for (const [s, message] of cases) {
      const root = await project({ "forms/x.ts": module(s) });
      expect((await buildError(root)).message).toBe(message);
    }
    const none = await project({ "forms/x.mjs": "export const form = {};\n" });
    expect((await buildError(none)).message).toBe(
      "forms/x.mjs#: a form module's default export must be an object {p, m, s} (A2)",
    );
    const twins = await project({
      "forms/x.json": { p, m: [], s: { type: "boolean" } },
      "forms/x.ts": module('{ type: "boolean" }'),
    });
    expect((await buildError(twins)).message).toBe("forms/x.ts#: forms/x.json is the same form: one file per name");
  });

  it("builds a .js module whose s is a JSON Schema object, typed from the schema; a miss gives the usual file#pointer", async () => {
    const root = await project({
      "forms/plain.js": module(JSON.stringify(closed({ a: { type: "string", maxLength: 3 } }))),
      "forms/big.ts": module('{ type: "integer", minimum: 0, maximum: 9223372036854775807n }'),
    });
    const built = await buildForms({ root, outDir: "out" });
    expect(built.map((each) => [each.file, each.typeFallback])).toEqual([
      ["forms/big.ts", null],
      ["forms/plain.js", null],
    ]);
    expect(await readFile(join(root, "out", "plain.d.ts"), "utf8")).toMatch(
      /export interface Act \{\s+a: string;\s+\}/,
    );
    // An int64 bound written as a bigint is served as its digits.
    expect((await served(root, "big")).form.arrival).toContain('"maximum":9223372036854775807}');
    const bad = await project({ "forms/x.js": module('{ type: "string", maxLength: 3, formt: "email" }') });
    expect((await buildError(bad)).message).toMatch(/^forms\/x\.js#\/s\/formt: unknown-keyword/);
  });

  it("a .ts form on a Node without type stripping gets a message naming the file and what to do", () => {
    expect(typeStrippingMissing("forms/note.ts", {}, "v22.12.0")).toBe(
      "a form in TypeScript is imported with Node's type stripping (Node ≥ 22.18), which this Node (v22.12.0) does not do: build on Node 22.18 or later, or write forms/note.js or forms/note.json",
    );
    expect(typeStrippingMissing("forms/note.ts", { typescript: "strip" }, "v22.18.0")).toBeNull();
    expect(typeStrippingMissing("forms/note.js", {}, "v20.19.0")).toBeNull();
  });

  it("gpt-address build imports a .ts form with Node's own type stripping (no loader), in a child process", async () => {
    const root = await project({
      "forms/note.ts": module(
        'z.strictObject({ text: z.string().max(20) }) satisfies { "~standard": unknown }',
        'import { z } from "zod";\nimport type { ZodType } from "zod";\nconst _: ZodType | undefined = undefined;\nvoid _;',
      ),
    });
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(repo, "src", "cli", "bin.ts"), "build", "--dir", root],
      {
        timeout: 60_000,
      },
    );
    expect(stdout).toMatch(/^built forms\/note\.ts → src\/generated\/note\.js/m);
    const { form } = await import(pathToFileURL(join(root, "src", "generated", "note.js")).href);
    expect(JSON.parse(form.arrival).s.properties.text).toEqual({ type: "string", maxLength: 20 });
  });
});
