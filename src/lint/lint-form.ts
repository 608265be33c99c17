/**
 * The form linter's engine: reads a form file (strict JSON, an arrival document, a valid
 * 2020-12 schema the compiler builds), runs every rule, applies the form's own suppressions
 * and returns the findings.
 *
 * @module
 */
import { FormDocument } from "../compile/document.ts";
import { FormError } from "../compile/form-error.ts";
import { checkMetaSchema } from "../compile/meta-schema.ts";
import { upgradeForm } from "../compile/upgrade.ts";
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import type { ActorProfile } from "./actors/profile.ts";
import { compareFindings, type Finding } from "./finding.ts";
import type { FormFile, Report, Rule, RuleContext } from "./rule.ts";
import { rules as allRules } from "./rules/index.ts";
import { validForm } from "./rules/valid-form.ts";
import { validSuppression } from "./rules/valid-suppression.ts";
import { type SchemaNode, schemaNodes } from "./schema-nodes.ts";

/** Options of {@link lintForm}. */
export interface LintOptions {
  /** Actor profiles to judge the form for; the actor rules run only when some are given. */
  readonly actors?: ReadonlyArray<ActorProfile>;
  /** The rules to run (every rule by default). */
  readonly rules?: ReadonlyArray<Rule>;
}

/** Fills a rule's message template; a placeholder left unfilled is a bug in the rule. */
export function formatMessage(rule: Rule, messageId: string, data: Readonly<Record<string, string | number>> = {}) {
  const template = (rule.meta.messages as Record<string, string>)[messageId];
  if (template === undefined) throw new Error(`rule ${rule.meta.id} has no message ${JSON.stringify(messageId)}`);
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = data[name];
    if (value === undefined) throw new Error(`rule ${rule.meta.id} message ${messageId} lacks {${name}}`);
    return String(value);
  });
}

function finding(rule: Rule, report: Report): Finding {
  return {
    rule: rule.meta.id,
    messageId: report.messageId,
    pointer: report.pointer,
    severity: rule.meta.severity,
    ...(report.actor === undefined ? {} : { actor: report.actor }),
    message: formatMessage(rule, report.messageId, report.data),
    ...(report.hint === undefined ? {} : { hint: report.hint }),
    ...(report.fix === undefined ? {} : { fix: report.fix }),
  };
}

/**
 * Lints the bytes of one form file.
 *
 * @see draft "The Form Is the Attack Surface", "Vocabulary", "Bounded Recursion"; DESIGN.md S2, F2–F4
 */
export async function lintBytes(bytes: Uint8Array, options: LintOptions = {}): Promise<Finding[]> {
  let file: unknown;
  try {
    file = parseJson(bytes, { maxDepth: 256, bigIntegers: true });
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const data = { offset: error.offset, reason: error.message };
    return [finding(validForm, { messageId: "not-json", pointer: "", data })];
  }
  return lintForm(file, options);
}

/** Lints one parsed form file (an arrival document `{p, m, s}`). */
export async function lintForm(file: unknown, options: LintOptions = {}): Promise<Finding[]> {
  const early = checkShape(file);
  if (early !== undefined) return [finding(validForm, early)];
  let form = file as FormFile;
  // A form in an older draft is linted as the 2020-12 form the build publishes (upgrade.ts).
  let upgraded: ReturnType<typeof upgradeForm>;
  try {
    upgraded = upgradeForm(form.s);
  } catch (error) {
    if (!(error instanceof FormError)) throw error;
    const data = { code: error.code, reason: error.message };
    return [finding(validForm, { messageId: "compile", pointer: `/s${error.pointer}`, data })];
  }
  const changed = upgraded.notes.find((note) => note.changed);
  if (changed !== undefined) {
    const data = { code: "upgrade", reason: `${changed.message} (run gpt-address upgrade, then decide)` };
    return [finding(validForm, { messageId: "compile", pointer: `/s${changed.pointer}`, data })];
  }
  if (upgraded.from !== "2020-12") form = { ...form, s: upgraded.schema };
  const violation = checkMetaSchema(form.s)[0];
  if (violation !== undefined) {
    const data = { location: violation.keywordLocation, reason: violation.error };
    return [finding(validForm, { messageId: "meta-schema", pointer: `/s${violation.pointer}`, data })];
  }
  let document: FormDocument;
  try {
    document = new FormDocument(form.s);
  } catch (error) {
    if (!(error instanceof FormError)) throw error;
    const data = { code: error.code, reason: error.message };
    return [finding(validForm, { messageId: "compile", pointer: `/s${error.pointer}`, data })];
  }
  const actors = options.actors ?? [];
  const nodes = schemaNodes(form.s);
  const findings: Finding[] = [];
  for (const rule of options.rules ?? allRules) {
    if (rule.check === undefined || (rule.meta.actors && actors.length === 0)) continue;
    const context: RuleContext = {
      file: form,
      schema: form.s,
      document,
      nodes,
      actors,
      report(report) {
        findings.push(finding(rule, report));
      },
    };
    await rule.check(context);
  }
  return applySuppressions(nodes, findings, actors.length > 0).sort(compareFindings);
}

function checkShape(file: unknown): Report | undefined {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  const bad = (pointer: string, what: string): Report => ({ messageId: "not-arrival", pointer, data: { what } });
  if (!isObject(file)) return bad("", "an arrival document is a JSON object {p, m, s}");
  if (typeof file.p !== "string") return bad("/p", "p must be a string");
  if (!Array.isArray(file.m)) return bad("/m", "m must be an array of messages");
  for (const [index, message] of file.m.entries()) {
    if (!isObject(message) || typeof message.role !== "string" || typeof message.content !== "string")
      return bad(`/m/${index}`, "a message is an object with string members role and content");
  }
  if (!isObject(file.s)) return bad("/s", "s must be a JSON Schema object");
  return undefined;
}

/** A directive in a schema's `$comment`: `gpt-address-lint-disable rule-a, rule-b -- reason`. */
const directive = /^\s*gpt-address-lint-disable\s+([^\n]*?)\s*(?:--\s*(.*?))?\s*$/gm;

/** The schema node that owns `pointer`: the deepest node whose pointer is a prefix of it. */
function ownerOf(pointer: string, nodePointers: ReadonlySet<string>): string | undefined {
  for (let at = pointer; ; at = at.slice(0, at.lastIndexOf("/"))) {
    if (nodePointers.has(at)) return at;
    if (at === "") return undefined;
  }
}

/**
 * Drops the findings the form itself silences. A schema's `$comment` (JSON Schema's place for
 * notes to the form's maintainers) may hold lines `gpt-address-lint-disable <rule>[, <rule>]
 * -- <reason>`; each silences the named rules on that schema and its own keywords (not on
 * deeper subschemas). A directive without a reason, naming no known rule, or silencing
 * nothing is itself a finding.
 */
function applySuppressions(nodes: ReadonlyArray<SchemaNode>, findings: Finding[], actorsRan: boolean): Finding[] {
  const known = new Map(allRules.map((rule) => [rule.meta.id, rule]));
  const nodePointers = new Set(nodes.map((node) => node.pointer));
  const extra: Finding[] = [];
  let kept = findings;
  for (const { schema, pointer } of nodes) {
    if (
      typeof schema !== "object" ||
      schema === null ||
      typeof (schema as { $comment?: unknown }).$comment !== "string"
    )
      continue;
    const at = `${pointer}/$comment`;
    for (const match of (schema as { $comment: string }).$comment.matchAll(directive)) {
      const names = (match[1] ?? "").split(/[\s,]+/).filter((name) => name !== "");
      const reason = match[2] ?? "";
      const unknown = names.find((name) => !known.has(name));
      if (names.length === 0 || unknown !== undefined) {
        extra.push(
          finding(validSuppression, { messageId: "unknown-rule", pointer: at, data: { rule: unknown ?? "(none)" } }),
        );
        continue;
      }
      if (reason === "") {
        extra.push(
          finding(validSuppression, { messageId: "no-reason", pointer: at, data: { rule: names.join(", ") } }),
        );
        continue;
      }
      for (const name of names) {
        const before = kept.length;
        kept = kept.filter((f) => !(f.rule === name && ownerOf(f.pointer, nodePointers) === pointer));
        if (kept.length === before && (actorsRan || !known.get(name)?.meta.actors))
          extra.push(
            finding(validSuppression, { messageId: "unused", pointer: at, data: { rule: name, at: pointer } }),
          );
      }
    }
  }
  return [...kept, ...extra];
}
