/**
 * Reads an actor profile of the form linter (one JSON file per actor: a cell per keyword with
 * its source, form-wide requirements, budgets) as the projection's {@link ActorProfile}. The
 * cells carry over unchanged; the exact rewrites the client may make follow from them:
 *
 * - `anyOf` mishandled or refused (`X`/`R`) while `oneOf` is enforced → `anyOf` sent as `oneOf`
 *   (node-llama-cpp, whose `oneOf` is a plain alternation);
 * - `oneOf` refused while `anyOf` is taken → `oneOf` sent as `anyOf` (a widening);
 * - `const` not enforced while `enum` is → a one-value `enum`;
 * - `minimum`/`maximum` not enforced while `enum` is → a small integer range as an `enum`;
 * - every property required by rule (`all-required`: OpenAI strict) → optional properties as
 *   required and nullable, `null` read back as absent;
 * - `required` ignored (the actor sends every property anyway) → optional properties as a union
 *   of closed variants;
 * - a refused form-wide requirement the client can meet by dropping (one string constraint, no
 *   lookaround or backreference, a `$ref` alone) → that keyword dropped;
 * - the `repetition` budget → a limit on the four length and item bounds.
 *
 * @module
 */
import type { ActorProfile, Cell, Limited } from "./projection.ts";

/** The part of a linter profile this reads (`src/lint/actors/profile.ts`). */
export interface LintProfileLike {
  readonly id: string;
  readonly read?: string;
  readonly surface?: string;
  readonly unlisted?: { readonly cell: Cell };
  readonly keywords?: Readonly<
    Record<
      string,
      {
        readonly cell: Cell;
        readonly max?: number;
        readonly values?: ReadonlyArray<unknown>;
        readonly types?: ReadonlyArray<string>;
        readonly without?: ReadonlyArray<string>;
        readonly notAtRoot?: boolean;
        readonly otherwise?: "I" | "R" | "X";
      }
    >
  >;
  readonly formats?: { readonly cell: Cell; readonly values: ReadonlyArray<string> };
  readonly requires?: ReadonlyArray<{ readonly check: string; readonly outcome?: string }>;
  readonly limits?: Readonly<Record<string, { readonly max: number; readonly outcome?: string } | undefined>>;
}

const BOUNDS = ["minLength", "maxLength", "minItems", "maxItems"];
const taken = (cell: Cell | undefined) => cell === "S" || cell === "L";

/** The projection's profile for the actor named `actor` (the command line's name) from `profile`. */
export function fromLintProfile(actor: string, profile: LintProfileLike): ActorProfile {
  const unlisted = profile.unlisted?.cell ?? "I";
  const keywords: Record<string, Cell> = {};
  const limited: Record<string, Limited> = {};
  for (const [keyword, entry] of Object.entries(profile.keywords ?? {})) {
    keywords[keyword] = entry.cell;
    if (entry.cell === "L") {
      limited[keyword] = {
        ...(entry.max !== undefined ? { max: entry.max } : {}),
        ...(entry.values !== undefined ? { values: entry.values } : {}),
        ...(entry.types !== undefined ? { types: entry.types } : {}),
        ...(entry.without !== undefined ? { without: entry.without } : {}),
        ...(entry.notAtRoot ? { notAtRoot: true } : {}),
        otherwise: entry.otherwise ?? "R",
      };
    }
  }
  const repetition = profile.limits?.repetition?.max;
  if (repetition !== undefined) {
    for (const bound of BOUNDS) {
      const cell = keywords[bound] ?? unlisted;
      if (cell === "S") {
        keywords[bound] = "L";
        limited[bound] = { max: repetition, otherwise: "R" };
      } else if (cell === "L" && limited[bound] && limited[bound].max === undefined) {
        limited[bound] = { ...limited[bound], max: repetition, above: "R" };
      }
    }
  }
  if (profile.formats !== undefined) keywords.format = profile.formats.cell === "S" ? "S" : "L";
  const cell = (keyword: string): Cell => keywords[keyword] ?? unlisted;
  const requires = new Set((profile.requires ?? []).map((r) => r.check));
  /** Requirements whose breach makes the actor refuse the form or mishandle it. */
  const refused = new Set(
    (profile.requires ?? []).filter((r) => r.outcome === undefined || r.outcome !== "I").map((r) => r.check),
  );
  const allRequired = requires.has("all-required") || cell("required") === "I";
  const union = cell("anyOf") === "S" || cell("anyOf") === "L" ? "anyOf" : "oneOf";
  return {
    actor,
    source: `src/lint/actors/${profile.id}.json${profile.read ? ` (read ${profile.read})` : ""}`,
    unlisted,
    keywords,
    ...(profile.formats !== undefined ? { formats: [...profile.formats.values] } : {}),
    limited,
    anchoredPatterns: requires.has("anchored-patterns"),
    requires: {
      closedObjects: requires.has("closed-objects"),
      objectRoot: requires.has("root-object"),
      typeEverywhere: requires.has("type-on-every-node"),
      oneStringConstraint: refused.has("one-string-constraint"),
      noLookaround: refused.has("no-lookaround"),
      noBackreference: refused.has("no-backreference"),
      refAlone: refused.has("ref-alone"),
    },
    rewrites: {
      ...((cell("anyOf") === "X" || cell("anyOf") === "R") && cell("oneOf") === "S" ? { anyOf: "oneOf" as const } : {}),
      ...(cell("oneOf") === "R" && taken(cell("anyOf")) ? { oneOf: "anyOf" as const } : {}),
      ...(!taken(cell("const")) && cell("enum") === "S" ? { const: "enum" as const } : {}),
      ...(cell("minimum") === "I" && cell("enum") === "S" ? { integerRange: 64 } : {}),
      ...(requires.has("all-required")
        ? { optionalProperties: "nullable" as const }
        : allRequired && (taken(cell(union)) || union === "oneOf")
          ? { optionalProperties: union, maxOptional: 4 }
          : {}),
    },
  };
}
