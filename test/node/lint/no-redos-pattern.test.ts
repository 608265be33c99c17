import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkSync } from "recheck";
import { afterEach, describe, expect, it } from "vitest";
import { buildForms, FormFileError } from "../../../src/compile/build-forms.ts";
import { lintForm } from "../../../src/lint/lint-form.ts";
import { attackAt, longestProbe, probeInputs, recheckVerdict } from "../../../src/lint/rules/no-redos-pattern.ts";

const p = "To act, send one HTTP POST to this address whose body is one JSON value valid against s.";
/** The breaker's pattern: its backtracking grows with the pattern, so recheck calls it safe. */
const breaker = `^${"(a?)".repeat(100)}${"a".repeat(100)}$`;
/** An e-mail shape: quadratic to recheck (`[^@\s]` includes the dot), harmless at 64 code points. */
const email = "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$";
/** Cubic: three `\s*` share every run of spaces. */
const cubic = "^\\s*\\s*\\s*$";
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

  it("S2 a polynomial pattern under maxLength passes when recheck's attack at the bound stays within budget", async () => {
    expect(recheckVerdict(email)?.data.complexity).toBe("2nd degree polynomial");
    expect(await redos({ type: "string", maxLength: 64, pattern: email })).toEqual([]);
    expect(
      await redos({ type: "array", maxItems: 100, items: { type: "string", maxLength: 64, pattern: email } }),
    ).toEqual([]);
  });

  it("S2 the same polynomial pattern without maxLength is an error, as recheck judges it", async () => {
    const found = await redos({ type: "string", pattern: email });
    expect(found.map((finding) => finding.pointer)).toEqual(["/s/properties/code/pattern"]);
    expect(found[0]?.message).toContain("backtracks catastrophically (2nd degree polynomial)");
  });

  it("S2 a polynomial pattern whose attack at the bound is slow is an error with the measured time", async () => {
    const found = await redos({ type: "string", maxLength: 1000, pattern: cubic });
    expect(found.map((finding) => finding.pointer)).toEqual(["/s/properties/code/pattern"]);
    const message = found[0]?.message ?? "";
    expect(message).toContain("backtracks in 3rd degree polynomial time");
    const [, length, ms] =
      /attack at maxLength \((\d+) code points\) took (?:over )?([\d.]+) ms per match/.exec(message) ?? [];
    expect(Number(length)).toBeGreaterThan(900);
    expect(Number(length)).toBeLessThanOrEqual(1000);
    expect(Number(ms)).toBeGreaterThan(50);
  });

  it("S2 the attack counts every string one act can carry: maxItems multiplies it", async () => {
    const string = { type: "string", maxLength: 64, pattern: cubic };
    expect(await redos(string)).toEqual([]);
    const found = await redos({ type: "array", maxItems: 10_000, items: string });
    expect(found.map((finding) => finding.pointer)).toEqual(["/s/properties/code/items/pattern"]);
    expect(found[0]?.message).toMatch(/the 10000 such strings one act can carry take \d+ ms, over the budget of 50 ms/);
  });

  it("S2 exponential patterns, and polynomial ones past the probe's reach, stay errors whatever the bound", async () => {
    const exponential = await redos({ type: "string", maxLength: 10, pattern: "^(a+)+$" });
    expect(exponential.map((finding) => finding.message)).toEqual([
      'pattern "^(a+)+$" backtracks catastrophically (exponential): rewrite it',
    ]);
    const far = await redos({ type: "string", maxLength: longestProbe + 1, pattern: "^a*a*$" });
    expect(far.map((finding) => finding.message)).toEqual([
      'pattern "^a*a*$" backtracks catastrophically (2nd degree polynomial): rewrite it',
    ]);
  });

  it("S2 recheck's attack string is built within maxLength code points and still fails to match", () => {
    const diagnostics = checkSync(cubic, "u");
    if (diagnostics.status !== "vulnerable") throw new Error(`expected vulnerable, got ${diagnostics.status}`);
    for (const maxLength of [1, 2, 64, 1000]) {
      const text = attackAt(diagnostics.attack, maxLength);
      expect([...text].length).toBeLessThanOrEqual(maxLength);
      if (maxLength >= 64) expect([...text].length).toBeGreaterThan(maxLength - 3);
    }
    expect(new RegExp(cubic, "u").test(attackAt(diagnostics.attack, 64))).toBe(false);
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
