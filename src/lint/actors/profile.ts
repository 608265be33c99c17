/**
 * The shape of an actor profile (one JSON file per actor in this folder, validated by
 * `actor-profile.schema.json`): per keyword a cell, per form-wide requirement a named check,
 * per budget a number, each citing a source and the version it was read from.
 *
 * @module
 */

/**
 * S supported and enforced; I accepted but ignored (the actor may produce values the address
 * rejects); R the request is rejected; L limited (the condition given holds, else `otherwise`);
 * X accepted but the output is wrong (worse than I). The vocabulary of ACTORS.md.
 */
export type Cell = "S" | "I" | "R" | "L" | "X";

/** Where a fact was read: a URL, the version or date of what was read, and the kind of evidence. */
export interface Source {
  readonly url: string;
  readonly version: string;
  readonly evidence: "doc" | "src" | "err" | "2nd" | "measured";
}

/**
 * Which way to go when the form's advice (S2, the rules of `gpt-address lint`) and an actor
 * disagree: the alternative and what it costs. Every finding the cell, requirement or limit
 * gives carries it.
 */
export type Hint = string;

/** What an actor does with one keyword. */
export interface KeywordCell {
  readonly cell: Cell;
  /** A key of the profile's `sources`. */
  readonly source: string;
  readonly note?: string;
  /** L: the keyword's numeric value must be at most this. */
  readonly max?: number;
  /** L: the keyword's value must be one of these. */
  readonly values?: ReadonlyArray<unknown>;
  /** L: the node's `type` must be one of these. */
  readonly types?: ReadonlyArray<string>;
  /** L: none of these sibling keywords may be present. */
  readonly without?: ReadonlyArray<string>;
  /** L: not on the root schema. */
  readonly notAtRoot?: boolean;
  /** L: the outcome when the condition fails. */
  readonly otherwise?: "I" | "R" | "X";
  /** Which way to go when the form's advice and this actor disagree (see {@link Hint}). */
  readonly hint?: Hint;
}

/** Form-wide requirements, each a named check the linter implements. */
export type RequirementName =
  | "closed-objects"
  | "all-required"
  | "root-object"
  | "type-on-every-node"
  | "ref-alone"
  | "no-recursion"
  | "anchored-patterns"
  | "no-lookaround"
  | "no-backreference"
  | "primitive-type-arrays"
  | "no-union-with-properties"
  | "one-string-constraint";

export interface Requirement {
  readonly check: RequirementName;
  /** What happens when the form breaks it (R by default). */
  readonly outcome?: "R" | "I" | "X";
  readonly source: string;
  readonly note?: string;
  readonly hint?: Hint;
}

/** Budgets counted over the whole form. */
export type LimitName =
  | "properties"
  | "nesting"
  | "enumValues"
  | "characters"
  | "optionalProperties"
  | "unions"
  | "sumMaxItems"
  | "repetition"
  | "depth"
  | "nodes";

export interface Limit {
  readonly max: number;
  readonly source: string;
  /** What happens above the budget (R by default; llama.cpp's newest code turns some into I). */
  readonly outcome?: "R" | "I" | "X";
  readonly note?: string;
  readonly hint?: Hint;
}

/** One actor. */
export interface ActorProfile {
  readonly id: string;
  readonly name: string;
  /** The API surface the profile describes (`response_format` json_schema, strict). */
  readonly surface: string;
  /** When the sources were read (YYYY-MM). */
  readonly read: string;
  /** A profile this one starts from: its cells, requirements and limits apply unless overridden. */
  readonly extends?: string;
  readonly sources: Readonly<Record<string, Source>>;
  /** The cell of every keyword the profile does not list. */
  readonly unlisted?: KeywordCell;
  readonly keywords?: Readonly<Record<string, KeywordCell>>;
  readonly formats?: KeywordCell & { readonly values: ReadonlyArray<string> };
  readonly requires?: ReadonlyArray<Requirement>;
  readonly limits?: Readonly<Partial<Record<LimitName, Limit>>>;
}
