/**
 * `no-actor-ignored-keyword`: an actor profile accepts the form but ignores a keyword (or
 * mishandles it), so that actor may produce values the address rejects. Runs with `--actors`.
 *
 * @module
 */
import { actorIssues } from "../actors/judge-cache.ts";
import { defineRule } from "../rule.ts";

export const noActorIgnoredKeyword = defineRule({
  meta: {
    id: "no-actor-ignored-keyword",
    severity: "warning",
    requirement: "S1",
    section: 'draft "Constrained Decoding Is Not Enforcement"; ACTORS.md §9',
    description: "An actor that accepts the form also enforces each of its keywords.",
    messages: {
      ignored: "{actor} {reason}: it may send values the address rejects ({source})",
      broken: "{actor} {reason}: its output may be invalid ({source})",
    },
    actors: true,
    docs: {
      invalid: [
        {
          schema: { type: "string", maxLength: 20, pattern: "^[a-z]{1,20}$" },
          actor: "node-llama-cpp",
          pointer: "/s/pattern",
        },
        { schema: { anyOf: [{ type: "boolean" }, { type: "null" }] }, actor: "node-llama-cpp", pointer: "/s/anyOf" },
      ],
      valid: [{ schema: { type: "string", maxLength: 20 }, actor: "node-llama-cpp" }],
    },
  },
  check(context) {
    for (const profile of context.actors) {
      for (const issue of actorIssues(profile, context.nodes, context.document)) {
        if (issue.outcome === "R") continue;
        const source = profile.sources[issue.source];
        context.report({
          messageId: issue.outcome === "X" ? "broken" : "ignored",
          pointer: issue.pointer,
          actor: profile.id,
          data: { actor: profile.name, reason: issue.reason, source: source ? source.version : issue.source },
          ...(issue.hint === undefined ? {} : { hint: issue.hint }),
        });
      }
    }
  },
});
