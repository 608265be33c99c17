/**
 * `use-act-instructions`: `p` says how to act: the method (POST to this address) and the body
 * (one JSON value valid against `s`). The draft gives `p` as "what this address is, and what
 * to do"; an actor that reads only `p` and `s` must be able to act.
 *
 * @module
 */
import { defineRule } from "../rule.ts";

export const useActInstructions = defineRule({
  meta: {
    id: "use-act-instructions",
    severity: "warning",
    requirement: "A2",
    section: 'draft "Arrival" (p: what this address is, and what to do)',
    description: "p names the method and the body of an act.",
    messages: { missing: "p does not say how to act: name {what}" },
    docs: {
      invalid: [
        { document: { p: "A feedback form.", m: [], s: { type: "null" } }, pointer: "/p" },
        { document: { p: "POST your rating here.", m: [], s: { type: "null" } }, pointer: "/p" },
      ],
      valid: [
        {
          document: {
            p: "Rate us: send one HTTP POST to this address whose body is a JSON value valid against s.",
            m: [],
            s: { type: "null" },
          },
        },
      ],
    },
  },
  check(context) {
    const p = context.file.p as string;
    const post = /\bPOST\b/.test(p);
    const json = /\bJSON\b/i.test(p);
    if (post && json) return;
    const what =
      !post && !json
        ? "the method (POST) and the body (a JSON value)"
        : !post
          ? "the method (POST)"
          : "the body (a JSON value)";
    context.report({ messageId: "missing", pointer: "/p", data: { what } });
  },
});
