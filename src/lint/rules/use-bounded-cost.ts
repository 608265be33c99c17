/**
 * `use-bounded-cost`: the generated validator's worst-case work per byte of act (see
 * `cost.ts`) stays under 1,000 steps. Above it, an unauthenticated actor can make every act
 * expensive: `uniqueItems` over many items, patterns on every code point, nested unions.
 *
 * @module
 */
import { costBound } from "../cost.ts";
import { defineRule } from "../rule.ts";

/** Steps per byte of body above which the rule warns (at 1 MiB: about 10⁹ steps, seconds of CPU). */
export const costThreshold = 1000;

export const useBoundedCost = defineRule({
  meta: {
    id: "use-bounded-cost",
    severity: "warning",
    requirement: "S4",
    section: 'draft "Denial of Service"',
    description: "The validator's worst-case work per byte of act is bounded.",
    messages: {
      costly:
        "validating one act of {bytes} bytes may take {steps} steps ({perByte} per byte: {node} per node, {codePoint} per code point, {unique} for uniqueItems): tighten maxItems, unions or uniqueItems",
    },
    docs: {
      invalid: [
        {
          schema: {
            type: "array",
            maxItems: 20000,
            uniqueItems: true,
            items: { type: "integer", minimum: 0, maximum: 9 },
          },
          pointer: "/s",
        },
        {
          schema: {
            anyOf: Array.from({ length: 40 }, (_, i) => ({
              anyOf: Array.from({ length: 40 }, (_, j) => ({ const: i * 40 + j })),
            })),
          },
          pointer: "/s",
        },
      ],
      valid: [
        {
          schema: {
            type: "array",
            maxItems: 100,
            uniqueItems: true,
            items: { type: "integer", minimum: 0, maximum: 9 },
          },
        },
      ],
    },
  },
  check(context) {
    const bound = costBound(context.document);
    if (bound.perByte <= costThreshold) return;
    const n = (value: number) => Math.round(value).toLocaleString("en");
    context.report({
      messageId: "costly",
      pointer: "/s",
      data: {
        bytes: n(bound.maxBytes),
        steps: n(bound.steps),
        perByte: n(bound.perByte),
        node: n(bound.nodeWork),
        codePoint: n(bound.codePointWork),
        unique: n(bound.uniquenessWork),
      },
    });
  },
});
