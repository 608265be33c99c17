/**
 * `no-actor-rejection`: an actor profile would refuse the form (HTTP 400, a grammar that fails
 * to parse, a converter error): that actor cannot act at all. Runs with `--actors`.
 *
 * @module
 */
import { actorIssues } from "../actors/judge-cache.ts";
import { defineRule } from "../rule.ts";

export const noActorRejection = defineRule({
  meta: {
    id: "no-actor-rejection",
    severity: "warning",
    requirement: "S1",
    section: 'draft "Constrained Decoding Is Not Enforcement"; ACTORS.md §9',
    description: "An actor's decoder or API accepts the form.",
    messages: { rejected: "{actor} rejects the form: {reason} ({source})" },
    actors: true,
    docs: {
      invalid: [
        { schema: { type: "string", maxLength: 2000 }, actor: "llama-cpp", pointer: "/s/maxLength" },
        {
          schema: { type: "object", additionalProperties: false, properties: { a: { type: "null" } } },
          actor: "openai-strict",
          pointer: "/s",
        },
      ],
      valid: [
        { schema: { type: "string", maxLength: 1999 }, actor: "llama-cpp" },
        {
          schema: { type: "object", additionalProperties: false, required: ["a"], properties: { a: { type: "null" } } },
          actor: "openai-strict",
        },
      ],
    },
  },
  check(context) {
    for (const profile of context.actors) {
      for (const issue of actorIssues(profile, context.nodes, context.document)) {
        if (issue.outcome !== "R") continue;
        const source = profile.sources[issue.source];
        context.report({
          messageId: "rejected",
          pointer: issue.pointer,
          actor: profile.id,
          data: { actor: profile.name, reason: issue.reason, source: source ? source.version : issue.source },
          ...(issue.hint === undefined ? {} : { hint: issue.hint }),
        });
      }
    }
  },
});
