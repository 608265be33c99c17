/**
 * `use-closed-object`: every object the form admits sets `additionalProperties: false` (or
 * `unevaluatedProperties: false`, which also admits the names its in-place subschemas
 * evaluate), so the members it does not name are refused.
 *
 * @module
 */
import { childPointer } from "../../compile/pointer.ts";
import { defineRule } from "../rule.ts";
import { allowsType } from "../schema-nodes.ts";

export const useClosedObject = defineRule({
  meta: {
    id: "use-closed-object",
    severity: "error",
    requirement: "S2",
    section: 'draft "The Form Is the Attack Surface"',
    description: "An object schema sets additionalProperties (or unevaluatedProperties) to false.",
    messages: {
      open: "this object admits members the form does not name: set additionalProperties to false",
      schema: "additionalProperties admits members the form does not name: set it to false",
    },
    docs: {
      invalid: [
        { schema: { type: "object", properties: { a: { type: "null" } } }, pointer: "/s" },
        {
          schema: { type: "object", properties: { a: { type: "null" } }, additionalProperties: { type: "null" } },
          pointer: "/s/additionalProperties",
        },
      ],
      valid: [
        { schema: { type: "object", properties: { a: { type: "null" } }, additionalProperties: false } },
        { schema: { type: "string", maxLength: 3 } },
        {
          schema: {
            type: "object",
            properties: { a: { type: "null" } },
            anyOf: [{ required: ["a"] }, { properties: { b: { type: "null" } }, required: ["b"] }],
            unevaluatedProperties: false,
          },
        },
      ],
    },
  },
  check(context) {
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      const node = schema as Record<string, unknown>;
      if (!allowsType(node, "object")) continue;
      if (node.unevaluatedProperties === false && !Object.hasOwn(node, "additionalProperties")) continue;
      if (!Object.hasOwn(node, "additionalProperties")) context.report({ messageId: "open", pointer });
      else if (node.additionalProperties !== false)
        context.report({ messageId: "schema", pointer: childPointer(pointer, "additionalProperties") });
    }
  },
});
