/**
 * `unevaluatedProperties` and `unevaluatedItems` beyond the suite (V4: compiled exactly, or
 * refused): recursive forms whose checks read annotations through a schema that encloses them,
 * no subschema validated twice (a check that re-validated its branches would double the work
 * at each level), and nothing changed for a form without them.
 */
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { loadModules } from "./load-modules.ts";

/**
 * A tree whose nodes are closed where they are used (`{$ref, unevaluatedProperties: false}`),
 * the names given by anyOf branches, one of which recurses: the inner check reads annotations
 * through the very schema that encloses it.
 */
const tree = {
  $ref: "#/$defs/node",
  unevaluatedProperties: false,
  $defs: {
    node: {
      type: "object",
      anyOf: [
        { properties: { leaf: { type: "integer" } }, required: ["leaf"] },
        { properties: { child: { $ref: "#/$defs/node", unevaluatedProperties: false } }, required: ["child"] },
      ],
    },
  },
};

/** The same shape for items: each level's items are evaluated by an anyOf branch or contains. */
const list = {
  $defs: {
    level: {
      type: "array",
      anyOf: [{ prefixItems: [{ type: "integer" }] }, { contains: { $ref: "#/$defs/level" } }],
      unevaluatedItems: false,
    },
  },
  $ref: "#/$defs/level",
};

function nested(depth: number): unknown {
  let value: unknown = { leaf: 1 };
  for (let level = 0; level < depth; level++) value = { child: value };
  return value;
}

function nestedList(depth: number): unknown {
  let value: unknown = [1];
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

describe("V4 unevaluated* compiled exactly", () => {
  it("a recursive form whose check reads annotations through the schema enclosing it agrees with cfworker", async () => {
    const [ours] = await loadModules([compileForm(tree)]);
    const cfworker = new Validator(tree as never, "2020-12", false);
    const instances = [
      { leaf: 1 },
      { leaf: 1, other: 2 },
      { child: { leaf: 1 } },
      { child: { leaf: 1, x: 1 } },
      { child: { child: { leaf: 2 } } },
      { child: { child: { leaf: 2, child: { leaf: 3 } } } },
      { child: { child: {} } },
      { leaf: "no" },
      {},
    ];
    for (const instance of instances) {
      const expected = cfworker.validate(instance).valid;
      expect(ours?.validate(instance), JSON.stringify(instance)).toBe(expected);
    }
    expect(instances.map((instance) => cfworker.validate(instance).valid)).toContain(true); // control
    expect(instances.map((instance) => cfworker.validate(instance).valid)).toContain(false); // control
  });

  it("validates no subschema twice: the work grows linearly with recursion through anyOf and contains", async () => {
    const [objects, arrays] = await loadModules([compileForm(tree), compileForm(list)]);
    // Every read of a member or item of the instance, counted through proxies.
    let reads = 0;
    const counted = (value: unknown): unknown => {
      if (typeof value !== "object" || value === null) return value;
      const copy: unknown = Array.isArray(value)
        ? value.map(counted)
        : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, counted(v)]));
      return new Proxy(copy as object, {
        get(target, key, receiver) {
          reads += 1;
          return Reflect.get(target, key, receiver);
        },
      });
    };
    const work = (validate: ((value: unknown) => boolean) | undefined, value: unknown, valid: boolean): number => {
      reads = 0;
      expect(validate?.(counted(value))).toBe(valid);
      return reads;
    };
    // Re-validating a branch for its annotations would double the reads at each level (64 times from 6 to 12).
    expect(work(objects?.validate, nested(12), true) / work(objects?.validate, nested(6), true)).toBeLessThan(3);
    expect(work(arrays?.validate, nestedList(12), true) / work(arrays?.validate, nestedList(6), true)).toBeLessThan(3);
    expect(objects?.validate({ child: nested(199), extra: 1 })).toBe(false);
    expect(objects?.validate(nested(200))).toBe(true);
    expect(arrays?.validate([nestedList(199), "x"])).toBe(false);
    expect(arrays?.validate(nestedList(200))).toBe(true);
  });

  it("emits nothing new for a form without them (its module names no record, no labelled block)", () => {
    const source = compileForm({
      type: "object",
      anyOf: [{ properties: { a: { type: "integer" } } }, { required: ["b"] }],
      if: { required: ["a"] },
      else: { properties: { a: { minimum: 1 } } },
      properties: { list: { type: "array", contains: { type: "string" } } },
    });
    expect(source).not.toMatch(/\br\d+\b|\bb\d+: \{|Uint8Array/);
    // Control: the same form with unevaluatedProperties records the branches it reads.
    const closed = compileForm({
      type: "object",
      anyOf: [{ properties: { a: { type: "integer" } } }, { required: ["b"] }],
      unevaluatedProperties: false,
    });
    expect(closed).toMatch(/\bb\d+: \{/);
  });
});
