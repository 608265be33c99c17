/**
 * `use-valid-examples`: every assistant message in `m` is a value `s` accepts. `m` shows the
 * actor what an act looks like; an example the form rejects teaches a failing act. Judged by
 * the generated validator itself, after the strict parser.
 *
 * @module
 */
import { JsonSyntaxError } from "../../json/json-syntax-error.ts";
import { parseJson } from "../../json/parse.ts";
import { loadValidator } from "../load-validator.ts";
import { defineRule } from "../rule.ts";

const p = "To act, send one HTTP POST to this address whose body is one JSON value valid against s.";
const s = { type: "object", additionalProperties: false, required: ["n"], properties: { n: { type: "integer" } } };

export const useValidExamples = defineRule({
  meta: {
    id: "use-valid-examples",
    severity: "error",
    requirement: "V3",
    section: 'draft "Arrival" (m: prior messages)',
    description: "The assistant's example acts in m are values s accepts.",
    messages: {
      "not-json": "this example act is not strict JSON (byte {offset}: {reason})",
      rejected: "s rejects this example act (the keyword at /s{keyword} fails)",
    },
    docs: {
      invalid: [
        {
          document: { p, m: [{ role: "assistant", content: '{"n": "one"}' }], s },
          pointer: "/m/0/content",
        },
        { document: { p, m: [{ role: "assistant", content: "n = 1" }], s }, pointer: "/m/0/content" },
      ],
      valid: [
        {
          document: {
            p,
            m: [
              { role: "user", content: "one" },
              { role: "assistant", content: '{"n": 1}' },
            ],
            s,
          },
        },
      ],
    },
  },
  async check(context) {
    const messages = context.file.m as Array<{ role: string; content: string }>;
    if (!messages.some((message) => message.role === "assistant")) return;
    const validator = await loadValidator(context.schema);
    const bytes = new TextEncoder();
    messages.forEach((message, index) => {
      if (message.role !== "assistant") return;
      const pointer = `/m/${index}/content`;
      let value: unknown;
      try {
        value = parseJson(bytes.encode(message.content), { maxDepth: 256 });
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error;
        context.report({ messageId: "not-json", pointer, data: { offset: error.offset, reason: error.message } });
        return;
      }
      if (!validator.validate(value))
        context.report({ messageId: "rejected", pointer, data: { keyword: validator.lastFailure() } });
    });
  },
});
