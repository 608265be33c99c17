/**
 * `npm run docs:lint`: writes the parts of README.md and docs/lint.md that come from data, the
 * rule table (each rule's `meta`), the rule pages (their docs examples), the actor profiles and
 * the actor table of the example forms, between `<!-- gpt-address:NAME -->` markers. A test
 * fails when they are stale.
 *
 * @module
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { profiles, resolveProfile } from "../src/lint/actors/index.ts";
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
      `| [\`${meta.id}\`](docs/lint.md#${meta.id}) | ${meta.severity} | ${meta.requirement} | ${meta.description}${when} |`,
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

/** Replaces what lies between `<!-- gpt-address:NAME -->` and `<!-- /gpt-address:NAME -->`. */
export function replaceMarked(text: string, name: string, content: string): string {
  const open = `<!-- gpt-address:${name} -->`;
  const close = `<!-- /gpt-address:${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`no ${open} … ${close} markers`);
  return `${text.slice(0, start + open.length)}\n${content}\n${text.slice(end)}`;
}

/** README.md and docs/lint.md as they should be. */
export async function renderDocs(): Promise<{ readme: string; lint: string }> {
  let readme = await readFile(join(root, "README.md"), "utf8");
  readme = replaceMarked(readme, "rules", ruleTable());
  readme = replaceMarked(readme, "actors", await exampleActorTable());
  let lint = await readFile(join(root, "docs", "lint.md"), "utf8");
  lint = replaceMarked(lint, "rule-pages", rulePages());
  lint = replaceMarked(lint, "profiles", profileList());
  return { readme, lint };
}

if (import.meta.main) {
  const { readme, lint } = await renderDocs();
  await writeFile(join(root, "README.md"), readme);
  await writeFile(join(root, "docs", "lint.md"), lint);
  console.log("wrote README.md and docs/lint.md");
}
