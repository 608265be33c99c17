/**
 * What an actor does at one place of a form: the result of judging a form for a profile.
 *
 * @module
 */

/** What an actor does at one place of the form. */
export interface ActorIssue {
  readonly outcome: "R" | "I" | "X";
  /** JSON Pointer into the form file. */
  readonly pointer: string;
  readonly keyword?: string;
  readonly reason: string;
  /** The source key in the profile (its URL and version are in `profile.sources`). */
  readonly source: string;
  /** The profile's hint: which way to go, and what the alternative costs. */
  readonly hint?: string;
}

export type Node = Readonly<Record<string, unknown>>;

/** Is `value` a schema object? */
export const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);
