/**
 * The actor table: per actor profile, whether the form is accepted, accepted with keywords
 * ignored (which, where), or rejected (why), from the same judgement as the actor rules.
 *
 * @module
 */
import { FormDocument } from "../../compile/document.ts";
import { schemaNodes } from "../schema-nodes.ts";
import { actorIssues } from "./judge-cache.ts";
import type { ActorProfile } from "./profile.ts";

/** The verdict of one actor on one form. */
export type Verdict = "accepted" | "accepted, keywords ignored" | "rejected";

/** One row of the table. */
export interface ActorRow {
  readonly actor: string;
  readonly name: string;
  readonly verdict: Verdict;
  /** The reasons for rejection, each with its pointer. */
  readonly rejected: ReadonlyArray<string>;
  /** Ignored or mishandled keywords with the number of places. */
  readonly ignored: ReadonlyArray<string>;
  /** The profile's hints for these findings (each once): which way to go, and at what cost. */
  readonly hints: ReadonlyArray<string>;
}

/**
 * The rows for `profiles` on the form `s`, judged as the actor rules judge it.
 *
 * @throws {FormError} when the compiler refuses the form (lint reports that first).
 */
export function actorRows(profiles: ReadonlyArray<ActorProfile>, schema: unknown): ActorRow[] {
  const document = new FormDocument(schema);
  const nodes = schemaNodes(schema);
  return profiles.map((profile) => {
    const issues = actorIssues(profile, nodes, document);
    const rejected = issues
      .filter((issue) => issue.outcome === "R")
      .map((issue) => `${issue.pointer}: ${issue.reason}`);
    const places = new Map<string, number>();
    for (const issue of issues) {
      if (issue.outcome === "R") continue;
      const what = issue.keyword ?? issue.reason;
      const label = issue.outcome === "X" ? `${what} (wrong output)` : what;
      places.set(label, (places.get(label) ?? 0) + 1);
    }
    const ignored = [...places].map(([label, count]) => (count > 1 ? `${label} ×${count}` : label));
    const hints = [...new Set(issues.flatMap((issue) => (issue.hint === undefined ? [] : [issue.hint])))];
    const verdict: Verdict =
      rejected.length > 0 ? "rejected" : ignored.length > 0 ? "accepted, keywords ignored" : "accepted";
    return { actor: profile.id, name: profile.name, verdict, rejected, ignored, hints };
  });
}

/** A short summary of a row: the first reason for rejection, or the ignored keywords. */
function summary(row: ActorRow): string {
  if (row.rejected.length > 0) {
    const first = row.rejected[0] ?? "";
    const more = row.rejected.length > 1 ? ` (+${row.rejected.length - 1} more)` : "";
    return `${first.replace(/ \([^()]*\)$/, "")}${more}`;
  }
  if (row.ignored.length === 0) return "";
  const shown = row.ignored.slice(0, 6).join(", ");
  return row.ignored.length > 6 ? `ignores ${shown} (+${row.ignored.length - 6} more)` : `ignores ${shown}`;
}

/** The table as aligned text for a terminal; each hint on a line of its own below its row. */
export function renderActorTable(rows: ReadonlyArray<ActorRow>): string {
  const width = Math.max(...rows.map((row) => row.actor.length));
  const verdictWidth = Math.max(...rows.map((row) => row.verdict.length));
  const indent = " ".repeat(width + 4);
  return rows
    .flatMap((row) => [
      `  ${row.actor.padEnd(width)}  ${row.verdict.padEnd(verdictWidth)}  ${summary(row)}`.trimEnd(),
      ...row.hints.map((hint) => `${indent}hint: ${hint}`),
    ])
    .join("\n");
}

/** The table as Markdown, one column per form: the actor table of docs/lint.md. */
export function renderActorMarkdown(forms: ReadonlyArray<{ file: string; rows: ReadonlyArray<ActorRow> }>): string {
  const escapeCell = (text: string) => text.replaceAll("|", "\\|");
  const header = `| actor | ${forms.map((form) => `\`${form.file}\``).join(" | ")} |`;
  const rule = `|---|${forms.map(() => "---").join("|")}|`;
  const names = forms[0]?.rows ?? [];
  const lines = names.map((first, index) => {
    const cells = forms.map((form) => {
      const row = form.rows[index];
      if (row === undefined) return "";
      const detail = summary(row);
      return escapeCell(detail === "" ? `**${row.verdict}**` : `**${row.verdict}**: ${detail}`);
    });
    return `| ${escapeCell(first.name)} | ${cells.join(" | ")} |`;
  });
  return [header, rule, ...lines].join("\n");
}
