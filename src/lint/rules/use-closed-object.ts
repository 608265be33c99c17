/**
 * `use-closed-object`: every object the form admits sets `additionalProperties: false`, so the
 * members it does not name are refused.
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
    description: "An object schema sets additionalProperties to false.",
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
      ],
    },
  },
  check(context) {
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      const node = schema as Record<string, unknown>;
      if (!allowsType(node, "object")) continue;
      if (!Object.hasOwn(node, "additionalProperties")) context.report({ messageId: "open", pointer });
      else if (node.additionalProperties !== false)
        context.report({ messageId: "schema", pointer: childPointer(pointer, "additionalProperties") });
    }
  },
});
