/**
 * `no-unconstrained-schema`: no place that describes a value (the root, a property, an item,
 * a union branch, a definition) admits every JSON value: `{}`, `true`, or a schema with no
 * `type`, `enum`, `const`, `$ref` or union.
 *
 * @module
 */
import { defineRule } from "../rule.ts";

/** Keywords holding schemas that describe a value of their own. */
const valuePositions = new Set(["properties", "patternProperties", "items", "prefixItems", "anyOf", "oneOf", "$defs"]);
/** Keywords that restrict which JSON types a schema admits. */
const restricting = ["type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf"];

export const noUnconstrainedSchema = defineRule({
  meta: {
    id: "no-unconstrained-schema",
    severity: "error",
    requirement: "S2",
    section: 'draft "The Form Is the Attack Surface"',
    description: "A schema that describes a value restricts its type.",
    messages: { any: "this schema admits any JSON value: give it a type (or enum/const)" },
    docs: {
      invalid: [
        {
          schema: { type: "object", additionalProperties: false, properties: { note: {} } },
          pointer: "/s/properties/note",
        },
        { schema: { type: "array", maxItems: 3, items: true }, pointer: "/s/items" },
        { schema: { description: "anything" }, pointer: "/s" },
      ],
      valid: [
        { schema: { type: "object", additionalProperties: false, properties: { note: { type: "null" } } } },
        { schema: { type: "object", additionalProperties: false, properties: { gone: false } } },
      ],
    },
  },
  check(context) {
    for (const { schema, pointer, via } of context.nodes) {
      if (via !== undefined && !valuePositions.has(via)) continue;
      if (schema === false) continue;
      const open =
        schema === true ||
        (typeof schema === "object" &&
          schema !== null &&
          !restricting.some((name) => Object.hasOwn(schema as object, name)));
      if (open) context.report({ messageId: "any", pointer });
    }
  },
});
