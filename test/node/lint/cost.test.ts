import { describe, expect, it } from "vitest";
import { FormDocument } from "../../../src/compile/document.ts";
import { costBound } from "../../../src/lint/cost.ts";
import { schemaNodes } from "../../../src/lint/schema-nodes.ts";

const bound = (schema: unknown, maxBytes?: number) => costBound(new FormDocument(schema), maxBytes);
const ints = { type: "integer", minimum: 0, maximum: 9 };

describe("S4 the bound on the validator's work per act", () => {
  it("uniqueItems adds min(maxItems, maxBytes / 2) per byte; the control without it does not", () => {
    const unique = bound({ type: "array", maxItems: 500, uniqueItems: true, items: ints });
    const plain = bound({ type: "array", maxItems: 500, items: ints });
    expect(unique.uniquenessWork).toBe(500);
    expect(plain.uniquenessWork).toBe(0);
    expect(unique.perByte - plain.perByte).toBe(500 + 1); // the pairs, plus the keyword's own check
    expect(bound({ type: "array", uniqueItems: true, items: ints }, 1000).uniquenessWork).toBe(500);
  });

  it("scales with the body size limit: steps = maxBytes × per-byte work", () => {
    const small = bound({ type: "string", maxLength: 9, pattern: "^a+$" }, 1000);
    const large = bound({ type: "string", maxLength: 9, pattern: "^a+$" }, 2000);
    expect(small.perByte).toBe(large.perByte);
    expect(large.steps).toBe(2 * small.steps);
    expect(small.codePointWork).toBe(1);
  });

  it("nested unions multiply the work on one instance node; sibling properties do not", () => {
    const branch = (n: number) => ({ anyOf: Array.from({ length: n }, (_, i) => ({ const: i })) });
    const nested = bound({ anyOf: [branch(10), branch(10), branch(10)] });
    const flat = bound({ type: "object", properties: { a: branch(10), b: branch(10), c: branch(10) } });
    expect(nested.nodeWork).toBeGreaterThan(30);
    expect(flat.nodeWork).toBeLessThan(nested.nodeWork);
  });

  it("recursion that re-validates one schema per level settles; recursion through a doubling union is unbounded", () => {
    const tree = {
      $defs: {
        node: { type: "array", maxItems: 3, items: { anyOf: [{ type: "boolean" }, { $ref: "#/$defs/node" }] } },
      },
      $ref: "#/$defs/node",
    };
    expect(bound(tree).perByte).toBeLessThan(100);
    const doubling = {
      $defs: {
        n: {
          anyOf: [
            { type: "array", items: { $ref: "#/$defs/n" } },
            { type: "array", items: { $ref: "#/$defs/n" } },
          ],
        },
      },
      $ref: "#/$defs/n",
    };
    expect(bound(doubling, 1000).nodeWork).toBeGreaterThanOrEqual(1000);
  });
});

describe("a form of 200,000 properties", () => {
  // Found by a breaker: spreading every child into push() or Math.max overflowed the stack, so
  // lint and the build died with a RangeError on a wide (12.8 MB) form.
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 200_000; i++) properties[`p${i}`] = { type: "string", maxLength: 5 };
  const schema = { type: "object", properties, additionalProperties: false };

  it("is walked and bounded without overflowing the stack", () => {
    expect(schemaNodes(schema)).toHaveLength(200_002);
    expect(costBound(new FormDocument(schema), 1_048_576).perByte).toBeGreaterThan(0);
  });
});
