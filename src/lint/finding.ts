/**
 * What the form linter reports: one finding per rule, place and (for actor rules) actor.
 *
 * @module
 */

/** How much a finding matters: errors fail `npm run build` and exit 1; warnings print. */
export type Severity = "error" | "warning";

/** A mechanical repair: replace the member at `pointer` (a JSON Pointer into the form file). */
export interface Fix {
  readonly pointer: string;
  /** The keyword name the member at `pointer` should be renamed to. */
  readonly rename?: string;
  /** The value to put at `pointer`. */
  readonly value?: unknown;
}

/** One finding: a rule, the message id and text, the JSON Pointer into the form file. */
export interface Finding {
  /** The stable rule id (`use-max-length`). */
  readonly rule: string;
  /** The id of the rule's message (a key of the rule's `meta.messages`). */
  readonly messageId: string;
  /** JSON Pointer into the form file, e.g. `/s/properties/title`. */
  readonly pointer: string;
  readonly severity: Severity;
  /** The actor profile id, for findings about one actor. */
  readonly actor?: string;
  /** The message with its placeholders filled in. */
  readonly message: string;
  /** For an actor finding where the form's advice and the actor disagree: which way to go (from the actor's profile). */
  readonly hint?: string;
  readonly fix?: Fix;
}

/** Sorts findings by pointer, then rule, then actor (a stable, readable order). */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    a.pointer.localeCompare(b.pointer) ||
    a.rule.localeCompare(b.rule) ||
    (a.actor ?? "").localeCompare(b.actor ?? "") ||
    a.message.localeCompare(b.message)
  );
}
