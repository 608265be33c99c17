/**
 * gpt-address/lint: the form linter (build time, Node). Findings for the attack surface (S2),
 * the vocabulary (F2–F4), mistakes, and each actor's support of the form.
 *
 * @example
 * ```ts
 * import { lintBytes } from "gpt-address/lint";
 * const findings = await lintBytes(await readFile("forms/page.json"));
 * ```
 * @module
 */
export { actorProfileSchema, profiles } from "./actors/index.ts";
export type { ActorProfile, Cell } from "./actors/profile.ts";
export { compareFindings, type Finding, type Fix, type Severity } from "./finding.ts";
export { formatMessage, type LintOptions, lintBytes, lintForm } from "./lint-form.ts";
export type { Rule, RuleMeta } from "./rule.ts";
export { rules } from "./rules/index.ts";
