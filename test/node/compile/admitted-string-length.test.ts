/**
 * admittedStringLength: the longest string, value or member name, a valid instance can hold,
 * in UTF-16 code units (DESIGN.md §6 "Limits": the parser's default maxStringLength), or null
 * when unbounded. Every valid instance of JSON-Schema-Test-Suite, and of random forms over the
 * whole vocabulary, stays within it.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { admittedDepth, admittedStringLength, compileForm } from "../../../src/compile/compile-form.ts";
import { form, instance } from "./arbitraries.ts";
import { type GeneratedModule, loadModules } from "./load-modules.ts";
import { suiteGroups } from "./suite-files.ts";

/** The schema `{if, then, else}` (`else` left out when undefined). */
const conditional = (test: unknown, then: unknown, otherwise?: unknown) => ({
  if: test,
  then,
  ...(otherwise === undefined ? {} : { else: otherwise }),
});
const closed = (properties: Record<string, unknown>) => ({ type: "object", additionalProperties: false, properties });

describe("V2 admittedStringLength bounds the strings a form admits", () => {
  it("counts a maxLength of L as 2·L code units (a code point is one or two)", () => {
    expect(admittedStringLength({ type: "string", maxLength: 5 })).toBe(10);
    expect(admittedStringLength({ type: "string", maxLength: 0 })).toBe(0);
    expect(admittedStringLength({ type: ["string", "null"], maxLength: 3 })).toBe(6);
    // maxLength constrains only strings: without type the node admits objects and arrays too.
    expect(admittedStringLength({ maxLength: 5 })).toBeNull();
  });

  it("is 0 for a form that admits no string", () => {
    expect(admittedStringLength({ type: "integer" })).toBe(0);
    expect(admittedStringLength({ type: ["number", "boolean", "null"] })).toBe(0);
    expect(admittedStringLength({ type: "array", items: { type: "number" } })).toBe(0);
    expect(admittedStringLength(false)).toBe(0);
    expect(admittedStringLength({ type: "object", maxProperties: 0 })).toBe(0);
  });

  it("takes const and enum from the longest string or member name in their values", () => {
    expect(admittedStringLength({ const: "heading" })).toBe(7);
    expect(admittedStringLength({ enum: ["a", "bold", 12] })).toBe(4);
    expect(admittedStringLength({ const: { longer: ["x"] } })).toBe(6);
    expect(admittedStringLength({ enum: [[{ a: "abc" }], null] })).toBe(3);
    expect(admittedStringLength({ const: "💩" })).toBe(2);
    expect(admittedStringLength({ enum: [] })).toBe(0);
    // const bounds the node even when its type alone would not.
    expect(admittedStringLength({ type: "string", const: "abc" })).toBe(3);
    expect(admittedStringLength({ type: "string", maxLength: 100, enum: ["ab"] })).toBe(2);
  });

  it("bounds member names only when they are closed or bounded by propertyNames", () => {
    const title = { type: "string", maxLength: 2 };
    expect(admittedStringLength(closed({ title, description: { type: "boolean" } }))).toBe(11);
    expect(admittedStringLength(closed({}))).toBe(0);
    // Open names: additionalProperties absent or true, or patternProperties present.
    expect(admittedStringLength({ type: "object", properties: { title } })).toBeNull();
    expect(admittedStringLength({ type: "object", properties: { title }, additionalProperties: true })).toBeNull();
    expect(admittedStringLength({ ...closed({ title }), patternProperties: { "^x": { type: "integer" } } })).toBeNull();
    // Bounded values with open names stay unbounded; propertyNames bounds the names.
    const values = { type: "object", additionalProperties: { type: "integer" } };
    expect(admittedStringLength(values)).toBeNull();
    expect(admittedStringLength({ ...values, propertyNames: { maxLength: 3 } })).toBe(6);
    expect(admittedStringLength({ ...values, propertyNames: { enum: ["alpha", "be"] } })).toBe(5);
    expect(admittedStringLength({ ...values, propertyNames: { type: "string" } })).toBeNull();
    expect(admittedStringLength({ ...values, propertyNames: false })).toBe(0);
    // A member value longer than every name sets the bound.
    expect(admittedStringLength({ ...closed({ a: { type: "string", maxLength: 10 } }) })).toBe(20);
    // additionalProperties that admits nothing closes the names as false does.
    expect(admittedStringLength({ ...closed({ abc: { type: "null" } }), additionalProperties: { enum: [] } })).toBe(3);
  });

  it("is null where an unbounded string is admitted", () => {
    expect(admittedStringLength({})).toBeNull();
    expect(admittedStringLength(true)).toBeNull();
    expect(admittedStringLength({ type: "string" })).toBeNull();
    expect(admittedStringLength({ type: "string", minLength: 1, pattern: "^a+$" })).toBeNull();
    expect(admittedStringLength({ type: "array" })).toBeNull();
    expect(admittedStringLength({ type: "array", items: { type: "string" } })).toBeNull();
    expect(admittedStringLength(closed({ a: { not: { type: "number" } } }))).toBeNull();
    expect(admittedStringLength(closed({ a: true }))).toBeNull();
  });

  it("reads items: prefixItems, items, and maxItems cutting the prefix", () => {
    const short = { type: "string", maxLength: 1 };
    const long = { type: "string", maxLength: 50 };
    expect(admittedStringLength({ type: "array", items: short })).toBe(2);
    expect(admittedStringLength({ type: "array", prefixItems: [short, long], items: false })).toBe(100);
    expect(admittedStringLength({ type: "array", prefixItems: [short, long], maxItems: 1 })).toBe(2);
    expect(admittedStringLength({ type: "array", prefixItems: [short] })).toBeNull(); // items absent: any later item
  });

  it("takes the tighter bound of allOf, the looser branch of anyOf and oneOf, the target of $ref", () => {
    const three = { type: "string", maxLength: 3 };
    expect(admittedStringLength({ allOf: [{}, three] })).toBe(6);
    expect(admittedStringLength({ allOf: [{ type: "string", maxLength: 9 }, three] })).toBe(6);
    expect(admittedStringLength({ anyOf: [three, { type: "string", maxLength: 7 }] })).toBe(14);
    expect(admittedStringLength({ oneOf: [three, { type: "integer" }] })).toBe(6);
    expect(admittedStringLength({ anyOf: [three, {}] })).toBeNull();
    expect(admittedStringLength({ $ref: "#/$defs/t", $defs: { t: three } })).toBe(6);
    expect(admittedStringLength(conditional(three, three, { type: "integer" }))).toBe(6);
    expect(admittedStringLength(conditional(three, three))).toBeNull(); // else absent: anything that fails if
  });

  it("is null for a reference cycle unless the node itself bounds it", () => {
    const tree = {
      $ref: "#/$defs/node",
      $defs: {
        node: closed({
          name: { type: "string", maxLength: 4 },
          kids: { type: "array", items: { $ref: "#/$defs/node" } },
        }),
      },
    };
    expect(admittedStringLength(tree)).toBeNull();
    const bounded = {
      $ref: "#/$defs/node",
      $defs: { node: { anyOf: [{ type: "integer" }, { type: "array", items: { $ref: "#/$defs/node" } }] } },
    };
    expect(admittedStringLength(bounded)).toBeNull();
    expect(admittedStringLength({ ...bounded, enum: [[1], 2, ["ok"]] })).toBe(2);
  });

  it("is 3998 for the example's page form: a span's text and href have maxLength 1999", () => {
    const file = JSON.parse(
      readFileSync(fileURLToPath(new URL("../../../forms/page.json", import.meta.url).href), "utf8"),
    ) as { s: unknown };
    expect(admittedStringLength(file.s)).toBe(3998);
  });
});

/** The longest string or member name in a JSON value, in UTF-16 code units; 0 when none. */
function longestString(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (typeof value !== "object" || value === null) return 0;
  let longest = 0;
  for (const [name, member] of Object.entries(value)) {
    longest = Math.max(longest, Array.isArray(value) ? 0 : name.length, longestString(member));
  }
  return longest;
}

describe("V2 no valid instance of JSON-Schema-Test-Suite holds a string longer than its form's bound", () => {
  const groups = suiteGroups().flatMap((group) => {
    try {
      return [{ ...group, source: compileForm(group.schema), bound: admittedStringLength(group.schema) }];
    } catch {
      return []; // a schema the compiler refuses has no generated module and no bound
    }
  });
  let modules: GeneratedModule[] = [];
  beforeAll(async () => {
    modules = await loadModules(groups.map((group) => group.source));
  });

  it("holds for every instance the suite calls valid or the generated validator accepts", () => {
    let checked = 0;
    let bounded = 0;
    const beyond: string[] = [];
    groups.forEach((group, index) => {
      if (group.bound !== null) bounded++;
      for (const test of group.tests) {
        if (!test.valid && !modules[index]?.validate(test.data)) continue;
        checked++;
        const length = longestString(test.data);
        if (group.bound !== null && length > group.bound)
          beyond.push(`${group.id} › ${test.description}: ${length} > ${group.bound}`);
      }
    });
    expect(beyond).toEqual([]);
    // Not vacuous: the suite's schemas mostly omit `type`, so few are bounded (68 of 313 compiled).
    expect(bounded).toBeGreaterThan(50);
    expect(checked).toBeGreaterThan(800);
  });
});

/** Container depth of a JSON value: a scalar is 0, `[]` is 1. */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  return 1 + Object.values(value).reduce<number>((deepest, member) => Math.max(deepest, depthOf(member)), 0);
}

type Schema = boolean | { [keyword: string]: unknown };

const key = fc.constantFrom("a", "b", "c", "ab");
const count = fc.nat({ max: 3 });

/** Forms built to bound strings (mostly): string types with maxLength, closed objects, unions. */
const stringForm: fc.Arbitrary<Schema> = fc
  .letrec<{ schema: Schema }>((tie) => {
    const sub = tie("schema");
    const leaf = fc.oneof(
      count.map((maxLength) => ({ type: "string", maxLength })),
      fc
        .tuple(count, fc.constantFrom<unknown>("integer", ["string", "null"], ["string", "array"]))
        .map(([maxLength, type]) => ({ type, maxLength })),
      fc.array(instance, { minLength: 1, maxLength: 3 }).map((values) => ({ enum: values })),
      instance.map((value) => ({ const: value })),
      count.map((maxLength) => ({ maxLength })),
      fc.constantFrom<Schema>({ type: "integer" }, { type: "string" }, {}, true, false),
    );
    return {
      schema: fc.oneof(
        { depthSize: "small", maxDepth: 3 },
        { weight: 3, arbitrary: leaf },
        {
          weight: 2,
          arbitrary: fc
            .tuple(fc.dictionary(key, sub, { maxKeys: 3, noNullPrototype: true }), fc.oneof(fc.constant(false), sub))
            .map(([properties, additionalProperties]) => ({ type: "object", properties, additionalProperties })),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(sub, sub)
            .map(([propertyNames, additionalProperties]) => ({ type: "object", propertyNames, additionalProperties })),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.array(sub, { maxLength: 2 }), sub, fc.option(count, { nil: undefined }))
            .map(([prefix, items, maxItems]) => ({
              type: "array",
              ...(prefix.length > 0 ? { prefixItems: prefix } : {}),
              items,
              maxItems,
            })),
        },
        {
          weight: 2,
          arbitrary: fc
            .tuple(fc.constantFrom("allOf", "anyOf", "oneOf"), fc.array(sub, { minLength: 1, maxLength: 3 }))
            .map(([keyword, schemas]) => ({ [keyword]: schemas })),
        },
        {
          weight: 1,
          arbitrary: fc.tuple(sub, sub, sub).map(([test, then, otherwise]) => conditional(test, then, otherwise)),
        },
        { weight: 1, arbitrary: fc.tuple(sub, sub).map(([not, also]) => ({ allOf: [{ not }, also] })) },
      ),
    };
  })
  .schema.map((schema) => JSON.parse(JSON.stringify(schema)) as Schema); // drops undefined maxItems

describe("V2 no instance a random form accepts holds a longer string or a deeper nesting than its bounds", () => {
  // Random forms (the differential test's, over the whole vocabulary with $defs, $ref and a
  // recursive $anchor, and forms built to bound strings) × random instances from a small
  // domain that includes surrogate pairs ("😀" is 2 code units).
  const cases = [
    ...fc.sample(fc.tuple(form, fc.array(instance, { minLength: 40, maxLength: 40 })), {
      numRuns: 300,
      seed: 20261202,
    }),
    ...fc.sample(fc.tuple(stringForm, fc.array(instance, { minLength: 40, maxLength: 40 })), {
      numRuns: 600,
      seed: 20261203,
    }),
  ];

  it("holds for every instance the generated validator accepts", async () => {
    const modules = await loadModules(cases.map(([schema]) => compileForm(schema)));
    let accepted = 0;
    let withString = 0;
    let reached = 0;
    const beyond: unknown[] = [];
    cases.forEach(([schema, instances], index) => {
      const strings = admittedStringLength(schema) ?? Infinity;
      const depth = admittedDepth(schema) ?? Infinity;
      for (const value of instances) {
        if (!modules[index]?.validate(value)) continue;
        accepted++;
        const longest = longestString(value);
        if (strings !== Infinity && longest > 0) withString++;
        if (longest === strings && longest > 0) reached++;
        if (longest > strings || depthOf(value) > depth) beyond.push({ schema, value, strings, depth });
      }
    });
    expect(beyond).toEqual([]);
    expect(accepted).toBeGreaterThan(1000);
    expect(withString).toBeGreaterThan(100);
    expect(reached).toBeGreaterThan(10); // and the bound is often reached exactly
  });
});
