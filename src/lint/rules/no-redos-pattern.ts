/**
 * `no-redos-pattern`: no `pattern` or `patternProperties` name takes super-linear time to
 * match, as judged by the `recheck` ReDoS checker (automaton and fuzzing, `u` flag). The
 * generated validator runs each pattern on strings an unauthenticated actor chooses.
 *
 * @module
 */
import { checkSync } from "recheck";
import { childPointer } from "../../compile/pointer.ts";
import { defineRule } from "../rule.ts";

const verdicts = new Map<string, string | null>();

/** The complexity summary when `source` is vulnerable, else null (memoised per source). */
function vulnerability(source: string): string | null {
  let verdict = verdicts.get(source);
  if (verdict === undefined) {
    const diagnostics = checkSync(source, "u", { timeout: 10_000 });
    verdict = diagnostics.status === "vulnerable" ? diagnostics.complexity.summary : null;
    verdicts.set(source, verdict);
  }
  return verdict;
}

export const noRedosPattern = defineRule({
  meta: {
    id: "no-redos-pattern",
    severity: "error",
    requirement: "S2",
    section: 'draft "The Form Is the Attack Surface", "Denial of Service"',
    description: "A pattern matches in linear time (checked with recheck).",
    messages: { vulnerable: "pattern {pattern} backtracks catastrophically ({complexity}): rewrite it" },
    docs: {
      invalid: [{ schema: { type: "string", maxLength: 99, pattern: "^(a+)+$" }, pointer: "/s/pattern" }],
      valid: [{ schema: { type: "string", maxLength: 99, pattern: "^a+$" } }],
    },
  },
  check(context) {
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      const node = schema as Record<string, unknown>;
      const sources: Array<[string, string]> = [];
      if (typeof node.pattern === "string") sources.push([node.pattern, childPointer(pointer, "pattern")]);
      for (const name of Object.keys((node.patternProperties ?? {}) as object))
        sources.push([name, childPointer(pointer, "patternProperties", name)]);
      for (const [source, at] of sources) {
        const complexity = vulnerability(source);
        if (complexity !== null)
          context.report({
            messageId: "vulnerable",
            pointer: at,
            data: { pattern: JSON.stringify(source), complexity },
          });
      }
    }
  },
});
