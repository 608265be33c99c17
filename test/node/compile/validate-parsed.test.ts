/**
 * `validateParsed`, the generated validator's entry point for values parsed from JSON text
 * (issue 16): the same results and failure pointers as `validate` on such values, exact
 * whenever `Object.prototype` has a member name the form reads, and a fixed cost that does not
 * grow with the names the form reads (issue 31).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { parseJson } from "../../../src/json/parse.ts";
import { type GeneratedModule, loadModules } from "./load-modules.ts";
import { polluted } from "./polluted.ts";

const tree = {
  $defs: {
    node: {
      type: "object",
      required: ["label"],
      properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
      additionalProperties: false,
    },
  },
  $ref: "#/$defs/node",
};
const readsToString = { type: "object", properties: { toString: { type: "integer" } } };
const root = fileURLToPath(new URL("../../../", import.meta.url).href);
/** More member names than `validateParsed` tests one by one: its loop over them. */
const wide = {
  type: "object",
  properties: Object.fromEntries(Array.from({ length: 70 }, (_, k) => [`m${k}`, { type: "integer" }])),
};
const page = JSON.parse(readFileSync(`${root}bench/page.form.json`, "utf8")) as unknown;
/** `{properties: {p0…p(n−1)}}`, strings, `p(n−1)` required: the synthetic form. */
const names = (n: number) => ({
  type: "object",
  required: [`p${n - 1}`],
  properties: Object.fromEntries(Array.from({ length: n }, (_, k) => [`p${k}`, { type: "string" }])),
});

let treeModule: GeneratedModule;
let toStringModule: GeneratedModule;
let pageModule: GeneratedModule;
let wideModule: GeneratedModule;
let widestModule: GeneratedModule;
beforeAll(async () => {
  [treeModule, toStringModule, pageModule, wideModule, widestModule] = (await loadModules([
    compileForm(tree),
    compileForm(readsToString),
    compileForm(page),
    compileForm(wide),
    compileForm(names(5000)),
  ])) as [GeneratedModule, GeneratedModule, GeneratedModule, GeneratedModule, GeneratedModule];
});

const parsed = (text: string) => parseJson(new TextEncoder().encode(text));

describe("validateParsed (issue 16)", () => {
  it("agrees with validate, result and lastFailure, on parsed page values valid and not", () => {
    const bodies = ["1k", "16k"].map((size) => readFileSync(`${root}bench/corpus/valid-${size}.json`, "utf8"));
    const texts = [
      ...bodies,
      ...bodies.map((body) => body.replace('"type":"paragraph"', '"type":"paragraph","extra":1')),
      ...bodies.map((body) => body.replace('"spans":', '"spanz":')),
      ...bodies.map((body) => body.replace('"text":', '"href":"ftp://x","text":')),
      '{"title":"t"}',
      '{"title":"t","blocks":[],"__proto__":{"x":1}}',
      "[]",
      "null",
    ];
    for (const text of texts) {
      const value = parsed(text);
      const expected = pageModule.validate(value);
      const expectedAt = pageModule.lastFailure();
      expect(pageModule.validateParsed(value), text.slice(0, 80)).toBe(expected);
      expect(pageModule.lastFailure()).toBe(expectedAt);
    }
    expect(pageModule.validateParsed(parsed(bodies[0]!))).toBe(true);
  });

  it("counts no inherited member while Object.prototype is polluted with a name the form reads", () => {
    // Without the check at each call, the inherited `children` would be read as present (and
    // fail its type), the inherited `label` as the required member.
    polluted("children", 5, () => {
      expect(treeModule.validate(parsed('{"label":"a"}'))).toBe(true);
      expect(treeModule.validateParsed(parsed('{"label":"a"}'))).toBe(true);
    });
    polluted("label", "x", () => {
      expect(treeModule.validateParsed(parsed("{}"))).toBe(false);
      expect(treeModule.lastFailure()).toBe("/$defs/node/required");
    });
  });

  it("checks every name of a form with more than 64 of them", () => {
    expect(wideModule.validateParsed(parsed('{"m0":1,"m69":2}'))).toBe(true);
    expect(wideModule.validateParsed(parsed('{"m69":"2"}'))).toBe(false);
    polluted("m69", "x", () => {
      expect(wideModule.validateParsed(parsed('{"m0":1}'))).toBe(true);
    });
  });

  it("checks a name of a 5,000-name form where it is read: polluted, enumerable or an accessor, it is not present", () => {
    const valid = parsed('{"p0":"x","p4999":"y"}');
    expect(widestModule.validateParsed(valid)).toBe(true);
    expect(widestModule.validateParsed(parsed('{"p2500":1,"p4999":"y"}'))).toBe(false);
    expect(widestModule.lastFailure()).toBe("/properties/p2500/type");
    // Read as present, the inherited p2500 would fail its type, the inherited p4999 meet `required`.
    polluted("p2500", 5, () => expect(widestModule.validateParsed(valid)).toBe(true));
    polluted("p4999", "y", () => {
      expect(widestModule.validateParsed(parsed('{"p0":"x"}'))).toBe(false);
      expect(widestModule.lastFailure()).toBe("/required");
    });
    const prototype = Object.prototype as Record<string, unknown>;
    Object.defineProperty(prototype, "p1234", { get: () => 7, configurable: true });
    try {
      expect(widestModule.validateParsed(valid)).toBe(true);
      expect(widestModule.validateParsed(parsed('{"p1234":"z","p4999":"y"}'))).toBe(true);
    } finally {
      delete prototype.p1234;
    }
    expect(widestModule.validateParsed(valid)).toBe(true);
  });

  it("has the same entry for 5 names as for 5,000: nothing at each call grows with the form (issue 31)", () => {
    const entry = (source: string) => source.slice(source.indexOf("export function validateParsed"));
    const small = entry(compileForm(names(5)));
    expect(small).toMatch(/^export function validateParsed\(d\) \{\n {2}parsed = true;/);
    expect(entry(compileForm(names(5000)))).toBe(small);
  });

  it("is validate for a form that reads a name Object.prototype has (toString)", () => {
    // Read as present, the inherited function would fail `type`.
    expect(toStringModule.validateParsed(parsed("{}"))).toBe(true);
    expect(toStringModule.validateParsed(parsed('{"toString":1}'))).toBe(true);
    expect(toStringModule.validateParsed(parsed('{"toString":"1"}'))).toBe(false);
  });

  it("is set as validate.parsed, where the doors find it (FormValidate)", () => {
    expect(treeModule.validate.parsed).toBe(treeModule.validateParsed);
    expect(pageModule.validate.parsed).toBe(pageModule.validateParsed);
  });

  it("leaves validate exact after it returns: an inherited member is still absent", () => {
    expect(treeModule.validateParsed(parsed('{"label":"a","children":[{"label":"b"}]}'))).toBe(true);
    const inherits = Object.create({ label: "a" }) as object;
    expect(treeModule.validate(inherits)).toBe(false);
    expect(treeModule.lastFailure()).toBe("/$defs/node/required");
  });
});
