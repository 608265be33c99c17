/**
 * `use-max-items`: every array the form admits has `maxItems` (or is a closed tuple:
 * `prefixItems` with `items: false`).
 *
 * @module
 */
import { defineRule } from "../rule.ts";
import { allowsType } from "../schema-nodes.ts";

export const useMaxItems = defineRule({
  meta: {
    id: "use-max-items",
    severity: "error",
    requirement: "S2",
    section: 'draft "The Form Is the Attack Surface" (bounded array sizes)',
    description: "An array schema bounds its size.",
    messages: { unbounded: "this array has no size bound: add maxItems (at most 1999 for llama.cpp actors)" },
    docs: {
      invalid: [{ schema: { type: "array", items: { type: "boolean" } }, pointer: "/s" }],
      valid: [
        { schema: { type: "array", maxItems: 10, items: { type: "boolean" } } },
        { schema: { type: "array", prefixItems: [{ type: "boolean" }], items: false } },
      ],
    },
  },
  check(context) {
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      const node = schema as Record<string, unknown>;
      if (!allowsType(node, "array")) continue;
      if (["maxItems", "enum", "const"].some((name) => Object.hasOwn(node, name))) continue;
      if (Array.isArray(node.prefixItems) && node.items === false) continue;
      context.report({ messageId: "unbounded", pointer });
    }
  },
});
