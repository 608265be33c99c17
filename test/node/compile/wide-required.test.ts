/**
 * A `required` of more than `inlineWeight` names (keywords/required.ts) is read from a
 * module-scope array by the `hasMembers` helper, in order, stopping at the first missing name:
 * the same results as the inline lines of a narrow form, never counting an inherited name, and a
 * `validate` that holds no line per name and reads at most one name more than the value holds.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { inlineWeight } from "../../../src/compile/keywords/properties.ts";
import { parseJson } from "../../../src/json/parse.ts";
import { random } from "../../seeded-random.ts";
import { type GeneratedModule, loadModules } from "./load-modules.ts";

const count = inlineWeight + 88;
/** Required names, Object.prototype's among them (an inherited one never counts). */
const names = [...Array.from({ length: count - 3 }, (_, k) => `p${k}`), "toString", "", "é名"];
const wide = {
  type: "object",
  required: names,
  properties: { p0: { type: "string" }, toString: { type: "integer" } },
};
/** The same names cut into an `allOf` of narrow `required`s: the oracle. */
const narrow = {
  type: "object",
  allOf: Array.from({ length: Math.ceil(count / 100) }, (_, k) => ({ required: names.slice(k * 100, k * 100 + 100) })),
  properties: wide.properties,
};

const parsed = (text: string) => parseJson(new TextEncoder().encode(text));

/** Objects holding every required name but a few (or none), in shuffled order, with an extra name. */
function instances(n: number): string[] {
  const next = random(588);
  const texts: string[] = [];
  for (let k = 0; k < n; k++) {
    const missing = next() < 0.3 ? 0 : Math.floor(next() * 3) + 1;
    const kept = new Set(names);
    for (let m = 0; m < missing; m++) kept.delete(names[Math.floor(next() * names.length)] as string);
    const members = [...kept, "extra"].sort(() => next() - 0.5);
    const value = (name: string) => (name === "toString" ? (next() < 0.9 ? "1" : '"x"') : '"v"');
    texts.push(`{${members.map((name) => `${JSON.stringify(name)}:${value(name)}`).join(",")}}`);
  }
  return texts;
}

let wideModule: GeneratedModule;
let narrowModule: GeneratedModule;
const wideSource = compileForm(wide);
beforeAll(async () => {
  [wideModule, narrowModule] = (await loadModules([wideSource, compileForm(narrow)])) as [
    GeneratedModule,
    GeneratedModule,
  ];
});

describe("a wide required", () => {
  it("is read from an array past inlineWeight names, a line a name up to it", () => {
    expect(wideSource).toContain("hasMembers(d, ");
    const atLimit = compileForm({ type: "object", required: names.slice(0, inlineWeight) });
    expect(atLimit).not.toContain("hasMembers");
    expect(atLimit).toContain("d.p100 !== undefined");
  });

  it("agrees with the narrow oracle, by both entry points, failing at /required (checked first)", () => {
    let valid = 0;
    for (const text of instances(400)) {
      const value = parsed(text) as Record<string, unknown>;
      const expected = narrowModule.validate(value);
      const missing = names.some((name) => !Object.hasOwn(value, name));
      const at = missing ? "/required" : narrowModule.lastFailure();
      for (const entry of [wideModule.validate, wideModule.validateParsed]) {
        expect(entry(value), text).toBe(expected);
        if (!expected) expect(wideModule.lastFailure(), text).toBe(at);
      }
      if (expected) valid += 1;
    }
    expect(valid).toBeGreaterThan(50);
    expect(valid).toBeLessThan(350);
  });

  it("never counts an inherited name, polluted or Object.prototype's own (toString); undefined is absent", () => {
    const all = Object.fromEntries(names.map((name) => [name, name === "toString" ? 1 : "v"]));
    const { toString: _, ...withoutToString } = all;
    const { p300: __, ...withoutP300 } = all;
    for (const entry of [wideModule.validate, wideModule.validateParsed]) {
      expect(entry(parsed(JSON.stringify(all)))).toBe(true);
      expect(entry(parsed(JSON.stringify(withoutToString)))).toBe(false);
      expect(wideModule.lastFailure()).toBe("/required");
      const prototype = Object.prototype as Record<string, unknown>;
      prototype.p300 = "polluted";
      try {
        expect(entry(parsed(JSON.stringify(withoutP300)))).toBe(false);
      } finally {
        delete prototype.p300;
      }
      expect(entry(Object.assign(Object.create({ p300: "v" }), withoutP300))).toBe(false);
    }
    expect(wideModule.validate({ ...all, p300: undefined })).toBe(false);
  });

  it("holds no line per name, and reads at most one name more than the value holds", () => {
    const validate = wideSource.slice(wideSource.indexOf("export function validate(d)"));
    expect(validate.slice(0, validate.indexOf("\n}\n"))).not.toContain('"p300"');
    for (const held of [0, 1, 5, 40]) {
      const read = new Set<PropertyKey>();
      const value = new Proxy(Object.fromEntries(names.slice(0, held).map((name) => [name, "v"])), {
        get(target, key) {
          read.add(key);
          return Reflect.get(target, key);
        },
      });
      expect(wideModule.validate(value)).toBe(false);
      expect(read.size, `${held} held`).toBeLessThanOrEqual(held + 1);
    }
  });
});
