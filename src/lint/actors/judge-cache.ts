/**
 * The actor issues of a form, judged once per profile and shared by the two actor rules.
 *
 * @module
 */
import type { FormDocument } from "../../compile/document.ts";
import type { SchemaNode } from "../schema-nodes.ts";
import { type ActorIssue, judge } from "./judge.ts";
import type { ActorProfile } from "./profile.ts";

const cache = new WeakMap<FormDocument, Map<string, ActorIssue[]>>();

/** `judge(profile, …)`, memoised per form document and profile id. */
export function actorIssues(profile: ActorProfile, nodes: ReadonlyArray<SchemaNode>, document: FormDocument) {
  let byActor = cache.get(document);
  if (byActor === undefined) {
    byActor = new Map();
    cache.set(document, byActor);
  }
  let issues = byActor.get(profile.id);
  if (issues === undefined) {
    issues = judge(profile, nodes, document);
    byActor.set(profile.id, issues);
  }
  return issues;
}
