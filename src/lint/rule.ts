/**
 * The shape of a lint rule: `meta` (a stable id, severity, the section it implements, messages
 * keyed by id, and docs whose examples are its tests) beside one `check` function.
 *
 * @module
 */
import type { FormDocument } from "../compile/document.ts";
import type { ActorProfile } from "./actors/profile.ts";
import type { Fix, Severity } from "./finding.ts";
import type { SchemaNode } from "./schema-nodes.ts";

/** An arrival document as the linter sees it: `p`, `m`, `s` and any other member. */
export type FormFile = Readonly<Record<string, unknown>>;

/**
 * One documented example: `text`, `schema` (wrapped into an arrival document with a `p` that says how
 * to act) or a whole `document`. An invalid example gives exactly one finding, at `pointer`
 * when given; a valid one gives none.
 */
export interface RuleExample {
  /** The raw text of a form file (for findings about the bytes themselves). */
  readonly text?: string;
  readonly schema?: unknown;
  readonly document?: FormFile;
  readonly pointer?: string;
  /** For actor rules: the profile id the example is linted against. */
  readonly actor?: string;
}

/** A rule's metadata. The id outlives the file; it is never reused. */
export interface RuleMeta<M extends string = string> {
  /** Kebab case, Biome's no-/use- vocabulary; equal to the file name. */
  readonly id: string;
  readonly severity: Severity;
  /** The requirement id (DESIGN.md) and the draft or spec section the rule implements. */
  readonly requirement: string;
  readonly section: string;
  /** One sentence: what the rule reports. */
  readonly description: string;
  /** Message templates by id; `{name}` placeholders are filled from the report's data. */
  readonly messages: Readonly<Record<M, string>>;
  readonly docs: { readonly invalid: ReadonlyArray<RuleExample>; readonly valid: ReadonlyArray<RuleExample> };
  /** Set on rules that report per actor profile; they run with `--actors` only. */
  readonly actors?: true;
  /** Set on a rule that the engine itself reports (no `check`). */
  readonly engine?: true;
}

/** What a rule's check reports. */
export interface Report<M extends string = string> {
  readonly messageId: M;
  /** JSON Pointer into the form file. */
  readonly pointer: string;
  readonly data?: Readonly<Record<string, string | number>>;
  readonly actor?: string;
  /** Which way to go (actor findings: the profile's hint). */
  readonly hint?: string;
  readonly fix?: Fix;
}

/** What a rule's check may read, and its one way out. */
export interface RuleContext<M extends string = string> {
  readonly file: FormFile;
  /** The form `s`. */
  readonly schema: unknown;
  /** The compiler's indexed document of `s` (resolved `$ref`s). */
  readonly document: FormDocument;
  readonly nodes: ReadonlyArray<SchemaNode>;
  /** The actor profiles to judge the form for (empty unless `--actors`). */
  readonly actors: ReadonlyArray<ActorProfile>;
  report(report: Report<M>): void;
}

/** A rule: metadata and a check (absent for engine-reported rules). */
export interface Rule<M extends string = string> {
  readonly meta: RuleMeta<M>;
  check?(context: RuleContext<M>): void | Promise<void>;
}

/** Declares a rule with its message ids typed. */
export function defineRule<M extends string>(rule: Rule<M>): Rule<M> {
  return rule;
}
