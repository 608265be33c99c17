/**
 * admittedMembers, admittedItems and admittedBytes (issue 31): the most members of any object,
 * the most items of any array, and the longest text as a serializer writes it, of any instance
 * valid against a form; the address's default `maxMembers`, `maxItems` and `maxBytes`. Never
 * below a valid instance: every valid instance of JSON-Schema-Test-Suite and of random forms,
 * written with every character escaped, numbers spelled long and the whitespace margin, is
 * within them and parsed under them.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { NUMBER_BYTES, whitespace } from "../../../src/compile/admitted-bytes.ts";
import { valueItems } from "../../../src/compile/admitted-items.ts";
import { valueMembers } from "../../../src/compile/admitted-members.ts";
import {
  admittedBytes,
  admittedDepth,
  admittedItems,
  admittedMembers,
  admittedStringLength,
  compileForm,
} from "../../../src/compile/compile-form.ts";
import { parseJson } from "../../../src/json/parse.ts";
import { random } from "../../seeded-random.ts";
import { form, instance } from "./arbitraries.ts";
import { type GeneratedModule, loadModules } from "./load-modules.ts";
import { suiteGroups } from "./suite-files.ts";

const closed = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  type: "object",
  additionalProperties: false,
  properties,
  ...more,
});
const integer = { type: "integer" };
const root = fileURLToPath(new URL("../../../", import.meta.url).href);
const formOf = (path: string) => (JSON.parse(readFileSync(`${root}${path}`, "utf8")) as { s: unknown }).s;

describe("V2 admittedMembers bounds the members of every object a form admits", () => {
  it("counts a closed object's properties, capped by maxProperties; open objects are unbounded", () => {
    expect(admittedMembers(closed({ a: integer, b: integer, c: integer }))).toBe(3);
    expect(admittedMembers(closed({ a: integer, b: integer, c: integer }, { maxProperties: 2 }))).toBe(2);
    expect(admittedMembers(closed({ a: integer, b: false }))).toBe(1); // b can never be present
    expect(admittedMembers(closed({ a: integer }, { additionalProperties: { enum: [] } }))).toBe(1);
    expect(admittedMembers({ type: "object", maxProperties: 7, additionalProperties: integer })).toBe(7);
    // Its members may be objects of any size: the bound is of every object, not only the outer one.
    expect(admittedMembers({ type: "object", maxProperties: 7 })).toBeNull();
    expect(admittedMembers({ type: "object", properties: { a: integer } })).toBeNull();
    expect(admittedMembers(closed({ a: integer }, { patternProperties: { "^x": integer } }))).toBeNull();
    expect(admittedMembers({ type: "object", propertyNames: false })).toBe(0);
    expect(admittedMembers({ type: "integer" })).toBe(0);
    expect(admittedMembers({})).toBeNull();
  });

  it("takes the widest object anywhere: nested objects, items, unions, $ref, const and enum", () => {
    const inner = closed({ a: integer, b: integer, c: integer, d: integer });
    expect(admittedMembers(closed({ x: inner }))).toBe(4);
    expect(admittedMembers({ type: "array", maxItems: 9, items: closed({ a: integer }) })).toBe(1);
    expect(admittedMembers({ anyOf: [closed({ a: integer }), inner] })).toBe(4);
    expect(
      admittedMembers({ allOf: [{ type: "object", maxProperties: 2, additionalProperties: integer }, inner] }),
    ).toBe(2);
    expect(admittedMembers({ $ref: "#/$defs/i", $defs: { i: inner } })).toBe(4);
    expect(admittedMembers({ enum: [{ a: 1, b: { c: 1, d: 2, e: 3 } }, 2] })).toBe(3);
    expect(admittedMembers({ type: "object", const: { a: 1 } })).toBe(1);
    const tree = {
      $ref: "#/$defs/n",
      $defs: { n: closed({ a: integer, kids: { type: "array", maxItems: 2, items: { $ref: "#/$defs/n" } } }) },
    };
    expect(admittedMembers(tree)).toBeNull(); // a cycle: no bound from the schema
  });

  it("is 3 for the example's feedback and page forms", () => {
    expect(admittedMembers(formOf("forms/feedback.json"))).toBe(3);
    expect(admittedMembers(formOf("forms/page.json"))).toBe(3);
  });
});

describe("V2 admittedItems bounds the items of every array a form admits", () => {
  it("reads maxItems, prefixItems with items: false, and a prefix schema that admits nothing", () => {
    expect(admittedItems({ type: "array", maxItems: 5, items: integer })).toBe(5);
    expect(admittedItems({ type: "array", maxItems: 5 })).toBeNull(); // an item may be any array
    expect(admittedItems({ type: "array", prefixItems: [integer, integer], items: false })).toBe(2);
    expect(admittedItems({ type: "array", prefixItems: [integer, integer], items: false, maxItems: 1 })).toBe(1);
    expect(admittedItems({ type: "array", prefixItems: [integer, false, integer] })).toBe(1);
    expect(admittedItems({ type: "array", prefixItems: [integer] })).toBeNull(); // items absent: any later item
    expect(admittedItems({ type: "array", items: integer })).toBeNull();
    expect(admittedItems({ type: "string" })).toBe(0);
  });

  it("takes the longest array anywhere", () => {
    const long = { type: "array", maxItems: 8, items: integer };
    expect(admittedItems(closed({ a: long, b: { type: "array", maxItems: 2, items: long } }))).toBe(8);
    const short = { type: "array", maxItems: 3, items: { type: "string" } };
    expect(admittedItems({ anyOf: [long, short] })).toBe(8);
    expect(admittedItems({ allOf: [long, short] })).toBe(3);
    expect(admittedItems({ const: [1, [2, 3, 4, 5]] })).toBe(4);
    expect(admittedItems(closed({ a: long }, { additionalProperties: true }))).toBeNull();
  });

  it("is 0 for feedback, 100 for the example's page form", () => {
    expect(admittedItems(formOf("forms/feedback.json"))).toBe(0);
    expect(admittedItems(formOf("forms/page.json"))).toBe(100);
  });
});

describe("V1 admittedBytes bounds the text of every act a form admits, as a serializer writes it", () => {
  it("counts 12 bytes a code point of a string, NUMBER_BYTES a number, and the margin around each value", () => {
    const w = whitespace(0);
    expect(admittedBytes({ type: "string", maxLength: 3 })).toBe(w + 2 + 36 + w);
    expect(admittedBytes({ type: "integer" })).toBe(w + NUMBER_BYTES + w);
    expect(admittedBytes({ enum: ["ab", null] })).toBe(w + 2 + 12 + w);
    const w1 = whitespace(1);
    // {"a": <integer>}: margin, braces, the member (margin, 7-byte name, colon, value, comma), margin.
    expect(admittedBytes(closed({ a: integer }))).toBe(w1 + 2 + w1 + (w1 + 8 + 1 + w1 + NUMBER_BYTES + 1) + w1);
    expect(admittedBytes({ type: "array", maxItems: 2, items: { type: "boolean" } })).toBe(
      w1 + 2 + w1 + 2 * (w1 + 5 + 1) + w1,
    );
  });

  it("is null where a string, an array, an object's names or the nesting is unbounded", () => {
    expect(admittedBytes({ type: "string" })).toBeNull();
    expect(admittedBytes({ type: "array", items: integer })).toBeNull();
    expect(admittedBytes({ type: "object", additionalProperties: integer, maxProperties: 3 })).toBeNull();
    expect(admittedBytes({ type: "object", additionalProperties: integer })).toBeNull();
    expect(admittedBytes({})).toBeNull();
    // Names bounded by propertyNames, count by maxProperties: bounded.
    expect(
      admittedBytes({
        type: "object",
        propertyNames: { maxLength: 2 },
        additionalProperties: integer,
        maxProperties: 3,
      }),
    ).not.toBeNull();
  });

  it("is 24,296 bytes for the example's feedback form (a 1,999-code-point comment)", () => {
    expect(admittedBytes(formOf("forms/feedback.json"))).toBe(24_296);
  });
});

describe("V1 V2 unevaluatedProperties and unevaluatedItems close by what is evaluated in place", () => {
  const branches = {
    type: "object",
    properties: { a: integer },
    allOf: [{ properties: { b: integer } }],
    anyOf: [{ properties: { c: integer } }, { properties: { ddd: integer } }],
    unevaluatedProperties: false,
  };

  it("bounds an object's members and names by the properties of every schema applied in place", () => {
    expect(admittedMembers(branches)).toBe(4);
    expect(admittedStringLength(branches)).toBe(3); // "ddd"
    // A nested unevaluatedProperties: false closes its own names, and so the outer ones.
    expect(
      admittedMembers({
        type: "object",
        allOf: [{ properties: { a: integer }, unevaluatedProperties: false }],
        unevaluatedProperties: false,
      }),
    ).toBe(1);
  });

  it("leaves names open when a pattern, additionalProperties or unevaluatedProperties in place admits something", () => {
    expect(admittedMembers({ ...branches, anyOf: [{ patternProperties: { "^x": integer } }] })).toBeNull();
    expect(admittedMembers({ ...branches, allOf: [{ additionalProperties: integer }] })).toBeNull();
    expect(admittedMembers({ ...branches, unevaluatedProperties: integer })).toBeNull();
    expect(admittedStringLength({ ...branches, unevaluatedProperties: integer })).toBeNull();
  });

  it("bounds member values by the schemas in place: depth and bytes where unevaluatedProperties is absent give none", () => {
    const list = { type: "array", maxItems: 2, items: integer };
    expect(admittedDepth({ type: "object", allOf: [{ properties: { a: list } }], unevaluatedProperties: false })).toBe(
      2,
    );
    expect(admittedDepth({ type: "object", allOf: [{ properties: { a: list } }] })).toBeNull(); // control
    const dependent = {
      type: "object",
      properties: { a: integer },
      dependentSchemas: { a: { properties: { b: { const: true } } } },
      unevaluatedProperties: false,
    };
    const w1 = whitespace(1);
    // Two members, a and b, each counted at the widest value in place (an integer).
    expect(admittedBytes(dependent)).toBe(w1 + 2 + w1 + 2 * (w1 + 8 + 1 + w1 + NUMBER_BYTES + 1) + w1);
  });

  it("bounds an array's items by the longest prefixItems in place, unless items or contains in place admits one", () => {
    const tuple = {
      type: "array",
      prefixItems: [integer],
      anyOf: [{ prefixItems: [integer, integer, integer] }],
      unevaluatedItems: false,
    };
    expect(admittedItems(tuple)).toBe(3);
    expect(admittedBytes(tuple)).not.toBeNull();
    expect(admittedItems({ ...tuple, contains: { type: "string" } })).toBeNull();
    expect(admittedItems({ ...tuple, allOf: [{ items: integer }] })).toBeNull();
    expect(admittedItems({ ...tuple, unevaluatedItems: integer })).toBeNull();
    expect(admittedItems({ ...tuple, allOf: [{ items: false }] })).toBe(3);
  });
});

/** Every UTF-16 code unit of `text` as a `\uXXXX` escape, quoted: the longest spelling. */
const escaped = (text: string) =>
  `"${Array.from({ length: text.length }, (_, k) => `\\u${text.charCodeAt(k).toString(16).padStart(4, "0")}`).join("")}"`;

/** A number spelled in exactly NUMBER_BYTES bytes (`1.5000…`, `-2.000…`): the same double. */
function longNumber(value: number): string {
  const [mantissa, exponent] = String(value).split("e") as [string, string | undefined];
  let text = mantissa.includes(".") ? mantissa : `${mantissa}.`;
  const tail = exponent === undefined ? "" : `e${exponent}`;
  while (text.length + tail.length < NUMBER_BYTES) text += "0";
  return text + tail;
}

/**
 * The longest text `admittedBytes` promises to hold: every string escaped, every number in
 * NUMBER_BYTES bytes, the whole `margin` of whitespace before every value, member and closing
 * bracket and after the value.
 */
function longestText(value: unknown, margin: number): string {
  const ws = `\r\n${" ".repeat(margin - 2)}`;
  const go = (v: unknown): string => {
    if (typeof v === "string") return ws + escaped(v);
    if (typeof v === "number") return ws + longNumber(v);
    if (typeof v !== "object" || v === null) return ws + JSON.stringify(v);
    if (Array.isArray(v)) return `${ws}[${v.map(go).join(",")}${ws}]`;
    const members = Object.entries(v).map(([name, member]) => `${ws}${escaped(name)}:${go(member)}`);
    return `${ws}{${members.join(",")}${ws}}`;
  };
  return go(value) + ws;
}

type Schema = boolean | { [keyword: string]: unknown };

const key = fc.constantFrom("a", "b", "c", "ab");
const count = fc.nat({ max: 3 });

/**
 * Forms built to be bounded (mostly): closed objects, maxItems, maxLength, unions, conditions,
 * and `$ref` to a definition of the same kind.
 */
const boundedTree = (ref: fc.Arbitrary<Schema> | undefined): fc.Arbitrary<Schema> =>
  fc.letrec<{ schema: Schema }>((tie) => {
    const sub = ref === undefined ? tie("schema") : fc.oneof({ weight: 4, arbitrary: tie("schema") }, ref);
    const leaf = fc.oneof(
      count.map((maxLength) => ({ type: "string", maxLength })),
      fc.constantFrom<Schema>(
        { type: "integer" },
        { type: "number" },
        { type: ["boolean", "null"] },
        { type: ["string", "integer"], maxLength: 2 },
        true,
        false,
        {},
      ),
      fc.array(instance, { minLength: 1, maxLength: 3 }).map((values) => ({ enum: values })),
      instance.map((value) => ({ const: value })),
    );
    const object = fc
      .tuple(
        fc.dictionary(key, sub, { maxKeys: 4, noNullPrototype: true }),
        fc.oneof(fc.constant(false), fc.constant({ not: {} }), sub),
        fc.option(count, { nil: undefined }),
        fc.option(fc.dictionary(fc.constantFrom("^a", "b$"), sub, { maxKeys: 1, noNullPrototype: true }), {
          nil: undefined,
        }),
      )
      .map(([properties, additionalProperties, maxProperties, patternProperties]) => ({
        type: "object",
        properties,
        additionalProperties,
        maxProperties,
        patternProperties,
      }));
    const named = fc.tuple(count, sub, count).map(([length, additionalProperties, maxProperties]) => ({
      type: "object",
      propertyNames: { maxLength: length },
      additionalProperties,
      maxProperties,
    }));
    const array = fc
      .tuple(
        fc.array(sub, { maxLength: 3 }),
        fc.oneof(fc.constant(false), sub),
        fc.option(fc.nat({ max: 5 }), { nil: undefined }),
      )
      .map(([prefix, items, maxItems]) => ({
        type: "array",
        ...(prefix.length > 0 ? { prefixItems: prefix } : {}),
        items,
        maxItems,
      }));
    // Closed by unevaluated*: the names and the prefix come from the branches as well.
    const applicator = fc.constantFrom("allOf", "anyOf", "oneOf");
    const evaluatedObject = fc
      .tuple(
        fc.dictionary(key, sub, { maxKeys: 2, noNullPrototype: true }),
        applicator,
        fc.array(
          fc.tuple(
            fc.dictionary(key, sub, { maxKeys: 2, noNullPrototype: true }),
            fc.option(fc.dictionary(fc.constantFrom("^a", "b$"), sub, { maxKeys: 1, noNullPrototype: true }), {
              nil: undefined,
            }),
          ),
          { minLength: 1, maxLength: 2 },
        ),
        fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: sub }),
      )
      .map(([properties, keyword, branches, unevaluatedProperties]) => ({
        type: "object",
        properties,
        [keyword]: branches.map(([own, patternProperties]) => ({ properties: own, patternProperties })),
        unevaluatedProperties,
      }));
    const evaluatedArray = fc
      .tuple(
        fc.array(sub, { minLength: 1, maxLength: 2 }),
        applicator,
        fc.array(fc.array(sub, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 }),
        fc.option(sub, { nil: undefined }),
        fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: sub }),
      )
      .map(([prefix, keyword, branches, contains, unevaluatedItems]) => ({
        type: "array",
        prefixItems: prefix,
        [keyword]: branches.map((prefixItems) => ({ prefixItems })),
        contains,
        minContains: contains === undefined ? undefined : 0,
        unevaluatedItems,
      }));
    return {
      schema: fc.oneof(
        { depthSize: "small", maxDepth: 3 },
        { weight: 3, arbitrary: leaf },
        { weight: 3, arbitrary: object },
        { weight: 2, arbitrary: evaluatedObject },
        { weight: 1, arbitrary: evaluatedArray },
        { weight: 1, arbitrary: named },
        { weight: 2, arbitrary: array },
        {
          weight: 2,
          arbitrary: fc
            .tuple(fc.constantFrom("allOf", "anyOf", "oneOf"), fc.array(sub, { minLength: 1, maxLength: 3 }))
            .map(([keyword, schemas]) => ({ [keyword]: schemas })),
        },
        {
          weight: 1,
          arbitrary: fc.tuple(sub, sub, sub).map(([test, then, otherwise]) => ({ if: test, then, else: otherwise })),
        },
        { weight: 1, arbitrary: fc.tuple(sub, sub).map(([not, also]) => ({ allOf: [{ not }, also] })) },
      ),
    };
  }).schema;

const boundedForm: fc.Arbitrary<Schema> = fc
  .tuple(boundedTree(undefined), boundedTree(fc.constant({ $ref: "#/$defs/t" })))
  .map(([definition, schema]) => ({ allOf: [schema], $defs: { t: definition } }))
  .map((schema) => JSON.parse(JSON.stringify(schema)) as Schema); // drops undefined members

const pool = {
  strings: ["", "a", "ab", "😀", "é😀", "abc"],
  names: ["a", "b", "c", "ab", "ba", "abc", "x"],
  numbers: [0, 1, -1, 2.5, 3, 1e300, -0.25],
};

/**
 * A value shaped by `schema` (`root` resolves its `$ref`), often as large as the schema lets it
 * be: most members, most items, longest strings. Not always valid (allOf, not, if are only
 * partly followed): the validator filters.
 */
function candidate(schema: unknown, root: Schema, rnd: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const any = (): unknown =>
    depth > 4 ? pick(pool.numbers) : fc.sample(instance, { numRuns: 1, seed: Math.floor(rnd() * 2 ** 31) })[0];
  if (typeof schema !== "object" || schema === null) return any();
  const node = schema as Record<string, unknown>;
  const next = (sub: unknown) => candidate(sub, root, rnd, depth + 1);
  if (depth > 6) return any();
  if (typeof node.$ref === "string")
    return candidate((root as { $defs: Record<string, unknown> }).$defs.t, root, rnd, depth + 1);
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum)) return pick(node.enum);
  if ("unevaluatedProperties" in node || "unevaluatedItems" in node) {
    // Every name and prefix the branches evaluate, the rest under unevaluated*.
    const branches = ["allOf", "anyOf", "oneOf"].flatMap((keyword) =>
      Array.isArray(node[keyword]) ? (node[keyword] as Array<Record<string, unknown>>) : [],
    );
    const { allOf, anyOf, oneOf, unevaluatedProperties, unevaluatedItems, ...rest } = node;
    const prefixes = [node, ...branches].map((branch) => (Array.isArray(branch.prefixItems) ? branch.prefixItems : []));
    const merged = {
      ...rest,
      properties: Object.assign({}, ...branches.map((branch) => branch.properties ?? {}), node.properties ?? {}),
      patternProperties: Object.assign({}, ...branches.map((branch) => branch.patternProperties ?? {})),
      additionalProperties: unevaluatedProperties,
      prefixItems: prefixes.reduce((longest, prefix) => (prefix.length > longest.length ? prefix : longest)),
      items: unevaluatedItems,
    };
    return candidate(merged, root, rnd, depth);
  }
  for (const keyword of ["anyOf", "oneOf", "allOf"])
    if (Array.isArray(node[keyword])) return candidate(pick(node[keyword] as unknown[]), root, rnd, depth);
  if ("if" in node) return candidate(rnd() < 0.5 ? node.then : node.else, root, rnd, depth);
  const types =
    node.type === undefined
      ? ["null", "integer", "string", "array", "object"]
      : ([] as string[]).concat(node.type as string);
  const type = pick(types);
  const most = (max: unknown, fallback: number) =>
    typeof max === "number" ? (rnd() < 0.6 ? max : Math.floor(rnd() * (max + 1))) : fallback;
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return rnd() < 0.5;
    case "integer":
      return pick([0, 1, -3, 9007199254740991]);
    case "number":
      return pick(pool.numbers);
    case "string": {
      const length = most(node.maxLength, 3);
      let text = "";
      while ([...text].length < length) text += pick(["a", "😀", "é", '"', "\n"]);
      return text;
    }
    case "array": {
      const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
      const length = most(node.maxItems, node.items === false ? prefix.length : prefix.length + 2);
      return Array.from({ length }, (_, k) => next(k < prefix.length ? prefix[k] : node.items));
    }
    default: {
      const value: Record<string, unknown> = {};
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      const target = most(node.maxProperties, 6);
      for (const name of Object.keys(properties))
        if (Object.keys(value).length < target) value[name] = next(properties[name]);
      const patterns = Object.entries((node.patternProperties ?? {}) as Record<string, unknown>);
      for (const name of pool.names) {
        if (Object.keys(value).length >= target || name in value) continue;
        const matching = patterns.filter(([pattern]) => new RegExp(pattern, "u").test(name));
        value[name] = next(matching.length > 0 ? matching[0]![1] : node.additionalProperties);
      }
      return value;
    }
  }
}

interface Bounds {
  members: number;
  items: number;
  bytes: number;
  depth: number;
  strings: number;
}

const boundsOf = (schema: unknown): Bounds => ({
  members: admittedMembers(schema) ?? Infinity,
  items: admittedItems(schema) ?? Infinity,
  bytes: admittedBytes(schema) ?? Infinity,
  depth: admittedDepth(schema) ?? Infinity,
  strings: admittedStringLength(schema) ?? Infinity,
});

/** Why `value` breaks `bounds`, written as its longest text; "" when it is within them and parsed under them. */
function beyond(value: unknown, bounds: Bounds): string {
  if (valueMembers(value) > bounds.members) return `members ${valueMembers(value)} > ${bounds.members}`;
  if (valueItems(value) > bounds.items) return `items ${valueItems(value)} > ${bounds.items}`;
  if (bounds.depth === Infinity) return "";
  const text = longestText(value, whitespace(bounds.depth));
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > bounds.bytes) return `bytes ${bytes.length} > ${bounds.bytes}`;
  try {
    const parsed = parseJson(bytes, {
      maxDepth: bounds.depth + 1,
      maxStringLength: bounds.strings,
      maxMembers: bounds.members,
      maxItems: bounds.items,
    });
    if (JSON.stringify(parsed) !== JSON.stringify(value)) return "parsed as another value";
  } catch (error) {
    return `refused by the parser: ${String(error)}`;
  }
  return "";
}

describe("V1 V2 no valid instance is beyond its form's bounds, nor refused by a parser under them", () => {
  it("holds for every instance of JSON-Schema-Test-Suite the suite calls valid or the validator accepts", async () => {
    const groups = suiteGroups().flatMap((group) => {
      try {
        return [{ ...group, source: compileForm(group.schema), bounds: boundsOf(group.schema) }];
      } catch {
        return []; // a schema the compiler refuses has no generated module and no bound
      }
    });
    const modules = await loadModules(groups.map((group) => group.source));
    const broken: string[] = [];
    let checked = 0;
    let bounded = 0;
    groups.forEach((group, index) => {
      if (group.bounds.members !== Infinity || group.bounds.items !== Infinity) bounded++;
      for (const test of group.tests) {
        if (!test.valid && !modules[index]?.validate(test.data)) continue;
        checked++;
        const why = beyond(test.data, group.bounds);
        if (why !== "") broken.push(`${group.id} › ${test.description}: ${why}`);
      }
    });
    expect(broken).toEqual([]);
    expect(bounded).toBeGreaterThan(40);
    expect(checked).toBeGreaterThan(800);
  });

  // Random forms: the differential test's (the whole vocabulary, $defs, $ref, a recursive
  // $anchor) and forms built to be bounded, × random instances from a small domain.
  const cases = [
    ...fc.sample(fc.tuple(form, fc.array(instance, { minLength: 40, maxLength: 40 })), {
      numRuns: 300,
      seed: 20261204,
    }),
    ...fc
      .sample(fc.tuple(boundedForm, fc.array(instance, { minLength: 10, maxLength: 10 }), fc.integer()), {
        numRuns: 1200,
        seed: 20261205,
      })
      .map(([schema, instances, seed]): [Schema, unknown[]] => {
        const rnd = random(seed);
        return [schema, [...instances, ...Array.from({ length: 30 }, () => candidate(schema, schema, rnd))]];
      }),
  ];
  let modules: GeneratedModule[] = [];
  beforeAll(async () => {
    modules = await loadModules(cases.map(([schema]) => compileForm(schema)));
  });

  it("holds for every instance the generated validator accepts (random forms)", () => {
    const broken: unknown[] = [];
    const reached = { members: 0, items: 0, bytes: 0, exactMembers: 0, exactItems: 0 };
    let accepted = 0;
    cases.forEach(([schema, instances], index) => {
      const bounds = boundsOf(schema);
      for (const value of instances) {
        if (!modules[index]?.validate(value)) continue;
        accepted++;
        const why = beyond(value, bounds);
        if (why !== "") broken.push({ schema, value, why });
        if (valueMembers(value) > 0 && bounds.members !== Infinity) reached.members++;
        if (valueItems(value) > 0 && bounds.items !== Infinity) reached.items++;
        if (bounds.bytes !== Infinity) reached.bytes++;
        if (valueMembers(value) === bounds.members && bounds.members > 0) reached.exactMembers++;
        if (valueItems(value) === bounds.items && bounds.items > 0) reached.exactItems++;
      }
    });
    expect(broken).toEqual([]);
    expect(accepted).toBeGreaterThan(10_000);
    // Not vacuous: many accepted values hold members and items under finite bounds, and reach
    // the counts exactly.
    expect(reached.members).toBeGreaterThan(1000);
    expect(reached.items).toBeGreaterThan(1000);
    expect(reached.bytes).toBeGreaterThan(5000);
    expect(reached.exactMembers).toBeGreaterThan(500);
    expect(reached.exactItems).toBeGreaterThan(500);
  });
});
