/**
 * Attacks on the wide form's member loop (`checkMembers`, `hasMembers`: keywords/properties.ts,
 * keywords/required.ts): names that are Object.prototype's, empty, integer-like (for…in yields
 * integer indices first), astral or lone surrogates; values that are not JSON (no prototype,
 * class instances, accessors, non-enumerable or Symbol members, arrays); a polluted
 * `Object.prototype`; the keywords beside a wide `properties`; and the position cache `seen`
 * across calls and while a check re-enters the loop on a nested wide object. Oracles: the same
 * form narrowed under `inlineWeight` (only the names the instances use), @cfworker/json-schema
 * and ajv (2020, own properties only).
 */
import { Validator } from "@cfworker/json-schema";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { inlineWeight, weight } from "../../../src/compile/keywords/properties.ts";
import { parsePointer } from "../../../src/compile/pointer.ts";
import { parseJson } from "../../../src/json/parse.ts";
import { random } from "../../seeded-random.ts";
import { type GeneratedModule, loadModules } from "./load-modules.ts";
import { polluted } from "./polluted.ts";

type Schema = Record<string, unknown>;

const short = { type: "string", maxLength: 3 };
/** Names a member loop must get right, each with its schema (some shared with the fillers). */
const specialEntries: ReadonlyArray<[string, unknown]> = [
  ["__proto__", { type: "integer" }],
  ["constructor", short],
  ["toString", { type: "integer", minimum: 0 }],
  ["hasOwnProperty", false],
  ["valueOf", { type: "boolean" }],
  ["", { type: "null" }],
  ["0", short],
  ["1", false],
  ["10", { type: "integer" }],
  ["4294967295", short],
  ["-1", { type: "integer", minimum: 0 }],
  ["01", { type: "boolean" }],
  ["😀", short],
  ["\ud800", { type: "integer" }],
  ["x\udc00", false],
];
/** The filler names the instances use (every other filler is only declared). */
const usedFillers = ["p0", "p1", "p2", "p7", "p150", "p299"];
const usedOther = ["q0", "q1", "q299"];

/** `properties` of the specials and `n` fillers `p0…` (`p7` is `false`), then `extra`. */
function nodeProperties(n: number | "used", extra: Schema = {}): Schema {
  const names = n === "used" ? usedFillers : Array.from({ length: n }, (_, k) => `p${k}`);
  return Object.fromEntries([
    ...specialEntries,
    ...names.map((name) => [name, name === "p7" ? false : short]),
    ...Object.entries(extra),
  ]);
}
function otherProperties(n: number | "used"): Schema {
  const names = n === "used" ? usedOther : Array.from({ length: n }, (_, k) => `q${k}`);
  return Object.fromEntries([
    ...names.map((name) => [name, { type: "integer", minimum: 0 }]),
    ["back", { $ref: "#/$defs/node" }],
  ]);
}

/** The forms under attack, wide (300 fillers) and narrowed (the fillers the instances use). */
function forms(n: number | "used"): Record<string, Schema> {
  // A `then` member written out is a thenable to the linter (noThenProperty).
  const then = { properties: { q299: { type: "integer" } } };
  return {
    // Closed: every keyword beside `properties` that reads members.
    closed: {
      type: "object",
      properties: nodeProperties(n),
      required: ["p1"],
      dependentRequired: { toString: ["valueOf"], "": ["0"] },
      minProperties: 1,
      maxProperties: 7,
      patternProperties: { "^x": { type: "integer" }, "^1": { maximum: 5 } },
      additionalProperties: false,
    },
    // Open, no `type`: arrays and scalars pass; undeclared names go to unevaluatedProperties.
    open: {
      properties: nodeProperties(n),
      propertyNames: { maxLength: 20 },
      allOf: [{ properties: { zz: { type: "integer" } } }],
      unevaluatedProperties: false,
    },
    // Wide `properties` in branches whose results unevaluatedProperties reads (recorded, in
    // labelled blocks the loop's failure breaks out of).
    branches: {
      type: "object",
      anyOf: [{ properties: nodeProperties(n), required: ["p1"] }, { required: ["zz"] }],
      if: { properties: otherProperties(n), required: ["q1"] },
      then,
      else: { properties: { xa: { type: "string" } } },
      dependentSchemas: { "12": { properties: nodeProperties(n, { "12": {} }) } },
      unevaluatedProperties: { type: "integer", maximum: 7 },
      $defs: { node: { properties: { p0: { maxLength: 1 } } } },
    },
    // Recursive: a check re-enters the loop of the same wide schema, and of another.
    recursive: {
      $ref: "#/$defs/node",
      $defs: {
        node: {
          type: "object",
          properties: nodeProperties(n, {
            child: { $ref: "#/$defs/node" },
            kids: { type: "array", items: { $ref: "#/$defs/node" } },
            other: { $ref: "#/$defs/other" },
          }),
        },
        other: { type: "object", properties: otherProperties(n) },
      },
    },
  };
}
const wideForms = forms(300);
const narrowForms = forms("used");
const formNames = Object.keys(wideForms);

/** A wide `required`: 600 names (specials among them), some missing in most instances. */
const requiredNames = [...specialEntries.map(([name]) => name), ...Array.from({ length: 600 }, (_, k) => `r${k}`)];
const wideRequired = {
  type: "object",
  required: requiredNames,
  properties: { r0: short, toString: { type: "integer" } },
};
const narrowRequired = {
  type: "object",
  allOf: Array.from({ length: Math.ceil(requiredNames.length / 100) }, (_, k) => ({
    required: requiredNames.slice(k * 100, k * 100 + 100),
  })),
  properties: wideRequired.properties,
};

const memberNames = [
  ...specialEntries.map(([name]) => name),
  ...usedFillers,
  ...usedOther,
  "zz",
  "xa",
  "12",
  "an undeclared name, long",
  "child",
  "child",
  "kids",
  "other",
  "back",
];
const scalars = ['"ab"', '"abcd"', "0", "1", "-1", "7", "2.5", "true", "null", "[]", "{}"];

/** JSON texts: objects of a few members (nested ones under child, kids, other, back), some arrays. */
function instances(count: number, seed: number): string[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const value = (depth: number): string => {
    if (depth < 3 && next() < 0.3)
      return next() < 0.15 ? `[${object(depth + 1)},${object(depth + 1)}]` : object(depth + 1);
    return pick(scalars);
  };
  const object = (depth: number): string => {
    const members = new Map<string, string>();
    const size = Math.floor(next() * (next() < 0.1 ? 24 : 6));
    if (next() < 0.7) members.set("p1", pick(['"ab"', '"abcd"']));
    for (let m = 0; m < size; m++) members.set(pick(memberNames), value(depth));
    return `{${[...members].map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(",")}}`;
  };
  return Array.from({ length: count }, () => (next() < 0.05 ? `[${object(1)}]` : object(0)));
}

/**
 * Objects holding the required names but a few (or none), shuffled, with `extra`; then one
 * without each of `without` (a name Object.prototype has, or one a test pollutes).
 */
function requiredInstances(count: number, seed: number, without: readonly string[] = []): string[] {
  const next = random(seed);
  const text = (kept: Set<string>) => {
    const members = [...kept, "extra"].sort(() => next() - 0.5);
    const item = (name: string) => (name === "toString" ? (next() < 0.9 ? "1" : '"x"') : '"v"');
    return `{${members.map((name) => `${JSON.stringify(name)}:${item(name)}`).join(",")}}`;
  };
  const texts = Array.from({ length: count }, () => {
    const missing = next() < 0.3 ? 0 : Math.floor(next() * 3) + 1;
    const kept = new Set(requiredNames);
    for (let m = 0; m < missing; m++) kept.delete(requiredNames[Math.floor(next() * requiredNames.length)] as string);
    return text(kept);
  });
  for (const name of without) texts.push(text(new Set(requiredNames.filter((other) => other !== name))));
  return texts;
}

/** parseJson's value for `text`, or `undefined` when it refuses it (I-JSON: lone surrogates). */
function parsed(text: string): unknown {
  try {
    return parseJson(new TextEncoder().encode(text));
  } catch {
    return undefined;
  }
}

/** @cfworker/json-schema's validator of `schema` (read {@link renamed}). */
function cfworker(schema: unknown): (value: unknown) => boolean {
  const validator = new Validator(renamed(schema) as never, "2020-12", true);
  return (value) => validator.validate(renamed(value)).valid;
}
/**
 * `value` with its lone surrogates (in names) replaced by ASCII stand-ins: neither oracle loads
 * a schema that names one (each builds URI fragments of its names), so each reads this copy of
 * the form and of the instance; the narrow form alone reads the names as they are. With
 * `proto`, `__proto__` too: ajv 8 drops a `properties` member of that name (a value of any type
 * passes it), which @cfworker/json-schema and ours check.
 */
function renamed<T>(value: T, proto = false): T {
  let text = JSON.stringify(value).replaceAll("\\ud800", "LS1").replaceAll("\\udc00", "LS2");
  if (proto) text = text.replaceAll('"__proto__"', '"PROTO"');
  return JSON.parse(text) as T;
}
const ajv = new Ajv2020({ strict: false, logger: false, ownProperties: true, unicodeRegExp: true });
const ajvCache = new Map<string, (value: unknown) => boolean>();
/** ajv's validator of `schema` (read {@link renamed}), compiled once. */
function ajvFor(schema: Schema): (value: unknown) => boolean {
  const key = JSON.stringify(schema);
  let validator = ajvCache.get(key);
  if (validator === undefined) {
    const compiled = ajv.compile(renamed(schema, true));
    validator = (value) => compiled(renamed(value, true));
    ajvCache.set(key, validator);
  }
  return validator;
}

/**
 * Does `pointer` name, in `schema`, a keyword (or a `false` schema) that fails for `value`?
 * Followed along `properties` and `allOf`, the instance is known, and the keyword is checked
 * alone (with the siblings it reads) by ajv; past a `$ref` target (`$defs`)
 * or an `items`, only that the keyword exists.
 */
function namesFailure(schema: Schema, pointer: string, value: unknown): boolean {
  const tokens = parsePointer(pointer);
  if (tokens === null || tokens.length === 0) return false;
  let node: unknown = schema;
  let instance: unknown = value;
  let known = true;
  const own = (x: unknown, key: string) => typeof x === "object" && x !== null && Object.hasOwn(x, key);
  for (let t = 0; t < tokens.length - 1; t++) {
    const token = tokens[t] as string;
    if (!own(node, token)) return false;
    const below = (node as Schema)[token];
    if (inPlace.has(token)) {
      node = below;
      continue;
    }
    if (elsewhere.has(token)) {
      // A schema applied to names or to other members: where, this walk does not follow.
      node = below;
      known = false;
      continue;
    }
    const key = tokens[++t] as string;
    if (!own(below, key)) return false;
    if (t === tokens.length - 1 && token === "dependentRequired") {
      if (!known) return true;
      return !ajvFor({ dependentRequired: { [key]: (below as Schema)[key] } })(instance);
    }
    if (token === "properties") {
      if (known && !own(instance, key)) return false;
      if (known) instance = (instance as Schema)[key];
    } else if (!["allOf", "anyOf", "oneOf", "dependentSchemas"].includes(token)) known = false;
    node = (below as Schema)[key];
    if (t === tokens.length - 1) return node === false;
  }
  const keyword = tokens.at(-1) as string;
  if (!own(node, keyword)) return false;
  if (!known) return true;
  const n = node as Schema;
  const alone: Schema = { [keyword]: n[keyword] };
  if (keyword === "additionalProperties")
    Object.assign(alone, { properties: n.properties, patternProperties: n.patternProperties });
  if (keyword === "unevaluatedProperties") Object.assign(alone, n);
  return !ajvFor(alone)(instance);
}
/** Keywords whose value is one schema applied to the same instance. */
const inPlace = new Set(["if", "then", "else", "not"]);
/** Keywords whose value is one schema applied to names, members or items. */
const elsewhere = new Set(["propertyNames", "additionalProperties", "unevaluatedProperties", "items", "contains"]);

interface Pair {
  wide: GeneratedModule;
  narrow: GeneratedModule;
}
const modules: Record<string, Pair> = {};
let requiredPair: Pair;

beforeAll(async () => {
  const sources = [
    ...formNames.flatMap((name) => [compileForm(wideForms[name]), compileForm(narrowForms[name])]),
    compileForm(wideRequired),
    compileForm(narrowRequired),
  ];
  const loaded = await loadModules(sources);
  formNames.forEach((name, k) => {
    modules[name] = { wide: loaded[2 * k] as GeneratedModule, narrow: loaded[2 * k + 1] as GeneratedModule };
  });
  requiredPair = { wide: loaded.at(-2) as GeneratedModule, narrow: loaded.at(-1) as GeneratedModule };
});

/**
 * Every entry point of the wide module on `text` (parsed by parseJson and by JSON.parse) agrees
 * with `expected`, names the same failure through both, and names a keyword that fails.
 */
function expectWide(form: Schema, module: GeneratedModule, text: string, expected: boolean): void {
  const values = [JSON.parse(text) as unknown];
  const strict = parsed(text);
  if (strict !== undefined) values.push(strict);
  for (const value of values) {
    expect(module.validate(value), text).toBe(expected);
    const at = module.lastFailure();
    expect(module.validateParsed(value), text).toBe(expected);
    if (expected) continue;
    expect(module.lastFailure(), text).toBe(at);
    expect(namesFailure(form, at, value), `${text} at ${at}`).toBe(true);
  }
}

describe("the wide member loop under attack", () => {
  it("compiles the loop in the wide forms only", () => {
    for (const name of formNames) {
      const wide = compileForm(wideForms[name]);
      const narrow = compileForm(narrowForms[name]);
      expect(wide, name).toContain("checkMembers(");
      expect(narrow, name).not.toContain("checkMembers(");
    }
    expect(weight(nodeProperties("used"))).toBeLessThan(inlineWeight);
    expect(compileForm(wideRequired)).toContain("hasMembers(");
    expect(compileForm(narrowRequired)).not.toContain("hasMembers(");
  });

  for (const name of formNames) {
    it(`${name}: agrees with its narrow form, @cfworker/json-schema and ajv; lastFailure names a failing keyword`, () => {
      const wideForm = wideForms[name] as Schema;
      const { wide, narrow } = modules[name] as Pair;
      // ajv 8 counts the members a failing `if` evaluated for unevaluatedProperties (a failing
      // subschema's annotations are dropped: 2020-12 Core §10.2.2.1, §11.3): not an oracle there.
      const oracles = name === "branches" ? [cfworker(wideForm)] : [cfworker(wideForm), ajvFor(wideForm)];
      let valid = 0;
      const texts = instances(1500, name.length * 7919);
      for (const text of texts) {
        const value = JSON.parse(text) as unknown;
        const expected = narrow.validate(value);
        for (const oracle of oracles) expect(oracle(value), `${name} oracle: ${text}`).toBe(expected);
        const strict = parsed(text);
        if (strict !== undefined) expect(narrow.validateParsed(strict), text).toBe(expected);
        expectWide(wideForm, wide, text, expected);
        if (expected) valid++;
      }
      expect(valid, name).toBeGreaterThan(texts.length * 0.05);
      expect(valid, name).toBeLessThan(texts.length * 0.9);
    });
  }

  it("a wide required: agrees with its narrow form and the oracles, failing at /required", () => {
    const oracles = [cfworker(wideRequired), ajvFor(wideRequired)];
    let valid = 0;
    const inherited = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
    for (const text of requiredInstances(300, 512, inherited)) {
      const value = JSON.parse(text) as unknown;
      const expected = requiredPair.narrow.validate(value);
      for (const oracle of oracles) expect(oracle(value), text).toBe(expected);
      expectWide(wideRequired, requiredPair.wide, text, expected);
      if (expected) valid++;
    }
    expect(valid).toBeGreaterThan(30);
    expect(valid).toBeLessThan(270);
  });

  it("never counts an inherited member, in validate or validateParsed (a polluted Object.prototype)", () => {
    // Names each form declares, polluted with values that fail their schemas. (An undeclared
    // name fails additionalProperties or unevaluatedProperties: the member loops read
    // inherited names, over-strict by design, keywords/member-loop.ts; so does a name of
    // `branches`, declared only in branches that may fail.)
    const shared = ["p0", "p7", "", "0", "10", "😀"];
    const declared: Record<string, string[]> = {
      closed: shared,
      open: [...shared, "zz"],
      recursive: [...shared, "child", "other", "q0", "back"],
    };
    const texts = instances(150, 99);
    const cases: Array<[string, GeneratedModule, string, boolean]> = [];
    for (const name of formNames) {
      const { wide, narrow } = modules[name] as Pair;
      for (const text of texts) cases.push([name, wide, text, narrow.validate(JSON.parse(text))]);
    }
    declared.required = [...shared, "r5", "r599"];
    for (const text of requiredInstances(20, 7, declared.required))
      cases.push(["required", requiredPair.wide, text, requiredPair.narrow.validate(JSON.parse(text))]);
    const values = cases.map(([, , text]) => [JSON.parse(text), parsed(text)] as const);
    const names = new Set(Object.values(declared).flat());
    for (const name of names)
      for (const pollution of ["a long string", { child: 1 }]) {
        polluted(name, pollution, () => {
          cases.forEach(([form, module, text, expected], k) => {
            if (!declared[form]?.includes(name)) return;
            const [fromJson, strict] = values[k] as readonly [unknown, unknown];
            expect(module.validate(fromJson), `${name}: ${text}`).toBe(expected);
            expect(module.validateParsed(fromJson), `${name}: ${text}`).toBe(expected);
            if (strict !== undefined) expect(module.validateParsed(strict), `${name}: ${text}`).toBe(expected);
          });
        });
      }
  });

  it("reads values that are not JSON as the narrow form does (validate)", () => {
    class Instance {
      p1 = "ab";
      p0: unknown;
      constructor(p0: unknown) {
        this.p0 = p0;
      }
      get p2(): string {
        return "a long string";
      }
    }
    const bare = (members: Schema) => Object.assign(Object.create(null) as Schema, members);
    const getter = (name: string, result: unknown) =>
      Object.defineProperty({ p1: "ab" }, name, { get: () => result, enumerable: true });
    const symbol = { p1: "ab", [Symbol("p0")]: "a long string", [Symbol.for("p2")]: 5 };
    const values: unknown[] = [
      bare({ p1: "ab" }),
      bare({ p1: "ab", p0: "abcd" }),
      bare({ p1: "ab", __proto__: 5 }),
      bare({ p1: "ab", __proto__: "x" }),
      new Instance("ab"),
      new Instance("abcd"),
      getter("p0", "ab"),
      getter("p0", "abcd"),
      getter("child", { p0: "abcd" }),
      symbol,
      { p1: "ab", p0: undefined },
      Object.assign(["ab"], { p1: "ab" }),
      Object.assign([], { p1: "abcd" }),
      [],
      [{ p1: "abcd" }],
      new Date(0),
      Object.assign(new Map(), { p1: "ab" }),
      // Objects whose integer-named members ("0", "1") are their characters or elements.
      Object.assign(new String("abcd"), { p1: "ab" }),
      Object.assign(new String("a"), { p1: "ab" }),
      Object.assign(new Uint8Array(2), { p1: "ab" }),
      Object.assign(new Uint8Array(0), { p1: "ab" }),
      // Not compared: an own member that is not enumerable. The inline blocks read it (as
      // cfworker and ajv do); every member loop, this one too, skips it (src/compile/README.md:
      // no JSON value has one).
    ];
    for (const name of formNames) {
      const { wide, narrow } = modules[name] as Pair;
      for (const [k, value] of values.entries()) {
        const expected = narrow.validate(value);
        expect(wide.validate(value), `${name} #${k}`).toBe(expected);
      }
    }
    // A wide required, on objects without a prototype: every name, then all but `toString`.
    const all = bare(Object.fromEntries(requiredNames.map((name) => [name, name === "toString" ? 1 : "v"])));
    const { toString: _, ...rest } = all;
    for (const [value, expected] of [
      [all, true],
      [bare(rest), false],
      [Object.assign(Object.create(all) as Schema, { r0: "v" }), false],
    ] as const) {
      expect(requiredPair.narrow.validate(value)).toBe(expected);
      expect(requiredPair.wide.validate(value)).toBe(expected);
    }
    // A member whose name is a Symbol is no member; a getter is read; `undefined` is absent.
    const { wide } = modules.recursive as Pair;
    expect(wide.validate(symbol)).toBe(true);
    expect(wide.validate(getter("p0", "abcd"))).toBe(false);
    expect(wide.lastFailure()).toBe("/$defs/node/properties/p0/maxLength");
    expect(wide.validate(getter("child", { p0: "abcd" }))).toBe(false);
    expect(wide.lastFailure()).toBe("/$defs/node/properties/p0/maxLength");
    expect(wide.validate({ p1: "ab", p0: undefined })).toBe(true);
    expect(modules.closed?.wide.validate(Object.assign(["ab"], { p1: "ab" }))).toBe(false);
    expect(modules.open?.wide.validate(Object.assign([], { p1: "abcd" }))).toBe(true);
  });

  it("keeps results and lastFailure right across calls of other shapes (the position cache)", () => {
    const { wide } = modules.recursive as Pair;
    const at = (name: string, keyword?: string) =>
      `/$defs/node/properties/${name.replaceAll("~", "~0").replaceAll("/", "~1")}${keyword === undefined ? "" : `/${keyword}`}`;
    /** Each value, and where it fails (`undefined`: valid); in this order, then reversed, twice. */
    const sequence: Array<[unknown, string | undefined]> = [
      [{ p0: "ab", p1: "abcd" }, at("p1", "maxLength")],
      [{ p1: "ab", p0: "abcd" }, at("p0", "maxLength")],
      [{ p1: "ab", p0: "ab" }, undefined],
      [{ p0: "ab", p1: 1 }, at("p1", "type")],
      [{ p7: "x" }, at("p7")],
      [{ p0: "x", p7: "x" }, at("p7")],
      [{ "1": 0, p0: "x" }, at("1")],
      [{ p0: "x", "1": 0 }, at("1")],
      [{ "10": 1.5, p0: "abcd" }, at("10", "type")],
      [{ p0: "abcd", "10": 1.5 }, at("10", "type")],
      [{ "": null, "0": "ab", "-1": -1 }, at("-1", "minimum")],
      [{ "-1": 1, "01": 1 }, at("01", "type")],
      [{ constructor: "abcd" }, at("constructor", "maxLength")],
      [{ toString: -1 }, at("toString", "minimum")],
      [{ valueOf: true, hasOwnProperty: 1 }, at("hasOwnProperty")],
      [{ "😀": "abcd" }, at("😀", "maxLength")],
      [{ "4294967295": "abcd" }, at("4294967295", "maxLength")],
      [JSON.parse('{"__proto__": "x"}'), at("__proto__", "type")],
      [JSON.parse('{"\\ud800": "x"}'), at("\ud800", "type")],
      [JSON.parse('{"x\\udc00": 0}'), at("x\udc00")],
      // More than 16 members, the failing one past the cache, then within it.
      [
        Object.fromEntries([...Array.from({ length: 20 }, (_, k) => [`u${k}`, k]), ["p2", "abcd"]]),
        at("p2", "maxLength"),
      ],
      [Object.fromEntries([...Array.from({ length: 20 }, (_, k) => [`u${k}`, k]), ["p2", "ab"]]), undefined],
      [
        Object.fromEntries([["p2", "abcd"], ...Array.from({ length: 20 }, (_, k) => [`u${k}`, k])]),
        at("p2", "maxLength"),
      ],
      // The loop re-entered on nested objects of the same schema, whose members take the outer positions.
      [{ p0: "ab", child: { p1: "ab", p0: "ab", child: { p2: "abcd" } }, p1: "ab" }, at("p2", "maxLength")],
      [{ child: { p1: "ab", p0: "ab", p2: "ab" }, p0: "ab", p1: "abcd" }, at("p1", "maxLength")],
      [{ child: { child: { child: { p1: "ab" } }, p1: "ab" }, p1: "ab", p0: 1 }, at("p0", "type")],
      [{ kids: [{ p1: "ab" }, { p1: "ab", p7: 1 }], p1: "ab" }, at("p7")],
      [
        {
          kids: [
            { p1: "ab", kids: [{ p0: "ab" }] },
            { p0: "ab", p1: "ab" },
          ],
          p1: "ab",
          p0: "ab",
        },
        undefined,
      ],
      // …and on another wide schema, which re-enters this one.
      [
        { p1: "ab", other: { q0: 1, back: { p1: "ab", p0: "ab" }, q1: -1 }, p0: "ab" },
        "/$defs/other/properties/q1/minimum",
      ],
      [{ other: { back: { other: { q299: 1.5 } } } }, "/$defs/other/properties/q299/type"],
      [{ other: { back: { p0: "ab" }, q0: 1 }, p0: "ab", p1: "ab" }, undefined],
    ];
    for (const round of [sequence, [...sequence].reverse(), sequence, [...sequence].reverse()])
      for (const [value, failure] of round) {
        const text = JSON.stringify(value);
        for (const entry of [wide.validate, wide.validateParsed]) {
          expect(entry(value), text).toBe(failure === undefined);
          if (failure !== undefined) expect(wide.lastFailure(), text).toBe(failure);
        }
        expect(modules.recursive?.narrow.validate(value), text).toBe(failure === undefined);
      }
  });
});
