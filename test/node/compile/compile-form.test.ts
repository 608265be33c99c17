/**
 * Semantics the common validators get wrong, each on its own (issue 4), plus the shape of the
 * generated module: standalone, no eval, header, hoisted regexes, lastFailure pointers.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { type GeneratedModule, loadModules } from "./load-modules.ts";

const forms = {
  codePoints: { type: "string", minLength: 2, maxLength: 2 },
  pattern: { type: "string", pattern: "\\p{Lu}" },
  patternDot: { type: "string", pattern: "^.$" },
  multipleOf: { multipleOf: 0.01 },
  multipleOfInteger: { multipleOf: 3 },
  integer: { type: "integer" },
  enumDeep: { enum: [{ a: 1, b: [1, 2] }, 0] },
  constDeep: { const: { x: 1, y: { z: [0] } } },
  uniqueDeep: { uniqueItems: true },
  required: { required: ["toString"] },
  properties: JSON.parse(
    '{"properties": {"constructor": {"type": "string"}, "__proto__": {"type": "number"}}}',
  ) as unknown,
  failures: {
    type: "object",
    required: ["a"],
    properties: { a: { type: "array", items: { $ref: "#/$defs/n" } } },
    $defs: { n: { maximum: 1 } },
  },
  beside: { $ref: "#/$defs/n", maximum: 5, $defs: { n: { type: "integer", minimum: 1 } } },
  twice: { properties: { a: { pattern: "^x" }, b: { pattern: "^x" } } },
  protoConst: JSON.parse('{"const": {"__proto__": 1}}') as unknown,
  separators: { const: "a\u2028b\u2029c" },
} as const;

let modules: Record<keyof typeof forms, GeneratedModule>;
beforeAll(async () => {
  const names = Object.keys(forms) as Array<keyof typeof forms>;
  const loaded = await loadModules(names.map((name) => compileForm(forms[name])));
  modules = Object.fromEntries(names.map((name, index) => [name, loaded[index]])) as typeof modules;
});

describe("V3 semantics of the generated validator", () => {
  it("counts lengths in code points, not UTF-16 units", () => {
    expect(modules.codePoints.validate("😀😀")).toBe(true); // 4 code units, 2 code points
    expect(modules.codePoints.validate("😀")).toBe(false); // control: 2 units, 1 code point
    expect(modules.codePoints.validate("😀😀a")).toBe(false); // 5 units, over twice the limit: 3 code points
    expect(modules.codePoints.validate("😀a")).toBe(true); // 3 units, 2 code points
    expect(modules.codePoints.validate("ab")).toBe(true);
    expect(modules.codePoints.validate("abc")).toBe(false);
  });

  it("reads pattern as an unanchored ECMAScript search with the u flag", () => {
    expect(modules.pattern.validate("abcDef")).toBe(true); // \p{Lu} needs the u flag; found mid-string
    expect(modules.pattern.validate("abcdef")).toBe(false);
    expect(modules.patternDot.validate("😀")).toBe(true); // one code point matches `.` with u
  });

  it("decides multipleOf without float error", () => {
    expect(modules.multipleOf.validate(19.99)).toBe(true);
    expect(modules.multipleOf.validate(0.07)).toBe(true);
    expect(modules.multipleOf.validate(19.991)).toBe(false);
    expect(modules.multipleOfInteger.validate(9)).toBe(true);
    expect(modules.multipleOfInteger.validate(10)).toBe(false);
    expect(modules.multipleOfInteger.validate(1e300)).toBe(false); // 10^300 is not a multiple of 3
    expect(modules.multipleOfInteger.validate(3e300)).toBe(true);
  });

  it("reads integer as a zero fractional part (1.0 is an integer)", () => {
    expect(modules.integer.validate(JSON.parse("1.0"))).toBe(true);
    expect(modules.integer.validate(1.5)).toBe(false);
    expect(modules.integer.validate(1e300)).toBe(true);
  });

  it("compares enum, const and uniqueItems deeply, ignoring member order, 1 = 1.0, 0 = -0", () => {
    expect(modules.enumDeep.validate(JSON.parse('{"b": [1.0, 2], "a": 1}'))).toBe(true);
    expect(modules.enumDeep.validate(JSON.parse('{"b": [2, 1], "a": 1}'))).toBe(false);
    expect(modules.enumDeep.validate(-0)).toBe(true);
    expect(modules.constDeep.validate({ y: { z: [-0] }, x: 1 })).toBe(true);
    expect(modules.constDeep.validate({ y: { z: [0] }, x: 1, w: 2 })).toBe(false);
    expect(
      modules.uniqueDeep.validate([
        { a: 1, b: 2 },
        { b: 2, a: 1.0 },
      ]),
    ).toBe(false);
    expect(modules.uniqueDeep.validate([0, -0])).toBe(false);
    expect(modules.uniqueDeep.validate([1, "1", [1], { 1: 1 }])).toBe(true);
    // Long arrays take the canonical-text path: same answers.
    const many = Array.from({ length: 40 }, (_, i) => ({ i, tags: [i % 3, "x"] }));
    expect(modules.uniqueDeep.validate(many)).toBe(true);
    expect(modules.uniqueDeep.validate([...many, JSON.parse('{"tags": [1.0, "x"], "i": 1}')])).toBe(false);
    expect(modules.uniqueDeep.validate([...many, { i: 1, tags: [1, "x"], j: null }])).toBe(true);
    expect(modules.uniqueDeep.validate([...many, [-0], [0]])).toBe(false);
    expect(modules.uniqueDeep.validate([...many, 1, "1", [1]])).toBe(true);
  });

  it('counts only own properties as present (required: ["toString"] is not satisfied by {})', () => {
    expect(modules.required.validate({})).toBe(false);
    expect(modules.required.validate(JSON.parse('{"toString": 1}'))).toBe(true);
    expect(modules.properties.validate({})).toBe(true); // inherited constructor and __proto__ are absent
    expect(modules.properties.validate(JSON.parse('{"__proto__": 1, "constructor": "x"}'))).toBe(true);
    expect(modules.properties.validate(JSON.parse('{"__proto__": "1"}'))).toBe(false);
    expect(modules.properties.validate(JSON.parse('{"constructor": 1}'))).toBe(false);
  });

  it("applies the keywords beside $ref", () => {
    expect(modules.beside.validate(3)).toBe(true);
    expect(modules.beside.validate(6)).toBe(false); // maximum beside $ref
    expect(modules.beside.validate(0)).toBe(false); // minimum in the target
    expect(modules.beside.lastFailure()).toBe("/$defs/n/minimum");
  });

  it("keeps a __proto__ member of a const an own member, and U+2028/U+2029 inside strings", () => {
    expect(modules.protoConst.validate(JSON.parse('{"__proto__": 1}'))).toBe(true);
    expect(modules.protoConst.validate({})).toBe(false);
    expect(modules.separators.validate("a\u2028b\u2029c")).toBe(true);
  });

  it("reports the JSON Pointer of the failing keyword through lastFailure", () => {
    expect(modules.failures.validate([])).toBe(false);
    expect(modules.failures.lastFailure()).toBe("/type");
    expect(modules.failures.validate({})).toBe(false);
    expect(modules.failures.lastFailure()).toBe("/required");
    expect(modules.failures.validate({ a: [0, 2] })).toBe(false);
    expect(modules.failures.lastFailure()).toBe("/$defs/n/maximum");
    expect(modules.failures.validate({ a: [0, 1] })).toBe(true);
  });
});

describe("V3 the generated module", () => {
  const page = {
    type: "object",
    properties: { a: { pattern: "^x" }, b: { pattern: "^x" } },
    additionalProperties: false,
  };

  it("starts with the Go-style generated-code line and imports nothing", () => {
    const source = compileForm(page, { source: "forms/x.json" });
    expect(source.split("\n")[0]).toBe("// Code generated by gpt-address from forms/x.json. DO NOT EDIT.");
    expect(source).not.toMatch(/\bimport\b|\brequire\(/);
  });

  it("uses neither eval nor new Function", () => {
    const source = compileForm({
      anyOf: [{ format: "date-time" }, { format: "uri" }, { format: "email" }, { format: "regex" }],
      enum: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    });
    expect(source).not.toMatch(/\beval\b|\bFunction\b/);
  });

  it("builds each regex once, at module scope, with the u flag", () => {
    const source = compileForm(forms.twice);
    expect(source.match(/new RegExp\("\^x", "u"\)/g)).toHaveLength(1);
    expect(source).toMatch(/^const re0 = new RegExp\("\^x", "u"\);$/m);
  });
});

describe("V3 the bench page form", () => {
  const bench = (name: string): string => fileURLToPath(new URL(`../../../bench/${name}`, import.meta.url).href);
  const manifest = JSON.parse(readFileSync(bench("corpus/manifest.json"), "utf8")) as {
    files: Array<{ file: string; kind: string; expect: { schemaValid: boolean | null } }>;
  };

  it("gives every corpus body the verdict its manifest expects, naming the failing keyword", async () => {
    const form = JSON.parse(readFileSync(bench("page.form.json"), "utf8")) as unknown;
    const [page] = await loadModules([compileForm(form)]);
    const judged = manifest.files.filter((entry) => typeof entry.expect.schemaValid === "boolean"); // duplicate-key: a parse failure
    expect(judged.length).toBeGreaterThanOrEqual(9);
    for (const entry of judged) {
      const body = JSON.parse(readFileSync(bench(`corpus/${entry.file}`), "utf8")) as unknown;
      expect(page?.validate(body), entry.file).toBe(entry.expect.schemaValid);
      if (entry.kind === "fails-early") expect(page?.lastFailure()).toBe("/properties/title/type");
      if (entry.kind === "fails-late") expect(page?.lastFailure()).toBe("/$defs/block/anyOf");
    }
  });
});
