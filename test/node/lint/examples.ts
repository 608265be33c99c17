/**
 * Runs a rule's documented examples: the form file each example describes, linted with that
 * rule alone (engine rules: with no rule, as the engine reports them itself).
 *
 * @module
 */
import { getProfile } from "../../../src/lint/actors/index.ts";
import type { Finding } from "../../../src/lint/finding.ts";
import { lintBytes } from "../../../src/lint/lint-form.ts";
import type { Rule, RuleExample } from "../../../src/lint/rule.ts";
import { rules } from "../../../src/lint/rules/index.ts";

/** The `p` schema-only examples are wrapped with: it says how to act. */
export const exampleP = "To act, send one HTTP POST to this address whose body is one JSON value valid against s.";

/** The form file text an example describes. */
export function exampleText(example: RuleExample): string {
  if (example.text !== undefined) return example.text;
  if (example.document !== undefined) return JSON.stringify(example.document);
  return JSON.stringify({ p: exampleP, m: [], s: example.schema });
}

/** The rules an example's own suppressions name (so that an engine rule's example has findings to silence). */
function suppressedRules(example: RuleExample): Rule[] {
  const text = exampleText(example);
  return rules.filter((rule) => text.includes(`gpt-address-lint-disable ${rule.meta.id}`));
}

/** The findings of `rule` (and of the engine) on one example. */
export async function lintExample(rule: Rule, example: RuleExample): Promise<Finding[]> {
  const actors = example.actor === undefined ? [] : [getProfile(example.actor)];
  const bytes = new TextEncoder().encode(exampleText(example));
  return lintBytes(bytes, { rules: rule.meta.engine ? suppressedRules(example) : [rule], actors });
}
