/**
 * The shape of one vocabulary entry: the keyword, the instance type it constrains, the check
 * of its own value, the subschemas it holds, and its emitter.
 *
 * @module
 */
import type { Body } from "./body.ts";
import type { FormDocument } from "./document.ts";
import type { Code } from "./safe-format.ts";

/** The JSON type a keyword constrains; `"any"` when it applies to every instance. */
export type InstanceType = "any" | "string" | "number" | "object" | "array";

/** Names of the runtime helpers the compiler may emit into a module. */
export type HelperName =
  | "hasOwn"
  | "codePointLength"
  | "equal"
  | "unique"
  | "multipleOf"
  | "checkMembers"
  | "hasMembers";

/** What an emitter may use: the node, its own value and location, and the module's services. */
export interface KeywordContext {
  /** The schema object the keyword belongs to. */
  readonly node: Readonly<Record<string, unknown>>;
  /** The keyword's own value (already checked). */
  readonly value: unknown;
  /** JSON Pointer of the keyword. */
  readonly at: string;
  /** JSON Pointer of the schema object. */
  readonly pointer: string;
  /** The expression holding the instance. */
  readonly data: Code;
  /** Where to append statements. */
  readonly body: Body;
  /** Members of this node's instance known present, each already read into a local. */
  readonly members: Map<string, Code>;
  readonly compiler: Compiler;
}

/** Services of the module under construction, shared by every emitter. */
export interface Compiler {
  readonly document: FormDocument;
  /** Compiles the schema at `pointer` into `body`; a failure returns from the function. */
  inline(pointer: string, data: Code, body: Body): void;
  /** Applies the `$ref` target at `pointer`: inlined when referenced once, else a call. */
  reference(pointer: string, data: Code, body: Body): void;
  /** A boolean expression: does `data` satisfy the schema at `pointer`? */
  test(pointer: string, data: Code): Code;
  /** The statement that fails validation at `at`. */
  fail(at: string): Code;
  /** The statement that fails without naming a keyword: a check it called has named one. */
  leave(): Code;
  /**
   * A module-scope `Map` from each member name to the function (compiled once, as a `$ref`
   * target is) of the schema at `checkedAt`, which checks the member's value; a lookup cache
   * for it; and a `Map` from each name whose `checkedAt` is not its own `pointer` to
   * `[checkedAt.length, pointer]`, by which a failure's pointer is moved to the member's: the
   * arguments of the `checkMembers` helper after the object. `checkedAt` is `pointer`, or that
   * of a schema of equal JSON that refers to no location (its code differs only in the
   * pointers it names, each starting with `checkedAt`).
   */
  memberChecks(schemas: ReadonlyArray<readonly [name: string, pointer: string, checkedAt: string]>): Code;
  /** A module-scope RegExp (`u` flag) for `source`. */
  regex(source: string): Code;
  /** A module-scope constant holding a JSON value, or a `Set` of an array's members. */
  constant(value: unknown, as?: "Set"): Code;
  /** The name of a runtime helper, emitted into the module on first use. */
  helper(name: HelperName): Code;
  /**
   * A boolean expression: is the member `name` of the object `data`, already read as not
   * `undefined`, its own? `hasOwn` in `validate`; in `validateParsed`, while `Object.prototype`
   * has no property of that name (asked there and then, `name in Object.prototype`), the read
   * itself has said so and the expression is `true` without a call.
   */
  own(data: Code, name: string): Code;
  /** The name of a format check, emitted into the module on first use. */
  format(name: string): Code;
  /**
   * The variable in which the result of the schema at `pointer` on `data` is recorded for the
   * `unevaluated*` check of an enclosing node (src/compile/evaluated.ts), or undefined when no
   * check reads it: for an `anyOf`/`oneOf` branch or an `if`, whether it validated; for a
   * `contains`, its matches (a `Uint8Array`, 1 at each item it validated). The keyword that
   * computes the result sets it ({@link record}); it is declared before the node's code.
   */
  recorded(pointer: string, data: Code): Code | undefined;
  /**
   * Emits the schema at `pointer` as a block that sets its {@link recorded} variable to whether
   * `data` is valid (a failure inside leaves the block), and returns the variable.
   */
  record(pointer: string, data: Code, body: Body): Code;
}

/** One keyword of the closed vocabulary. */
export interface Keyword {
  readonly name: string;
  readonly instance: InstanceType;
  /** @throws {FormError} when the keyword's own value is malformed. */
  check(value: unknown, at: string): void;
  /** The subschemas the value holds, each with its pointer tokens relative to the keyword. */
  subschemas?(value: unknown): Array<[ReadonlyArray<string | number>, unknown]>;
  /** Appends the keyword's checks; absent for annotations and for companions of another keyword. */
  emit?(context: KeywordContext): void;
  /**
   * Where the subschemas apply: `"in-place"` to the same instance location (`allOf`, `not`,
   * `if`), `"child"` to members or items of the instance (`properties`, `items`); absent for
   * keywords whose subschemas are only reached by `$ref` (`$defs`).
   */
  readonly applies?: "in-place" | "child";
  /** Set on annotations and identifiers: the keyword constrains nothing by itself. */
  readonly inert?: true;
  /**
   * Set on extension keywords (`x-…`, editors' annotations: keywords/extensions.ts): inert, and
   * no JSON Schema vocabulary, so an actor may ignore or misread them. Read by the linter.
   */
  readonly extension?: true;
  /**
   * Set on the identifiers a `$ref` resolves through (`$id`: the base URI; `$anchor`: a
   * plain-name fragment), both indexed by the document walk: inert, yet an actor that ignores
   * one may leave a `$ref` unresolved (JSON Schema 2020-12 Core §8.2.1, §8.2.2).
   */
  readonly identifier?: true;
  /**
   * Set when a validator or actor that omits the keyword would accept more than the form says
   * (draft "Vocabulary", DESIGN.md F2): the reason, in words. Read by the form linter.
   */
  readonly widening?: string;
  /**
   * For every measure of src/compile/admitted-bound.ts (`admittedDepth`, `admittedStringLength`,
   * `admittedMembers`, `admittedItems`, `admittedBytes`) alike: an
   * upper bound on the measure of any instance the keyword admits, from the bounds of its
   * subschemas only, so that one rule serves every measure (`allOf` the least of its
   * branches, `anyOf` the greatest, `$ref` its target's, `if` the looser of its two cases).
   * The node's bound is the least of these, of the measure's hooks and of its structure's.
   */
  bound?(context: BoundContext): number;
  /**
   * For `admittedDepth`: an upper bound on the container depth (a scalar is 0, `[]` is 1) of
   * any instance the keyword admits by its own value (`const`, `enum`).
   */
  depth?(context: BoundContext): number;
  /**
   * For `admittedStringLength`: an upper bound, in UTF-16 code units, on the strings the
   * keyword admits by its own value; what it bounds follows {@link instance}: for `"any"`
   * every string value and member name in the instance (`const`, `enum`), for `"string"` the
   * string instance (`maxLength`), for `"object"` the instance's member names (`propertyNames`).
   */
  stringLength?(context: BoundContext): number;
  /**
   * For `admittedBytes`: an upper bound, in bytes, on the JSON text of what the keyword bounds
   * by its own value, following {@link instance} as for {@link stringLength}: for `"string"`
   * the string instance with its quotes (`maxLength`), for `"object"` each member name with
   * its quotes (`propertyNames`). Whitespace is the measure's (src/compile/admitted-bytes.ts).
   */
  bytes?(context: BoundContext): number;
  /**
   * For the measures that read values (`admittedMembers`, `admittedItems`, `admittedBytes`):
   * every instance the keyword admits, when it lists them (`const`: its value; `enum`: its
   * members). The bound is then the greatest measure among them.
   */
  listed?(value: unknown): readonly unknown[];
}

/**
 * What a keyword's `bound`, `depth`, `stringLength` and `bytes` may read: its node, its value, and the
 * bound of any subschema. Bounds are −∞ when nothing is valid and +∞ when unbounded.
 */
export interface BoundContext {
  readonly node: Readonly<Record<string, unknown>>;
  readonly value: unknown;
  /** The bound, by the measure at hand, of the subschema at these tokens below the node (`of("anyOf", 1)`). */
  of(...tokens: Array<string | number>): number;
  /** The bound, by the measure at hand, of the node's `$ref` target. */
  target(): number;
  /**
   * The length, in UTF-16 code units, of the longest string instance (the instance itself, not
   * a member of it) the subschema at these tokens admits; −∞ when it admits no string.
   */
  stringOf(...tokens: Array<string | number>): number;
}
