/**
 * A wide `properties` (weight over `inlineWeight`: keywords/properties.ts) is checked by a loop
 * over the value's own members, each looked up among per-schema functions (issue 31): the same
 * results as the inline blocks of a narrow form, whatever `Object.prototype` holds, and code
 * that does not hold a block per declared name, nor a function per member of equal schemas.
 */
import { Validator } from "@cfworker/json-schema";
import { beforeAll, describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { inlineWeight, weight } from "../../../src/compile/keywords/properties.ts";
import { parseJson } from "../../../src/json/parse.ts";
import { random } from "../../seeded-random.ts";
import { type GeneratedModule, loadModules } from "./load-modules.ts";
import { polluted } from "./polluted.ts";

/**
 * Names a member loop must get right: Object.prototype's, the empty name, non-ASCII, digits
 * (entries: an object literal's `__proto__` would set its prototype, not a member).
 */
const specialEntries: ReadonlyArray<[string, unknown]> = [
  ["__proto__", { type: "integer" }],
  ["toString", { type: "integer" }],
  ["constructor", { type: "string" }],
  ["", { type: "boolean" }],
  ["é名", { type: "null" }],
  ["7", { type: "string" }],
  ["closed", false],
  ["any", true],
  ["blank", {}],
];
const specialNames = specialEntries.map(([name]) => name);

/** `n` names `${prefix}0…` of `schema`, with the special names and `nested`. */
function wideProperties(prefix: string, n: number, schema: unknown): Record<string, unknown> {
  return Object.fromEntries([
    ...specialEntries,
    ...Array.from({ length: n }, (_, k) => [`${prefix}${k}`, schema]),
  ]) as Record<string, unknown>;
}

const nested = {
  type: "object",
  required: ["q1"],
  properties: wideProperties("q", 300, { type: "integer", minimum: 0 }),
};
const rootProperties = { ...wideProperties("p", 300, { type: "string", maxLength: 3 }), nested };
const wide = { type: "object", required: ["p299"], properties: rootProperties };

/** The same form with its `properties` cut into an `allOf` of narrow ones: the oracle. */
function chunked(properties: Record<string, unknown>): { allOf: unknown[] } {
  const entries = Object.entries(properties);
  const chunks: unknown[] = [];
  for (let k = 0; k < entries.length; k += 100)
    chunks.push({ properties: Object.fromEntries(entries.slice(k, k + 100)) });
  return { allOf: chunks };
}
const narrow = {
  type: "object",
  required: ["p299"],
  // A `$ref` weighs 1 (its target's blocks are still inlined: it is referenced once).
  ...chunked({ ...rootProperties, nested: { $ref: "#/$defs/nested" } }),
  $defs: { nested: { type: "object", required: ["q1"], ...chunked(nested.properties) } },
};

const scalars = ['"ab"', '"abcd"', "1", "-1", "2.5", "true", "null", "{}", "[]"];

/** JSON texts of objects with a few members: declared, special and undeclared names, valid values and not. */
function instances(count: number): string[] {
  const next = random(31);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const names = ["p0", "p1", "p150", "p299", "q1", "q2", "zz", ...specialNames];
  /** A JSON object of `size` members picked at random (each name once), then `extra`. */
  const object = (size: number, extra: Array<[string, string]>) => {
    const members = new Map<string, string>();
    for (let m = 0; m < size; m++) members.set(pick(names), pick(scalars));
    for (const [name, text] of extra) members.set(name, text);
    return `{${[...members].map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(",")}}`;
  };
  const texts: string[] = [];
  for (let k = 0; k < count; k++) {
    const extra: Array<[string, string]> = [];
    if (next() < 0.7) extra.push(["p299", pick(['"x"', '"xyz"', '"long"', "1"])]);
    if (next() < 0.4)
      extra.push([
        "nested",
        object(Math.floor(next() * 4), next() < 0.7 ? [["q1", pick(["0", "5", "-1", '"1"'])]] : []),
      ]);
    texts.push(object(Math.floor(next() * 6), extra));
  }
  return texts;
}

const parsed = (text: string) => parseJson(new TextEncoder().encode(text));

let wideModule: GeneratedModule;
let narrowModule: GeneratedModule;
const wideSource = compileForm(wide);
beforeAll(async () => {
  [wideModule, narrowModule] = (await loadModules([wideSource, compileForm(narrow)])) as [
    GeneratedModule,
    GeneratedModule,
  ];
});

/** The text of the generated function `name`. */
function functionText(source: string, name: string): string {
  const start = source.search(new RegExp(`^(export )?function ${name}\\(`, "m"));
  expect(start).toBeGreaterThanOrEqual(0);
  return source.slice(start, source.indexOf("\n}\n", start) + 2);
}

describe("a wide properties (issue 31)", () => {
  it("is the member loop in the form under test, the blocks in its oracle", () => {
    expect(weight(rootProperties)).toBeGreaterThan(inlineWeight);
    expect(weight(nested.properties)).toBeGreaterThan(inlineWeight);
    expect(wideSource).toContain("checkMembers(d, ");
    expect(compileForm(narrow)).not.toContain("checkMembers");
  });

  it("agrees with the inline blocks and with @cfworker/json-schema, by both entry points, lastFailure alike", () => {
    const cfworker = new Validator(wide as never, "2020-12", true);
    let valid = 0;
    for (const text of instances(3000)) {
      const value = parsed(text);
      const expected = narrowModule.validate(value);
      expect(cfworker.validate(JSON.parse(text)).valid, text).toBe(expected);
      expect(wideModule.validate(value), text).toBe(expected);
      const at = wideModule.lastFailure();
      expect(wideModule.validateParsed(value), text).toBe(expected);
      if (!expected) expect(wideModule.lastFailure(), text).toBe(at);
      if (expected) valid += 1;
    }
    // Both outcomes are well represented.
    expect(valid).toBeGreaterThan(150);
    expect(valid).toBeLessThan(2700);
  });

  it("names the failing member's keyword", () => {
    expect(wideModule.validateParsed(parsed('{"p299":"x","p7":"long"}'))).toBe(false);
    expect(wideModule.lastFailure()).toBe("/properties/p7/maxLength");
    expect(wideModule.validate(parsed('{"p299":"x","closed":1}'))).toBe(false);
    expect(wideModule.lastFailure()).toBe("/properties/closed");
    expect(wideModule.validateParsed(parsed('{"p299":"x","nested":{"q1":0,"q9":-1}}'))).toBe(false);
    expect(wideModule.lastFailure()).toBe("/properties/nested/properties/q9/minimum");
    expect(wideModule.validateParsed(parsed('{"p299":"x","__proto__":"1"}'))).toBe(false);
    expect(wideModule.lastFailure()).toBe("/properties/__proto__/type");
  });

  it("never counts an inherited member, polluted or Object.prototype's own (toString)", () => {
    const value = parsed('{"p299":"x","nested":{"q1":0}}');
    for (const entry of [wideModule.validate, wideModule.validateParsed]) {
      expect(entry(value)).toBe(true);
      // Read as present, each would fail its schema.
      for (const name of ["p5", "closed", "q5", "é名", ""])
        expect(
          polluted(name, "polluted value", () => entry(value)),
          name,
        ).toBe(true);
      expect(entry(Object.assign(Object.create({ p3: "long" }), { p299: "x" }))).toBe(true);
    }
    // An own member of a value that is not parsed counts; `undefined` is absent, as inline.
    expect(wideModule.validate({ p299: "x", p3: "long" })).toBe(false);
    expect(wideModule.validate({ p299: "x", p3: undefined })).toBe(true);
  });

  it("holds no block per declared name: its functions stay small, whatever the number of names", () => {
    const longest = (source: string) =>
      Math.max(
        ...[...source.matchAll(/^(?:export )?function \w+\([^)]*\) \{\n([\s\S]*?)\n\}$/gm)].map(
          (m) => m[1]!.split("\n").length,
        ),
      );
    const five = compileForm({
      type: "object",
      required: ["p4"],
      properties: wideProperties("p", 5, { type: "string" }),
    });
    const many = compileForm({
      type: "object",
      required: ["p4999"],
      properties: wideProperties("p", 5000, { type: "string" }),
    });
    expect(longest(many)).toBeLessThan(30);
    const validate = functionText(many, "validate");
    expect(validate).not.toContain('"p2500"');
    expect(validate.split("\n").length).toBeLessThan(10);
    // A narrow form keeps its blocks, one a name, in `validate`.
    expect(five).not.toContain("checkMembers");
    expect(functionText(five, "validate")).toContain("d.p2 !== undefined");
  });

  it("checks members of equal schemas with one function, each failure named at its own member", async () => {
    const item = { type: "object", properties: { x: { minimum: 0 } } };
    const form = {
      type: "object",
      properties: {
        ...wideProperties("p", 300, { type: "string" }),
        "a/b": item,
        "c~d": item,
        e: item,
        shut: false,
        shut2: false,
        // Equal JSON, but a `$ref` names a location: each keeps its own function, the failure its target's.
        r1: { $ref: "#/$defs/s" },
        r2: { $ref: "#/$defs/s" },
        // A wide object twice: its own loop moves the failure, then the outer one.
        n1: nested,
        n2: nested,
      },
      $defs: { s: { type: "string", minLength: 2 } },
    };
    const source = compileForm(form);
    const [module] = (await loadModules([source])) as [GeneratedModule];
    const failure = (text: string, entry: "validate" | "validateParsed") => {
      expect(module[entry](parsed(text)), text).toBe(false);
      return module.lastFailure();
    };
    for (const entry of ["validate", "validateParsed"] as const) {
      expect(failure('{"p0":"x","p299":1}', entry)).toBe("/properties/p299/type");
      expect(failure('{"p0":1}', entry)).toBe("/properties/p0/type");
      expect(failure('{"a/b":{"x":-1}}', entry)).toBe("/properties/a~1b/properties/x/minimum");
      expect(failure('{"a/b":{},"c~d":{"x":-1}}', entry)).toBe("/properties/c~0d/properties/x/minimum");
      expect(failure('{"e":[]}', entry)).toBe("/properties/e/type");
      expect(failure('{"shut2":0}', entry)).toBe("/properties/shut2");
      expect(failure('{"r2":"x"}', entry)).toBe("/$defs/s/minLength");
      expect(failure('{"n2":{"q1":0,"q7":-1}}', entry)).toBe("/properties/n2/properties/q7/minimum");
      expect(failure('{"n2":{"p0":1}}', entry)).toBe("/properties/n2/required");
      expect(module[entry](parsed('{"p0":"x","p299":"y","a/b":{"x":0},"c~d":{},"r1":"xy","n1":{"q1":0}}'))).toBe(true);
    }
    // One function for the strings (the first is "7"), one for the three objects, one for
    // `false` (the first is "closed"), one for the wide object twice; `r1` and `r2` each their own.
    const functions = [...source.matchAll(/^function (v_\w+)\(/gm)].map((m) => m[1]);
    expect(functions).toEqual(expect.arrayContaining(["v_properties_7", "v_a_b", "v_closed", "v_n1", "v_r1", "v_r2"]));
    for (const name of ["v_p0", "v_p1", "v_p299", "v_c_d", "v_e", "v_shut", "v_shut2", "v_n2"])
      expect(functions).not.toContain(name);
    expect(functions.length).toBeLessThan(20);
  });
});
