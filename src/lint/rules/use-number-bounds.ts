/**
 * `use-number-bounds`: a number or integer the form admits has a lower and an upper bound.
 * A warning: an unbounded number is sometimes what an address means.
 *
 * @module
 */
import { defineRule } from "../rule.ts";
import { allowsType } from "../schema-nodes.ts";

export const useNumberBounds = defineRule({
  meta: {
    id: "use-number-bounds",
    severity: "warning",
    requirement: "S2",
    section: 'draft "The Form Is the Attack Surface"',
    description: "A number schema has a lower and an upper bound.",
    messages: { unbounded: "this number has no {side} bound: add {keyword}" },
    docs: {
      invalid: [
        { schema: { type: "integer", minimum: 0 }, pointer: "/s" },
        { schema: { type: "number" }, pointer: "/s" },
      ],
      valid: [
        { schema: { type: "integer", minimum: 1, maximum: 5 } },
        { schema: { type: "number", exclusiveMinimum: 0, maximum: 1 } },
        { schema: { type: "integer", enum: [1, 2] } },
      ],
    },
  },
  check(context) {
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      const node = schema as Record<string, unknown>;
      if (!allowsType(node, "number") || Object.hasOwn(node, "enum") || Object.hasOwn(node, "const")) continue;
      const has = (name: string) => Object.hasOwn(node, name);
      const lower = has("minimum") || has("exclusiveMinimum");
      const upper = has("maximum") || has("exclusiveMaximum");
      if (lower && upper) continue;
      const data =
        !lower && !upper
          ? { side: "lower or upper", keyword: "minimum and maximum" }
          : lower
            ? { side: "upper", keyword: "maximum" }
            : { side: "lower", keyword: "minimum" };
      context.report({ messageId: "unbounded", pointer, data });
    }
  },
});
