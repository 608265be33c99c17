/**
 * Judges a form for one actor profile: every keyword's cell, the profile's form-wide
 * requirements and its budgets. Each issue says what the actor does (R rejects the request,
 * I ignores the keyword, X produces wrong output), where, why, and the source.
 *
 * @module
 */
import type { FormDocument } from "../../compile/document.ts";
import { childPointer } from "../../compile/pointer.ts";
import { keywordOf } from "../../compile/vocabulary.ts";
import { type SchemaNode, typesOf } from "../schema-nodes.ts";
import { limitIssues } from "./budgets.ts";
import { type ActorIssue, isNode, type Node } from "./issue.ts";
import type { ActorProfile, KeywordCell } from "./profile.ts";
import { requirementIssues } from "./requirements.ts";

export type { ActorIssue } from "./issue.ts";

/** The outcome of a keyword at one node under `cell`, or undefined when enforced. */
function cellOutcome(cell: KeywordCell, value: unknown, node: Node, at: string): "R" | "I" | "X" | undefined {
  if (cell.cell === "S") return undefined;
  if (cell.cell !== "L") return cell.cell;
  const otherwise = cell.otherwise ?? "I";
  if (cell.max !== undefined && typeof value === "number" && value > cell.max) return otherwise;
  if (cell.values !== undefined && !cell.values.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value)))
    return otherwise;
  if (cell.types !== undefined) {
    const types = typesOf(node);
    if (types === undefined || !types.every((name) => cell.types?.includes(name))) return otherwise;
  }
  if (cell.without?.some((name) => Object.hasOwn(node, name))) return otherwise;
  if (cell.notAtRoot && at === "") return otherwise;
  return undefined;
}

function describe(cell: KeywordCell, outcome: "R" | "I" | "X", keyword: string): string {
  const what = { R: "rejects", I: "ignores", X: "mishandles" }[outcome];
  // An identifier is inert, but a `$ref` may resolve through it (its `identifier` flag).
  const consequence = outcome === "I" && keywordOf(keyword)?.identifier ? ", so a $ref through it may not resolve" : "";
  return cell.note === undefined
    ? `${what} ${keyword}${consequence}`
    : `${what} ${keyword}${consequence}: ${cell.note}`;
}

/**
 * Every issue of the form for `profile` (already resolved: see `resolveProfile`).
 *
 * @see ACTORS.md §7–§9 and its 2026-12 addendum
 */
export function judge(profile: ActorProfile, nodes: ReadonlyArray<SchemaNode>, document: FormDocument): ActorIssue[] {
  const issues: ActorIssue[] = [];
  for (const { schema, pointer, at } of nodes) {
    if (!isNode(schema)) continue;
    for (const keyword of Object.keys(schema)) {
      const value = schema[keyword];
      const where = childPointer(pointer, keyword);
      const cell =
        keyword === "format" && profile.formats !== undefined
          ? profile.formats
          : (profile.keywords?.[keyword] ?? profile.unlisted);
      if (cell === undefined) continue;
      const outcome = cellOutcome(cell, value, schema, at);
      // An annotation an actor ignores changes nothing; one it refuses still fails the request.
      // An identifier (`$id`, `$anchor`) is inert too, but ignoring it may leave a `$ref`
      // unresolved, so it is reported, as the client's projection warns about it.
      const meaning = keywordOf(keyword);
      if (outcome === "I" && meaning?.inert && !meaning.identifier) continue;
      if (outcome !== undefined)
        issues.push({
          outcome,
          pointer: where,
          keyword,
          reason: describe(cell, outcome, keyword),
          source: cell.source,
          ...(cell.hint === undefined ? {} : { hint: cell.hint }),
        });
    }
  }
  for (const requirement of profile.requires ?? []) {
    for (const issue of requirementIssues(requirement, nodes, document)) issues.push(issue);
  }
  for (const issue of limitIssues(profile, nodes)) issues.push(issue);
  return issues;
}
