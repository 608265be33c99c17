/**
 * `use-anchored-pattern`: a `pattern` (or `patternProperties` name) starts with `^`, ends with
 * `$` and has no top-level `|`, so it constrains the whole string: JSON Schema patterns are
 * unanchored searches, and llama.cpp refuses unanchored ones.
 *
 * @module
 */
import { childPointer } from "../../compile/pointer.ts";
import { regexShape } from "../regex-shape.ts";
import { defineRule } from "../rule.ts";

export const useAnchoredPattern = defineRule({
  meta: {
    id: "use-anchored-pattern",
    severity: "error",
    requirement: "S2",
    section: 'draft "The Form Is the Attack Surface"; ECMA-262 pattern semantics (a search, not a match)',
    description: "A pattern is anchored at both ends.",
    messages: {
      unanchored: "pattern {pattern} is a search: anchor it as ^(?:…)$ so it constrains the whole string",
    },
    docs: {
      invalid: [
        { schema: { type: "string", maxLength: 9, pattern: "[a-z]+" }, pointer: "/s/pattern" },
        { schema: { type: "string", maxLength: 9, pattern: "^a|b$" }, pointer: "/s/pattern" },
      ],
      valid: [{ schema: { type: "string", maxLength: 9, pattern: "^(?:a|b)$" } }],
    },
  },
  check(context) {
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      const node = schema as Record<string, unknown>;
      if (typeof node.pattern === "string" && !regexShape(node.pattern).anchored)
        context.report({
          messageId: "unanchored",
          pointer: childPointer(pointer, "pattern"),
          data: { pattern: JSON.stringify(node.pattern) },
        });
      for (const name of Object.keys((node.patternProperties ?? {}) as object)) {
        if (!regexShape(name).anchored)
          context.report({
            messageId: "unanchored",
            pointer: childPointer(pointer, "patternProperties", name),
            data: { pattern: JSON.stringify(name) },
          });
      }
    }
  },
});
