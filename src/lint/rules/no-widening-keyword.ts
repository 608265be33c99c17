/**
 * `no-widening-keyword`: the form does not depend on keywords whose omission by a validator
 * or an actor would widen what is accepted (each keyword file declares `widening`).
 *
 * @module
 */
import { childPointer } from "../../compile/pointer.ts";
import { keywordOf } from "../../compile/vocabulary.ts";
import { defineRule } from "../rule.ts";

export const noWideningKeyword = defineRule({
  meta: {
    id: "no-widening-keyword",
    severity: "warning",
    requirement: "F2",
    section: 'draft "Vocabulary"',
    description: "The form uses shape keywords only.",
    messages: { widening: "{keyword} is not a shape keyword: {reason}" },
    docs: {
      invalid: [
        {
          schema: { type: "array", maxItems: 5, items: { type: "boolean" }, uniqueItems: true },
          pointer: "/s/uniqueItems",
        },
        { schema: { type: "integer", minimum: 0, maximum: 9, not: { const: 3 } }, pointer: "/s/not" },
      ],
      valid: [{ schema: { type: "array", maxItems: 5, items: { enum: [1, 2, 3] } } }],
    },
  },
  check(context) {
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      for (const name of Object.keys(schema)) {
        const reason = keywordOf(name)?.widening;
        if (reason !== undefined)
          context.report({
            messageId: "widening",
            pointer: childPointer(pointer, name),
            data: { keyword: name, reason },
          });
      }
    }
  },
});
