/**
 * `valid-form`: the file is strict JSON, an arrival document `{p, m, s}`, a valid JSON Schema
 * 2020-12, and a form the compiler builds exactly. Reported by the engine before any other
 * rule runs (the other rules read a form the compiler accepted).
 *
 * @module
 */
import { defineRule } from "../rule.ts";

export const validForm = defineRule({
  meta: {
    id: "valid-form",
    severity: "error",
    requirement: "A2, F1, V4",
    section: 'draft "Arrival" (Response), "The Form", "Verification" requirement 4',
    description: "The file is strict JSON, an arrival document, a valid 2020-12 schema, and compiles exactly.",
    messages: {
      "not-json": "not strict JSON at byte {offset}: {reason}",
      "not-arrival": "not an arrival document: {what} (A2)",
      "meta-schema": "not a valid JSON Schema 2020-12 (meta-schema {location}: {reason})",
      compile: "the compiler refuses the form ({code}): {reason}",
    },
    engine: true,
    docs: {
      invalid: [
        { text: '{"p": "POST a JSON value", "p": "twice", "m": [], "s": {}}', pointer: "" },
        { document: { p: 1, m: [], s: { type: "null" } }, pointer: "/p" },
        { schema: { type: "null", minimum: "1" }, pointer: "/s/minimum" },
        { schema: { type: "string", maxLength: 5, contentEncoding: "base64" }, pointer: "/s/contentEncoding" },
        { schema: { type: "string", maxLength: 5, format: "iri" }, pointer: "/s/format" },
      ],
      valid: [{ schema: { type: "string", maxLength: 5, format: "date" } }],
    },
  },
});
