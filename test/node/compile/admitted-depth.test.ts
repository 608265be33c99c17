/**
 * admittedDepth: the deepest container nesting a valid instance can have (DESIGN.md §6
 * "Limits": the parser's default maxDepth is this plus one), or null when unbounded.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { admittedDepth } from "../../../src/compile/compile-form.ts";

describe("V2 admittedDepth bounds the nesting a form admits", () => {
  it("counts containers: a scalar is 0, [] is 1, [[1]] is 2", () => {
    expect(admittedDepth({ type: "string" })).toBe(0);
    expect(admittedDepth({ type: "array", maxItems: 0 })).toBe(1);
    expect(admittedDepth({ type: "array", items: { type: "array", items: { type: "integer" } } })).toBe(2);
    expect(admittedDepth({ const: [[1]] })).toBe(2);
    expect(admittedDepth({ enum: [1, { a: [] }] })).toBe(2);
  });

  it("is null where arbitrary containers are admitted", () => {
    expect(admittedDepth({})).toBeNull();
    expect(admittedDepth(true)).toBeNull();
    expect(admittedDepth({ type: "object", properties: { a: { type: "string" } } })).toBeNull(); // open object
    expect(admittedDepth({ type: "array" })).toBeNull();
    expect(admittedDepth({ properties: { a: { type: "string" } }, additionalProperties: false })).toBeNull(); // could be an array
    expect(
      admittedDepth({ type: "object", additionalProperties: false, properties: { a: { not: { type: "string" } } } }),
    ).toBeNull();
  });

  it("is null for a recursive $ref, finite for the same shape unrolled (F4)", () => {
    const tree = {
      $ref: "#/$defs/node",
      $defs: {
        node: {
          type: "object",
          additionalProperties: false,
          properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } },
        },
      },
    };
    expect(admittedDepth(tree)).toBeNull();
    const unrolled = {
      $ref: "#/$defs/a",
      $defs: {
        a: {
          type: "object",
          additionalProperties: false,
          properties: { kids: { type: "array", items: { $ref: "#/$defs/b" } } },
        },
        b: { type: "object", additionalProperties: false },
      },
    };
    expect(admittedDepth(unrolled)).toBe(3);
  });

  it("takes the tighter bound of allOf and the looser branch of anyOf", () => {
    const closed = { type: "object", additionalProperties: false };
    expect(admittedDepth({ allOf: [{}, closed] })).toBe(1);
    expect(admittedDepth({ anyOf: [closed, { type: "array", items: closed }] })).toBe(2);
    expect(admittedDepth({ anyOf: [closed, {}] })).toBeNull();
    expect(admittedDepth({ type: "array", prefixItems: [closed], items: false })).toBe(2);
  });

  it("is 17 for the bench page form (lists unrolled to depth 4)", () => {
    const form = JSON.parse(
      readFileSync(fileURLToPath(new URL("../../../bench/page.form.json", import.meta.url).href), "utf8"),
    ) as unknown;
    expect(admittedDepth(form)).toBe(17);
  });
});
