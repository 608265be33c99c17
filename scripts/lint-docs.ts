/**
 * `npm run docs:lint`: writes the parts of docs/lint.md that come from data, the rule table
 * (each rule's `meta`), the rule pages (their docs examples), the actor profiles and the actor
 * table of the example forms, between `<!-- gpt-address:NAME -->` markers. A test fails when
 * they are stale.
 *
 * @module
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { profiles, resolveProfile } from "../src/lint/actors/index.ts";
import type { ActorProfile, KeywordCell } from "../src/lint/actors/profile.ts";
import { requirementText } from "../src/lint/actors/requirements.ts";
import { actorRows, renderActorMarkdown } from "../src/lint/actors/table.ts";
import type { RuleExample } from "../src/lint/rule.ts";
import { rules } from "../src/lint/rules/index.ts";

const root = join(import.meta.dirname, "..");

/** The Markdown table of every rule. */
export function ruleTable(): string {
  const lines = ["| rule | severity | requirement | reports |", "|---|---|---|---|"];
  for (const { meta } of rules) {
    const when = meta.actors ? " (with `--actors`)" : "";
    lines.push(
      `| [\`${meta.id}\`](#${meta.id}) | ${meta.severity} | ${meta.requirement} | ${meta.description}${when} |`,
    );
  }
  return lines.join("\n");
}

function exampleJson(example: RuleExample): string {
  if (example.text !== undefined) return example.text;
  const value = example.document ?? { s: example.schema };
  return JSON.stringify(value);
}

/** One section per rule: its metadata, messages and its invalid and valid examples (the tests). */
export function rulePages(): string {
  const parts: string[] = [];
  for (const { meta } of rules) {
    parts.push(`### ${meta.id}`, "");
    parts.push(`${meta.description} Severity **${meta.severity}**; ${meta.requirement}; ${meta.section}.`, "");
    if (meta.actors) parts.push("Runs with `--actors` only.", "");
    parts.push("Messages:", "");
    for (const [id, text] of Object.entries(meta.messages)) parts.push(`- \`${id}\`: ${text}`);
    parts.push("", "Invalid (one finding each):", "");
    for (const example of meta.docs.invalid) {
      const where = example.pointer === undefined ? "" : ` → \`${example.pointer}\``;
      const actor = example.actor === undefined ? "" : ` (actor \`${example.actor}\`)`;
      parts.push(`- \`${exampleJson(example).replaceAll("`", "\\`")}\`${actor}${where}`);
    }
    parts.push("", "Valid (no finding):", "");
    for (const example of meta.docs.valid) {
      const actor = example.actor === undefined ? "" : ` (actor \`${example.actor}\`)`;
      parts.push(`- \`${exampleJson(example).replaceAll("`", "\\`")}\`${actor}`);
    }
    parts.push("");
  }
  return parts.join("\n").trimEnd();
}

/** The actor profiles: id, what they describe, when read, and their sources. */
export function profileList(): string {
  const lines = ["| profile | surface | read | sources |", "|---|---|---|---|"];
  for (const profile of profiles.map(resolveProfile)) {
    const sources = Object.values(profile.sources)
      .map(
        (source) =>
          `${source.url.replaceAll("|", "\\|")} (${source.version.replaceAll("|", "\\|")}; ${source.evidence})`,
      )
      .join("<br>");
    lines.push(`| \`${profile.id}\` | ${profile.surface.replaceAll("|", "\\|")} | ${profile.read} | ${sources} |`);
  }
  return lines.join("\n");
}

/** The actor table of the example forms in forms/. */
export async function exampleActorTable(): Promise<string> {
  const resolved = profiles.map(resolveProfile);
  const files = (await readdir(join(root, "forms"))).filter((file) => file.endsWith(".json")).sort();
  const forms = [];
  for (const file of files) {
    const form = JSON.parse(await readFile(join(root, "forms", file), "utf8")) as { s: unknown };
    forms.push({ file: `forms/${file}`, rows: actorRows(resolved, form.s) });
  }
  return renderActorMarkdown(forms);
}

/** The recommended form (`templates/address/form.json`) and what each actor profile makes of it. */
export async function templateSection(): Promise<string> {
  const file = "templates/address/form.json";
  const text = await readFile(join(root, file), "utf8");
  const form = JSON.parse(text) as { s: unknown };
  const rows = actorRows(profiles.map(resolveProfile), form.s);
  return ["```json", text.trimEnd(), "```", "", renderActorMarkdown([{ file, rows }])].join("\n");
}

/** What a cell says the actor does, in words. */
function cellText(cell: KeywordCell): string {
  const what = { S: "enforces", I: "ignores", R: "rejects", X: "mishandles", L: "limited" }[cell.cell];
  return cell.note === undefined ? what : `${what}: ${cell.note}`;
}

/** Every hint of one profile's own data (not what it extends): what the form uses, what the actor does, the hint. */
function hintsOf(profile: ActorProfile): Array<{ subject: string; does: string; hint: string }> {
  const found: Array<{ subject: string; does: string; hint: string }> = [];
  for (const [keyword, cell] of Object.entries(profile.keywords ?? {}))
    if (cell.hint !== undefined) found.push({ subject: `\`${keyword}\``, does: cellText(cell), hint: cell.hint });
  if (profile.formats?.hint !== undefined)
    found.push({ subject: "`format`", does: cellText(profile.formats), hint: profile.formats.hint });
  if (profile.unlisted?.hint !== undefined)
    found.push({ subject: "any keyword", does: cellText(profile.unlisted), hint: profile.unlisted.hint });
  for (const requirement of profile.requires ?? [])
    if (requirement.hint !== undefined)
      found.push({
        subject: `requires \`${requirement.check}\``,
        does: requirement.note ?? requirementText[requirement.check],
        hint: requirement.hint,
      });
  for (const [name, limit] of Object.entries(profile.limits ?? {}))
    if (limit?.hint !== undefined)
      found.push({
        subject: `limit \`${name}\``,
        does: `at most ${limit.max}${limit.note === undefined ? "" : `: ${limit.note}`}`,
        hint: limit.hint,
      });
  return found;
}

/**
 * The trade-offs table: every hint in the profiles, one row per actor and hint (keywords that
 * share a hint in one profile share the row), ordered by what the form uses.
 */
export function tradeOffTable(): string {
  const rows: Array<{ subjects: string[]; actor: string; does: string; hint: string; order: number }> = [];
  profiles.forEach((profile, order) => {
    for (const { subject, does, hint } of hintsOf(profile)) {
      const same = rows.find((row) => row.actor === profile.name && row.hint === hint);
      if (same === undefined) rows.push({ subjects: [subject], actor: profile.name, does, hint, order });
      else same.subjects.push(subject);
    }
  });
  const rank = (row: (typeof rows)[number]) => {
    const first = row.subjects[0] ?? "";
    return first.startsWith("`") ? 0 : first.startsWith("requires") ? 1 : first.startsWith("limit") ? 2 : 3;
  };
  rows.sort(
    (a, b) => rank(a) - rank(b) || (a.subjects[0] ?? "").localeCompare(b.subjects[0] ?? "") || a.order - b.order,
  );
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const lines = ["| the form uses | actor | the actor | which way to go |", "|---|---|---|---|"];
  for (const row of rows)
    lines.push(`| ${cell(row.subjects.join(", "))} | ${cell(row.actor)} | ${cell(row.does)} | ${cell(row.hint)} |`);
  return lines.join("\n");
}

/** Replaces what lies between `<!-- gpt-address:NAME -->` and `<!-- /gpt-address:NAME -->`. */
export function replaceMarked(text: string, name: string, content: string): string {
  const open = `<!-- gpt-address:${name} -->`;
  const close = `<!-- /gpt-address:${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`no ${open} … ${close} markers`);
  return `${text.slice(0, start + open.length)}\n${content}\n${text.slice(end)}`;
}

/** docs/lint.md as it should be. */
export async function renderDocs(): Promise<{ lint: string }> {
  let lint = await readFile(join(root, "docs", "lint.md"), "utf8");
  lint = replaceMarked(lint, "rules", ruleTable());
  lint = replaceMarked(lint, "actors", await exampleActorTable());
  lint = replaceMarked(lint, "rule-pages", rulePages());
  lint = replaceMarked(lint, "profiles", profileList());
  lint = replaceMarked(lint, "template", await templateSection());
  lint = replaceMarked(lint, "trade-offs", tradeOffTable());
  return { lint };
}

if (import.meta.main) {
  const { lint } = await renderDocs();
  await writeFile(join(root, "docs", "lint.md"), lint);
  console.log("wrote docs/lint.md");
}
