/**
 * `use-max-length`: every string the form admits has a bound on its length: `maxLength`, an
 * `enum` or `const`, a format of bounded length, or an anchored pattern without `*`, `+` or
 * `{n,}`.
 *
 * @module
 */
import { boundedFormats } from "../../compile/keywords/format.ts";
import { regexShape } from "../regex-shape.ts";
import { defineRule } from "../rule.ts";
import { allowsType } from "../schema-nodes.ts";

export const useMaxLength = defineRule({
  meta: {
    id: "use-max-length",
    severity: "error",
    requirement: "S2",
    section: 'draft "The Form Is the Attack Surface" (bounded string lengths)',
    description: "A string schema bounds its length.",
    messages: { unbounded: "this string has no length bound: add maxLength (at most 1999 for llama.cpp actors)" },
    docs: {
      invalid: [{ schema: { type: "string", pattern: "^a+$" }, pointer: "/s" }],
      valid: [
        { schema: { type: "string", maxLength: 80 } },
        { schema: { type: "string", format: "uuid" } },
        { schema: { type: "string", pattern: "^[a-z]{1,8}$" } },
        { schema: { type: "string", enum: ["a", "b"] } },
      ],
    },
  },
  check(context) {
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      const node = schema as Record<string, unknown>;
      if (!allowsType(node, "string")) continue;
      if (["maxLength", "enum", "const"].some((name) => Object.hasOwn(node, name))) continue;
      if (typeof node.format === "string" && boundedFormats.has(node.format)) continue;
      if (typeof node.pattern === "string" && regexShape(node.pattern).bounded) continue;
      context.report({ messageId: "unbounded", pointer });
    }
  },
});
