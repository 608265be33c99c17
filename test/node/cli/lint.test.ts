import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LintedFile } from "../../../src/cli/lint.ts";
import { runCli } from "./run-cli.ts";

const p = "To act, send one HTTP POST to this address whose body is one JSON value valid against s.";
const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  additionalProperties: false,
  required,
  properties,
});
const name = { type: "string", minLength: 1, maxLength: 80 };

/** Forms that are not part of the project, each with the findings (rule at pointer) expected. */
const cases: Record<string, { form: unknown; expected: string[] }> = {
  "safe.json": {
    form: {
      p,
      m: [{ role: "assistant", content: '{"name": "Ada", "tags": ["x"], "age": 36}' }],
      s: closed(
        {
          name,
          tags: { type: "array", maxItems: 5, items: { type: "string", pattern: "^[a-z]{1,12}$" } },
          age: { type: "integer", minimum: 0, maximum: 150 },
        },
        ["name"],
      ),
    },
    expected: [],
  },
  "open-object.json": {
    form: { p, m: [], s: { type: "object", properties: { name } } },
    expected: ["use-closed-object /s"],
  },
  "unbounded-string.json": {
    form: { p, m: [], s: closed({ name: { type: "string" } }) },
    expected: ["use-max-length /s/properties/name"],
  },
  "unbounded-array.json": {
    form: { p, m: [], s: closed({ tags: { type: "array", items: name } }) },
    expected: ["use-max-items /s/properties/tags"],
  },
  "unbounded-number.json": {
    form: { p, m: [], s: closed({ n: { type: "number", minimum: 0 } }) },
    expected: ["use-number-bounds /s/properties/n"],
  },
  "huge-bound.json": {
    form: { p, m: [], s: closed({ essay: { type: "string", maxLength: 50000 } }) },
    expected: ["use-portable-bounds /s/properties/essay/maxLength"],
  },
  "unanchored.json": {
    form: { p, m: [], s: closed({ code: { type: "string", maxLength: 9, pattern: "[0-9]+" } }) },
    expected: ["use-anchored-pattern /s/properties/code/pattern"],
  },
  "redos.json": {
    form: { p, m: [], s: closed({ code: { type: "string", maxLength: 99, pattern: "^([a-z]+)*$" } }) },
    expected: ["no-redos-pattern /s/properties/code/pattern"],
  },
  "anything.json": {
    form: { p, m: [], s: closed({ note: {} }) },
    expected: ["no-unconstrained-schema /s/properties/note"],
  },
  "one-of.json": {
    form: { p, m: [], s: closed({ v: { oneOf: [{ type: "boolean" }, { type: "null" }] } }) },
    expected: ["use-any-of /s/properties/v/oneOf"],
  },
  "recursive.json": {
    form: {
      p,
      m: [],
      s: {
        $defs: { tree: { type: "array", maxItems: 3, items: { anyOf: [{ type: "null" }, { $ref: "#/$defs/tree" }] } } },
        $ref: "#/$defs/tree",
      },
    },
    expected: ["use-bounded-recursion /s/$defs/tree/items/anyOf/1/$ref"],
  },
  "unsatisfiable.json": {
    form: { p, m: [], s: closed({ name }, ["name", "email"]) },
    expected: ["no-unsatisfiable-schema /s/required/1"],
  },
  "bad-example.json": {
    form: { p, m: [{ role: "assistant", content: '{"name": ""}' }], s: closed({ name }, ["name"]) },
    expected: ["use-valid-examples /m/0/content"],
  },
  "silent-p.json": {
    form: { p: "A guest book.", m: [], s: closed({ name }) },
    expected: ["use-act-instructions /p"],
  },
  "not-a-form.json": {
    form: { p, m: [], s: { type: "string", maxLength: 9, contentEncoding: "base64" } },
    expected: ["valid-form /s/contentEncoding"],
  },
};

let folder = "";

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "gpt-address-cli-"));
  for (const [file, { form }] of Object.entries(cases)) await writeFile(join(folder, file), JSON.stringify(form));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const errorRules = new Set(["use-closed-object", "use-max-length", "use-max-items", "use-anchored-pattern"]);

describe("gpt-address lint (S2, F2-F4, mistakes) on forms that are not part of the project", () => {
  for (const [file, { expected }] of Object.entries(cases)) {
    it(`S2 F2-F4 ${file}: --format json reports ${expected.length === 0 ? "nothing" : expected.join(", ")}`, async () => {
      const run = await runCli(["lint", "--format", "json", file], folder);
      const [result] = JSON.parse(run.stdout) as LintedFile[];
      expect(result?.file).toBe(file);
      expect(result?.findings.map((finding) => `${finding.rule} ${finding.pointer}`)).toEqual(expected);
      const failing = result?.findings.some((finding) => finding.severity === "error") ?? false;
      expect(run.code).toBe(failing ? 1 : 0);
      if (expected.some((entry) => errorRules.has(entry.split(" ")[0] ?? ""))) expect(run.code).toBe(1);
    });
  }

  it("F3 the oneOf finding on disjoint branches carries the fix: rename to anyOf", async () => {
    const run = await runCli(["lint", "--format=json", "one-of.json"], folder);
    const [result] = JSON.parse(run.stdout) as LintedFile[];
    expect(result?.findings[0]?.fix).toEqual({ pointer: "/s/properties/v/oneOf", rename: "anyOf" });
  });

  it("exit codes: 0 clean, 1 an error finding, 2 usage or unreadable input", async () => {
    expect((await runCli(["lint", "safe.json"], folder)).code).toBe(0);
    expect((await runCli(["lint", "safe.json", "open-object.json"], folder)).code).toBe(1);
    expect((await runCli(["lint", "one-of.json"], folder)).code).toBe(0); // a warning only
    const missing = await runCli(["lint", "missing.json"], folder);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read missing.json");
    expect((await runCli(["lint", "--strict", "safe.json"], folder)).code).toBe(2);
    expect((await runCli(["lint"], folder)).code).toBe(2);
    expect((await runCli(["lint", "--format", "xml", "safe.json"], folder)).code).toBe(2);
    expect((await runCli(["frobnicate"], folder)).code).toBe(2);
    expect((await runCli([], folder)).code).toBe(2);
  });

  it("--help on the command and on lint prints usage and exits 0", async () => {
    const top = await runCli(["--help"], folder);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain("lint");
    const lint = await runCli(["lint", "--help"], folder);
    expect(lint.code).toBe(0);
    expect(lint.stdout).toContain("--format");
    expect(lint.stdout).toContain("--actors");
  });

  it("text output names the file, the pointer, the severity, the message and the rule", async () => {
    const run = await runCli(["lint", "unbounded-string.json"], folder);
    expect(run.stdout).toContain("unbounded-string.json");
    expect(run.stdout).toMatch(/\/s\/properties\/name {2}error {2}this string has no length bound.* {2}use-max-length/);
    expect(run.stdout).toContain("1 problem(s) (1 error(s), 0 warning(s))");
  });

  it("--actors prints a row per actor profile; a bound of 2000 is rejected by llama.cpp, 1999 is accepted", async () => {
    const big = { p, m: [], s: closed({ note: { type: "string", maxLength: 2000 } }, ["note"]) };
    const small = { p, m: [], s: closed({ note: { type: "string", maxLength: 1999 } }, ["note"]) };
    await writeFile(join(folder, "big.json"), JSON.stringify(big));
    await writeFile(join(folder, "small.json"), JSON.stringify(small));
    const run = await runCli(["lint", "--actors", "--format", "json", "big.json", "small.json"], folder);
    expect(run.code).toBe(0); // actor findings are warnings
    const [bigResult, smallResult] = JSON.parse(run.stdout) as LintedFile[];
    expect(bigResult?.actors?.length).toBeGreaterThanOrEqual(10);
    const verdict = (result: LintedFile | undefined, actor: string) =>
      result?.actors?.find((row) => row.actor === actor)?.verdict;
    expect(verdict(bigResult, "llama-cpp")).toBe("rejected");
    expect(verdict(smallResult, "llama-cpp")).toBe("accepted");
    expect(verdict(bigResult, "anthropic-strict")).toBe("rejected");
    expect(bigResult?.findings).toContainEqual(
      expect.objectContaining({
        rule: "no-actor-rejection",
        actor: "llama-cpp",
        pointer: "/s/properties/note/maxLength",
      }),
    );
    const text = await runCli(["lint", "--actors", "big.json"], folder);
    expect(text.stdout).toMatch(/llama-cpp\s+rejected\s+\/s\/properties\/note\/maxLength/);
  });

  it("--actors --projected: each example form and the init template, as projected for each actor, is accepted by that actor (OpenAI and Anthropic strict with nothing ignored); as published, they are not", async () => {
    const root = join(import.meta.dirname, "../../..");
    const files = ["forms/feedback.json", "forms/page.json", "templates/address/form.json"];
    const projected = await runCli(["lint", "--actors", "--projected", "--format", "json", ...files], root);
    expect(projected.code).toBe(0);
    const results = JSON.parse(projected.stdout) as LintedFile[];
    expect(results.map((result) => result.file)).toEqual(files);
    for (const result of results) {
      expect(result.projected).toBe(true);
      expect(result.actors?.length).toBeGreaterThanOrEqual(12);
      for (const row of result.actors ?? [])
        expect(row.verdict, `${result.file} ${row.actor}: ${row.rejected}`).not.toBe("rejected");
      for (const actor of ["openai-strict", "anthropic-strict"]) {
        expect(result.actors?.find((row) => row.actor === actor)?.verdict, `${result.file} ${actor}`).toBe("accepted");
      }
    }
    const published = JSON.parse(
      (await runCli(["lint", "--actors", "--format", "json", ...files], root)).stdout,
    ) as LintedFile[];
    const rejected = published.flatMap((result) =>
      (result.actors ?? []).filter((row) => row.verdict === "rejected").map((row) => `${result.file} ${row.actor}`),
    );
    expect(rejected).toEqual(
      expect.arrayContaining([
        "forms/feedback.json openai-strict",
        "forms/feedback.json anthropic-strict",
        "forms/page.json vllm-xgrammar",
      ]),
    );
    const text = await runCli(["lint", "--actors", "--projected", "forms/feedback.json"], root);
    expect(text.stdout).toMatch(/actors \(each judging its projection of the form\)\n {2}openai-strict +accepted\n/);
    const usage = await runCli(["lint", "--projected", "forms/feedback.json"], root);
    expect(usage.code).toBe(2);
  });

  it("the bin sets the process exit code (spawned with the project's Node)", async () => {
    const bin = join(import.meta.dirname, "../../../src/cli/bin.ts");
    const run = promisify(execFile);
    const clean = await run(process.execPath, [bin, "lint", "safe.json"], { cwd: folder });
    expect(clean.stdout).toContain("1 form(s) clean");
    const failed = await run(process.execPath, [bin, "lint", "open-object.json"], { cwd: folder }).then(
      () => 0,
      (error: { code?: number }) => error.code,
    );
    expect(failed).toBe(1);
  });
});

describe("gpt-address lint reads form modules and shared files as the build does (issue 33)", () => {
  let project = "";
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "gpt-address-lint-modules-"));
    await mkdir(join(project, "shared"));
    await symlink(join(import.meta.dirname, "../../../node_modules"), join(project, "node_modules"), "dir");
    await writeFile(join(project, "package.json"), '{ "type": "module" }\n');
    const closed = { type: "object", properties: { a: { type: "string", maxLength: 9 } }, additionalProperties: false };
    await writeFile(
      join(project, "open.mjs"),
      `export default { p: ${JSON.stringify(p)}, m: [], s: { type: "object", properties: { a: { type: "string", maxLength: 9 } } } };\n`,
    );
    await writeFile(
      join(project, "strict.ts"),
      `import { z } from "zod";\nexport default { p: ${JSON.stringify(p)}, m: [], s: z.strictObject({ a: z.string().max(9) }) };\n`,
    );
    await writeFile(
      join(project, "loose.ts"),
      `import { z } from "zod";\nexport default { p: ${JSON.stringify(p)}, m: [], s: z.object({ a: z.string().max(9) }) };\n`,
    );
    await writeFile(join(project, "broken.mjs"), 'throw new Error("no form here");\n');
    await writeFile(join(project, "shared", "point.json"), JSON.stringify(closed));
    await writeFile(
      join(project, "uses-shared.json"),
      JSON.stringify({ p, m: [], s: { $ref: "./shared/point.json" } }),
    );
  });
  afterAll(async () => {
    await rm(project, { recursive: true, force: true });
  });

  const lint = async (file: string) => {
    const run = await runCli(["lint", "--format", "json", file], project);
    const [result] = JSON.parse(run.stdout) as LintedFile[];
    return { code: run.code, findings: result?.findings.map((finding) => `${finding.rule} ${finding.pointer}`) };
  };

  it("a module's s (a JSON Schema object, or zod's 2020-12) is linted: an open object fails, a closed one is clean", async () => {
    expect(await lint("open.mjs")).toEqual({ code: 1, findings: ["use-closed-object /s"] });
    expect(await lint("loose.ts")).toEqual({ code: 1, findings: ["use-closed-object /s"] });
    expect(await lint("strict.ts")).toEqual({ code: 0, findings: [] });
  });

  it("a module that cannot be imported is one valid-form finding that says why", async () => {
    const run = await runCli(["lint", "--format", "json", "broken.mjs"], project);
    const [result] = JSON.parse(run.stdout) as LintedFile[];
    expect(run.code).toBe(1);
    expect(result?.findings).toHaveLength(1);
    expect(result?.findings[0]).toMatchObject({ rule: "valid-form", severity: "error" });
    expect(result?.findings[0]?.message).toContain("no form here");
  });

  it("a $ref to a shared file is bundled, not a remote-ref finding", async () => {
    expect(await lint("uses-shared.json")).toEqual({ code: 0, findings: [] });
  });
});
