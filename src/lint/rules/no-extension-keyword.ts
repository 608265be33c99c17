/**
 * `no-extension-keyword`: a note on each extension keyword of the form (`x-…`, and the editors'
 * annotations such as `markdownDescription`): the compiler accepts them as annotations, so the
 * address validates nothing with them, and an actor may ignore or misread them.
 *
 * @module
 */
import { childPointer } from "../../compile/pointer.ts";
import { keywordOf } from "../../compile/vocabulary.ts";
import { defineRule } from "../rule.ts";

export const noExtensionKeyword = defineRule({
  meta: {
    id: "no-extension-keyword",
    severity: "warning",
    requirement: "F2, F5",
    section: 'draft "Vocabulary", "Description"; JSON Schema 2020-12 Core §6.5 (unknown keywords)',
    description: "The form uses no extension keyword, which validates nothing.",
    messages: {
      extension:
        "{keyword} is an extension: an annotation that validates nothing, which an actor may ignore or misread",
      editor: "{keyword} is an editor's annotation: it validates nothing, and actors read description, not {keyword}",
    },
    docs: {
      invalid: [
        { schema: { type: "string", maxLength: 9, "x-order": 1 }, pointer: "/s/x-order" },
        {
          schema: { type: "string", maxLength: 9, markdownDescription: "A *name*." },
          pointer: "/s/markdownDescription",
        },
      ],
      valid: [{ schema: { type: "string", maxLength: 9, description: "A name." } }],
    },
  },
  check(context) {
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      for (const name of Object.keys(schema)) {
        if (keywordOf(name)?.extension !== true) continue;
        context.report({
          messageId: name.startsWith("x-") ? "extension" : "editor",
          pointer: childPointer(pointer, name),
          data: { keyword: name },
        });
      }
    }
  },
});
