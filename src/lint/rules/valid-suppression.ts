/**
 * `valid-suppression`: each `gpt-address-lint-disable <rule> -- <reason>` line in a schema's
 * `$comment` names known rules, gives a reason, and silences a finding that exists on that
 * schema or its own keywords. Reported by the engine.
 *
 * @module
 */
import { defineRule } from "../rule.ts";

export const validSuppression = defineRule({
  meta: {
    id: "valid-suppression",
    severity: "error",
    requirement: "S2",
    section: "gpt-address lint: in-file suppression (JSON Schema 2020-12 §8.3 $comment)",
    description: "A suppression names known rules and a reason, and silences an existing finding.",
    messages: {
      "unknown-rule": "no rule {rule}",
      "no-reason": "a suppression of {rule} needs a reason after --",
      unused: "nothing to suppress: {rule} reports nothing at {at}",
    },
    engine: true,
    docs: {
      invalid: [
        {
          schema: { type: "integer", minimum: 0, maximum: 9, $comment: "gpt-address-lint-disable use-number-bounds" },
          pointer: "/s/$comment",
        },
        {
          schema: {
            type: "integer",
            minimum: 0,
            maximum: 9,
            $comment: "gpt-address-lint-disable use-number-bounds -- any count",
          },
          pointer: "/s/$comment",
        },
        { schema: { type: "null", $comment: "gpt-address-lint-disable no-such-rule -- why" }, pointer: "/s/$comment" },
      ],
      valid: [
        {
          schema: {
            type: "integer",
            $comment: "A count.\ngpt-address-lint-disable use-number-bounds -- a count; the server caps it",
          },
        },
      ],
    },
  },
});
