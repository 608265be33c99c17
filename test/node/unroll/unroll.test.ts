import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { admittedDepth } from "../../../src/compile/admitted-depth.ts";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { unroll } from "../../../src/compile/unroll.ts";
import { loadModules } from "../compile/load-modules.ts";

type Schema = Record<string, unknown>;

const leaves: ReadonlyArray<Schema> = [
  { type: "integer", minimum: 0, maximum: 9 },
  { type: "string", maxLength: 3 },
  { type: "boolean" },
];

/** A recursive form of one of three families, with the recursive positions `items` and `kid`. */
const recursiveForm = fc
  .record({
    family: fc.constantFrom("single", "mutual", "root"),
    leaf: fc.constantFrom(...leaves),
    maxItems: fc.integer({ min: 1, max: 3 }),
    array: fc.boolean(),
    kidRequired: fc.boolean(),
    tagRequired: fc.boolean(),
  })
  .map(({ family, leaf, maxItems, array, kidRequired, tagRequired }): Schema => {
    const arrayOf = (ref: string) => ({ type: "array", maxItems, items: { $ref: ref } });
    const objectOf = (ref: string) => ({
      type: "object",
      additionalProperties: false,
      required: [...(kidRequired ? ["kid"] : []), ...(tagRequired ? ["tag"] : [])],
      properties: { kid: { $ref: ref, description: "the child" }, tag: { type: "string", maxLength: 2 } },
    });
    if (family === "root") return { anyOf: [leaf, arrayOf("#")], title: "tree" };
    if (family === "mutual")
      return {
        $defs: { a: { anyOf: [leaf, arrayOf("#/$defs/b")] }, b: { anyOf: [leaf, objectOf("#/$defs/a")] } },
        $ref: "#/$defs/a",
      };
    const containers = array ? [arrayOf("#/$defs/node"), objectOf("#/$defs/node")] : [objectOf("#/$defs/node")];
    return { $defs: { node: { anyOf: [leaf, ...containers] } }, $ref: "#/$defs/node" };
  });

/** Values shaped like the families (nested arrays and objects with kid/tag), valid or not. */
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(0, 7, 12, -1, "ab", "abcd", true, null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.record({ kid: tie("value"), tag: fc.constantFrom("x", "xyz") }, { requiredKeys: [] }),
  ),
}));

/**
 * How many nested applications of the recursive definitions a value takes: one for the node
 * itself, plus the deepest of its recursive children (array items, the `kid` member).
 */
function applications(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(applications));
  if (typeof v === "object" && v !== null) {
    const kid = (v as { kid?: unknown }).kid;
    return 1 + ("kid" in v ? applications(kid) : 0);
  }
  return 1;
}

describe("F4 gpt-address unroll: N levels, the last without the recursive alternative", () => {
  it("F4 for generated recursive forms and values, the unrolled form accepts exactly the original's values of depth ≤ N", async () => {
    await fc.assert(
      fc.asyncProperty(
        recursiveForm,
        fc.integer({ min: 1, max: 4 }),
        fc.array(value, { minLength: 30, maxLength: 60 }),
        async (form, depth, values) => {
          const { schema, definitions } = unroll(form, depth);
          expect(definitions.length).toBeGreaterThan(0);
          expect(admittedDepth(form)).toBeNull();
          expect(admittedDepth(schema)).not.toBeNull();
          const [original, unrolled] = await loadModules([compileForm(form), compileForm(schema)]);
          for (const v of values) {
            const expected = original!.validate(v) && applications(v) <= depth;
            expect(unrolled!.validate(v), JSON.stringify({ v, depth })).toBe(expected);
          }
        },
      ),
      { numRuns: 120, seed: 20261201 },
    );
  });

  it("F4 the values near the bound: depth N accepted, depth N + 1 rejected (paired)", async () => {
    const form = {
      $defs: { node: { anyOf: [{ type: "null" }, { type: "array", maxItems: 2, items: { $ref: "#/$defs/node" } }] } },
      $ref: "#/$defs/node",
    };
    const { schema } = unroll(form, 3);
    const [unrolled] = await loadModules([compileForm(schema)]);
    expect(unrolled!.validate([[null]])).toBe(true); // 3 applications
    expect(unrolled!.validate([[[]]])).toBe(true); // 3: the last level admits only []
    expect(unrolled!.validate([[[null]]])).toBe(false); // 4
  });

  it("keeps every other keyword, names levels <name>_<k>, and leaves a form without recursion unchanged", () => {
    const form = {
      $defs: {
        node: {
          type: "array",
          maxItems: 2,
          description: "d",
          items: { anyOf: [{ type: "null" }, { $ref: "#/$defs/node" }] },
        },
      },
      $ref: "#/$defs/node",
    };
    const { schema } = unroll(form, 2) as { schema: { $defs: Record<string, Schema> } };
    expect(Object.keys(schema.$defs)).toEqual(["node", "node_2"]);
    expect(schema.$defs.node_2).toEqual({
      type: "array",
      maxItems: 2,
      description: "d",
      items: { anyOf: [{ type: "null" }] },
    });
    const flat = { type: "object", additionalProperties: false, properties: { a: { type: "null" } } };
    expect(unroll(flat, 3)).toEqual({ schema: flat, definitions: [] });
    expect(() => unroll(form, 0)).toThrow(RangeError);
  });
});
