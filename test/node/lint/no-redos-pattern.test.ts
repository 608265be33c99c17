import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildForms, FormFileError } from "../../../src/compile/build-forms.ts";
import { lintForm } from "../../../src/lint/lint-form.ts";
import { probeInputs, recheckVerdict } from "../../../src/lint/rules/no-redos-pattern.ts";

const p = "To act, send one HTTP POST to this address whose body is one JSON value valid against s.";
/** The breaker's pattern: its backtracking grows with the pattern, so recheck calls it safe. */
const breaker = `^${"(a?)".repeat(100)}${"a".repeat(100)}$`;
const form = (code: unknown) => ({
  p,
  m: [],
  s: { type: "object", additionalProperties: false, required: ["code"], properties: { code } },
});

async function redos(code: unknown) {
  return (await lintForm(form(code))).filter((finding) => finding.rule === "no-redos-pattern");
}

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("S2 no-redos-pattern fails closed: recheck's safe verdict and a measured probe within bounds", () => {
  it("S2 the breaker's pattern (safe to recheck) is an error from the probe, naming the input length", async () => {
    expect(recheckVerdict(breaker)).toBeNull();
    const found = await redos({ type: "string", maxLength: 20, pattern: breaker });
    expect(found.map((finding) => [finding.pointer, finding.severity])).toEqual([
      ["/s/properties/code/pattern", "error"],
    ]);
    expect(found[0]?.message).toMatch(/took over \d+ ms on a \d+-character input within the form's bounds/);
    const length = Number(/on a (\d+)-character/.exec(found[0]?.message ?? "")?.[1]);
    expect(length).toBeGreaterThan(0);
    expect(length).toBeLessThanOrEqual(20);
  });

  it("S2 a patternProperties name is probed within propertyNames' maxLength", async () => {
    const s = {
      type: "object",
      additionalProperties: false,
      propertyNames: { maxLength: 12 },
      maxProperties: 4,
      patternProperties: { [breaker]: { type: "boolean" } },
    };
    const found = (await lintForm({ p, m: [], s })).filter((finding) => finding.rule === "no-redos-pattern");
    expect(found.map((finding) => finding.pointer)).toEqual([`/s/patternProperties/${breaker}`]);
    expect(found[0]?.message).toContain("within the form's bounds");
  });

  it("S2 classic ReDoS is still an error (recheck: vulnerable)", async () => {
    const found = await redos({ type: "string", maxLength: 99, pattern: "^(a+)+$" });
    expect(found.map((finding) => finding.pointer)).toEqual(["/s/properties/code/pattern"]);
    expect(found[0]?.message).toContain("backtracks catastrophically (exponential");
  });

  it("S2 recheck's unknown verdict is an error: a timeout, and syntax recheck cannot parse", async () => {
    expect(recheckVerdict("^(a+)+$", 0)).toEqual({
      messageId: "unknown",
      data: { pattern: '"^(a+)+$"', reason: "no verdict within 0 ms" },
    });
    const found = await redos({ type: "string", maxLength: 9, pattern: "^(?i:a)b$" });
    expect(found.map((finding) => finding.pointer)).toEqual(["/s/properties/code/pattern"]);
    expect(found[0]?.message).toContain("could not be proven safe by recheck (recheck cannot parse it");
  });

  it("S2 the example forms' patterns and ordinary anchored patterns are clean", async () => {
    const folder = join(import.meta.dirname, "../../../forms");
    for (const file of readdirSync(folder).filter((name) => name.endsWith(".json"))) {
      const findings = await lintForm(JSON.parse(readFileSync(join(folder, file), "utf8")));
      expect(
        findings.filter((finding) => finding.rule === "no-redos-pattern"),
        file,
      ).toEqual([]);
    }
    const ordinary: Array<[string, number]> = [
      ["^[a-z0-9._-]{1,64}@[a-z0-9.-]{1,200}$", 300],
      ["^(?:[01]\\d|2[0-3]):[0-5]\\d$", 5],
      ["^[A-Z]{2}\\d{2}[A-Z0-9]{1,30}$", 34],
      ["^\\p{L}+(?: \\p{L}+)*$", 200],
      ["^\\d{4}-\\d{2}-\\d{2}$", 10],
      ["^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", 36],
    ];
    for (const [pattern, maxLength] of ordinary)
      expect(await redos({ type: "string", maxLength, pattern }), pattern).toEqual([]);
    expect(await redos({ type: "string", pattern: "^[a-z]+(?:-[a-z]+)*$" })).toEqual([]);
  });

  it("S2 the probe's inputs stay within maxLength and include the bound itself", () => {
    const inputs = probeInputs("^[xy]+$", 20);
    const lengths = inputs.map((input) => [...input].length);
    expect(Math.max(...lengths)).toBe(20);
    expect(inputs).toContain("x".repeat(20));
    expect(inputs.some((input) => input.startsWith("y") && !input.endsWith("y"))).toBe(true);
  });

  it("S2 npm run build fails on the breaker's form with the file, the pointer and the rule", async () => {
    const root = await mkdtemp(join(tmpdir(), "gpt-address-redos-"));
    folders.push(root);
    await mkdir(join(root, "forms"));
    await writeFile(
      join(root, "forms", "zz-redos.json"),
      JSON.stringify(form({ type: "string", maxLength: 20, pattern: breaker })),
    );
    const error = await buildForms({ root, outDir: "out", onLint: () => undefined }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(FormFileError);
    expect((error as FormFileError).file).toBe(join("forms", "zz-redos.json"));
    expect((error as FormFileError).pointer).toBe("/s/properties/code/pattern");
    expect((error as FormFileError).message).toContain("(lint rule no-redos-pattern)");
  });
});
