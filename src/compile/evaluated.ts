/**
 * What `unevaluatedProperties` and `unevaluatedItems` see (JSON Schema 2020-12 Core §11): the
 * member names and item indices that the node's other keywords, and every subschema applied in
 * place to the same instance (`$ref`, `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`,
 * `dependentSchemas`; never `not`, whose annotations are dropped), evaluated.
 *
 * The answer is an {@link Evaluation}: a static part, known at build time (the node is valid
 * only if `allOf`, `$ref` and its own keywords are, so their annotations always count), and
 * branches whose annotations count only when a condition holds at validation time: an `anyOf`
 * or `oneOf` branch validated, `if` did (its own and `then`'s annotations) or did not
 * (`else`'s), a `dependentSchemas` name is present. The generated code records each such
 * result where it is computed anyway (src/compile/compiler.ts, `recorded`), so no subschema is
 * validated twice: a check that re-validated its branches would double the work at each level
 * of a recursive form.
 *
 * @module
 */
import { isJsonObject } from "../json/is-json-object.ts";
import type { FormDocument } from "./document.ts";
import { FormError } from "./form-error.ts";
import { childPointer } from "./pointer.ts";

/** Which annotations: member names (`unevaluatedProperties`) or item indices (`unevaluatedItems`). */
export type EvaluatedKind = "properties" | "items";

/** When a branch's annotations count. */
export type Condition =
  /** The schema at `pointer` (an `anyOf`/`oneOf` branch, or an `if`) validated the instance. */
  | { readonly kind: "valid"; readonly pointer: string }
  /** The `if` at `pointer` did not validate the instance (`else` applies). */
  | { readonly kind: "invalid"; readonly pointer: string }
  /** The object has the member `name` (`dependentSchemas`). */
  | { readonly kind: "present"; readonly name: string };

/** The names or indices evaluated in place at one instance location. */
export interface Evaluation {
  /** Every member or item is evaluated (`additionalProperties`, `items`, a nested `unevaluated*`). */
  all: boolean;
  /** Names of `properties`: a member of one of these names is evaluated. */
  readonly names: Set<string>;
  /** Sources of `patternProperties` regexes: a member whose name matches one is evaluated. */
  readonly patterns: Set<string>;
  /** The items below this index are evaluated (the longest `prefixItems`). */
  prefix: number;
  /** Pointers of `contains` schemas: an item that one of them validated is evaluated. */
  readonly contains: string[];
  /** Annotations that count only under a condition. */
  readonly branches: Array<{ readonly condition: Condition; readonly evaluation: Evaluation }>;
}

/** An {@link Evaluation} with what the generated code must record to decide it. */
export interface EvaluationPlan {
  readonly evaluation: Evaluation;
  /** Pointers of the branches and `if`s whose result the check reads. */
  readonly results: ReadonlySet<string>;
  /** Pointers of the `contains` whose matching items the check reads. */
  readonly matches: ReadonlySet<string>;
  /**
   * Schema locations on the way from the node to something recorded: a `$ref` to one of them is
   * inlined (its code is in the node's function, where the record is), not called.
   */
  readonly carriers: ReadonlySet<string>;
}

/** More schema locations than this behind one `unevaluated*` keyword are refused (V4: exact or nothing). */
export const EVALUATION_LIMIT = 10_000;

function empty(): Evaluation {
  return { all: false, names: new Set(), patterns: new Set(), prefix: 0, contains: [], branches: [] };
}

/** Does the evaluation evaluate nothing at all? */
export function isEmpty(evaluation: Evaluation): boolean {
  return (
    !evaluation.all &&
    evaluation.names.size === 0 &&
    evaluation.patterns.size === 0 &&
    evaluation.prefix === 0 &&
    evaluation.contains.length === 0 &&
    evaluation.branches.length === 0
  );
}

const plans = new WeakMap<FormDocument, Map<string, EvaluationPlan>>();

/**
 * What the `unevaluatedProperties` (`kind` `"properties"`) or `unevaluatedItems` (`"items"`)
 * of the schema at `pointer` sees, memoised per document.
 *
 * @throws {FormError} when more than {@link EVALUATION_LIMIT} schema locations lie behind it.
 */
export function evaluationPlan(document: FormDocument, pointer: string, kind: EvaluatedKind): EvaluationPlan {
  let known = plans.get(document);
  if (known === undefined) {
    known = new Map();
    plans.set(document, known);
  }
  const key = `${kind} ${pointer}`;
  let plan = known.get(key);
  if (plan === undefined) {
    plan = new Planner(document, kind, pointer).plan();
    known.set(key, plan);
  }
  return plan;
}

class Planner {
  readonly #document: FormDocument;
  readonly #kind: EvaluatedKind;
  readonly #root: string;
  readonly #results = new Set<string>();
  readonly #matches = new Set<string>();
  readonly #carriers = new Set<string>();
  readonly #path: string[] = [];
  #size = 0;

  constructor(document: FormDocument, kind: EvaluatedKind, root: string) {
    this.#document = document;
    this.#kind = kind;
    this.#root = root;
  }

  plan(): EvaluationPlan {
    const evaluation = empty();
    this.#collect(this.#root, evaluation);
    return { evaluation, results: this.#results, matches: this.#matches, carriers: this.#carriers };
  }

  /** Marks everything on the current path as leading to a record. */
  #lead(): void {
    for (const pointer of this.#path) this.#carriers.add(pointer);
  }

  /** A branch's own evaluation, recorded under `condition` when it evaluates anything. */
  #branch(into: Evaluation, condition: Condition, ...pointers: string[]): void {
    const evaluation = empty();
    for (const pointer of pointers) this.#collect(pointer, evaluation);
    if (isEmpty(evaluation)) return;
    if (condition.kind !== "present") {
      this.#results.add(condition.pointer);
      this.#lead();
    }
    into.branches.push({ condition, evaluation });
  }

  /** Adds the annotations of the schema at `pointer`, when it is valid, to `into` (in place). */
  #collect(pointer: string, into: Evaluation): void {
    const node = this.#document.node(pointer);
    if (!isJsonObject(node) || into.all) return;
    if (++this.#size > EVALUATION_LIMIT) {
      const keyword = this.#kind === "properties" ? "unevaluatedProperties" : "unevaluatedItems";
      throw new FormError(
        "refused-keyword",
        childPointer(this.#root, keyword),
        keyword,
        `the annotations it depends on lie behind more than ${EVALUATION_LIMIT} schema locations`,
      );
    }
    this.#path.push(pointer);
    try {
      if (this.#kind === "properties") {
        if (
          Object.hasOwn(node, "additionalProperties") ||
          (pointer !== this.#root && Object.hasOwn(node, "unevaluatedProperties"))
        ) {
          into.all = true;
          return;
        }
        for (const name of Object.keys((node.properties ?? {}) as object)) into.names.add(name);
        for (const source of Object.keys((node.patternProperties ?? {}) as object)) into.patterns.add(source);
      } else {
        if (Object.hasOwn(node, "items") || (pointer !== this.#root && Object.hasOwn(node, "unevaluatedItems"))) {
          into.all = true;
          return;
        }
        if (Array.isArray(node.prefixItems)) into.prefix = Math.max(into.prefix, node.prefixItems.length);
        // `contains: true` validates every item of an array it applies to.
        if (node.contains === true) {
          into.all = true;
          return;
        }
        if (Object.hasOwn(node, "contains") && node.contains !== false) {
          const contains = childPointer(pointer, "contains");
          into.contains.push(contains);
          this.#matches.add(contains);
          this.#lead();
        }
      }
      if (Object.hasOwn(node, "$ref")) this.#collect(this.#document.refTarget(pointer), into);
      ((node.allOf ?? []) as unknown[]).forEach((_, index) => {
        this.#collect(childPointer(pointer, "allOf", index), into);
      });
      for (const name of ["anyOf", "oneOf"]) {
        ((node[name] ?? []) as unknown[]).forEach((_, index) => {
          const branch = childPointer(pointer, name, index);
          this.#branch(into, { kind: "valid", pointer: branch }, branch);
        });
      }
      if (Object.hasOwn(node, "if")) {
        const test = childPointer(pointer, "if");
        const then = Object.hasOwn(node, "then") ? [childPointer(pointer, "then")] : [];
        this.#branch(into, { kind: "valid", pointer: test }, test, ...then);
        if (Object.hasOwn(node, "else"))
          this.#branch(into, { kind: "invalid", pointer: test }, childPointer(pointer, "else"));
      }
      if (this.#kind === "properties") {
        for (const name of Object.keys((node.dependentSchemas ?? {}) as object)) {
          this.#branch(into, { kind: "present", name }, childPointer(pointer, "dependentSchemas", name));
        }
      }
    } finally {
      this.#path.pop();
    }
  }
}

/**
 * Every schema location whose annotations may reach the `unevaluated*` keywords of the schema
 * at `pointer`: itself and what is applied in place from it (`$ref`, `allOf`, `anyOf`,
 * `oneOf`, `if`, `then`, `else`, `dependentSchemas`; not `not`), whatever the conditions.
 * For the admitted bounds (src/compile/admitted-bound.ts), which take the union.
 */
export function annotationClosure(document: FormDocument, pointer: string): string[] {
  const seen = new Set<string>();
  const pending = [pointer];
  for (let at = pending.pop(); at !== undefined; at = pending.pop()) {
    if (seen.has(at)) continue;
    seen.add(at);
    const node = document.node(at);
    if (!isJsonObject(node)) continue;
    if (Object.hasOwn(node, "$ref")) pending.push(document.refTarget(at));
    for (const name of ["allOf", "anyOf", "oneOf"])
      ((node[name] ?? []) as unknown[]).forEach((_, index) => {
        pending.push(childPointer(at, name, index));
      });
    if (Object.hasOwn(node, "if"))
      for (const name of ["if", "then", "else"]) if (Object.hasOwn(node, name)) pending.push(childPointer(at, name));
    for (const name of Object.keys((node.dependentSchemas ?? {}) as object))
      pending.push(childPointer(at, "dependentSchemas", name));
  }
  return [...seen];
}
