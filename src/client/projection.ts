/**
 * Per-actor projection of a form: the form as one actor's constrained decoder can take it.
 * A projection only ever relaxes (drops or widens what the actor cannot take) or rewrites into
 * an equivalent the actor does take; it never narrows, and it says what it did, as warnings.
 * The value the actor produces is still checked against the full form before it is sent.
 *
 * The knowledge of which actor takes which keyword is data ({@link ActorProfile}, one per
 * actor, `profiles.ts`); this module only applies it. Profiles from the form linter can feed
 * it unchanged: a cell per keyword, in ACTORS.md's vocabulary.
 *
 * @see ../../docs/client.md ("Projection")
 * @module
 */
import { keywordOf, vocabulary } from "../compile/vocabulary.ts";
import { regexShape } from "../lint/regex-shape.ts";
import type { ClientWarning } from "./model.ts";

/**
 * What an actor does with a keyword (ACTORS.md): `S` enforced, `I` accepted and ignored, `R`
 * refused with an error, `L` limited (the profile's limits say how), `X` accepted and then
 * wrong output.
 */
export type Cell = "S" | "I" | "R" | "L" | "X";

/**
 * When an `L` (limited) keyword is taken: every condition given must hold, else `otherwise`
 * applies (`I`: sent and reported as ignored; `R`/`X`: dropped, or for a lower bound widened
 * to the largest value taken).
 */
export interface Limited {
  /** The keyword's numeric value is at most this. */
  readonly max?: number;
  /** The keyword's value is one of these. */
  readonly values?: readonly unknown[];
  /** The node's `type` is one of these. */
  readonly types?: readonly string[];
  /** None of these sibling keywords is present. */
  readonly without?: readonly string[];
  /** Not on the root schema. */
  readonly notAtRoot?: boolean;
  readonly otherwise: "I" | "R" | "X";
  /** What applies when only `max` fails, if not `otherwise` (a budget refused outright). */
  readonly above?: "I" | "R" | "X";
}

/** One actor's profile, as the projection reads it. */
export interface ActorProfile {
  /** The actor's name on the command line (`openai`, `node-llama-cpp`…). */
  readonly actor: string;
  /** Keyword → cell. */
  readonly keywords: Readonly<Record<string, Cell>>;
  /** The cell of a keyword the table does not list: `R` for closed allow-lists, `I` otherwise. */
  readonly unlisted: Cell;
  /** Where the profile's cells come from, and when they were read. */
  readonly source: string;
  /** `format` values the actor takes; another value is dropped (when `format` is `L`). */
  readonly formats?: readonly string[];
  /** The condition of each `L` cell (keyword → condition); a keyword without one is kept as is. */
  readonly limited?: Readonly<Record<string, Limited>>;
  /** A `pattern` must be anchored `^…$`, or it is dropped. */
  readonly anchoredPatterns?: boolean;
  /** Structural demands of the actor, reported when the form does not meet them. */
  readonly requires?: {
    /** Every object needs `additionalProperties: false`. */
    readonly closedObjects?: boolean;
    /** The root must be an object, not a union. */
    readonly objectRoot?: boolean;
    /** Every `const`/`enum` node needs a `type` (added from its values, an exact rewrite). */
    readonly typeEverywhere?: boolean;
    /** A string node takes one of `pattern`, `format` and the length bounds (the others are dropped). */
    readonly oneStringConstraint?: boolean;
    /** A `pattern` with lookaround is refused (it is dropped). */
    readonly noLookaround?: boolean;
    /** A `pattern` with a backreference is refused (it is dropped). */
    readonly noBackreference?: boolean;
    /** A `$ref` must stand alone (its other keywords but `$…` ones are dropped). */
    readonly refAlone?: boolean;
  };
  /** Exact rewrites into what the actor takes. */
  readonly rewrites?: {
    /** `anyOf` written as this keyword (node-llama-cpp: `oneOf`, a plain alternation there). */
    readonly anyOf?: "oneOf";
    /** `oneOf` written as `anyOf` (a widening: `anyOf` accepts at least as much). */
    readonly oneOf?: "anyOf";
    /** `const` written as a one-value `enum`. */
    readonly const?: "enum";
    /** An integer range of at most this many values written as an `enum` (for actors that ignore bounds). */
    readonly integerRange?: number;
    /**
     * For actors that require every property: an object's optional properties written as a union
     * of its closed variants, each with every property required (`anyOf`/`oneOf`), or made
     * required and nullable (`nullable`: the actor's `null` is read back as absent where the
     * form does not admit `null`, `absent.ts`).
     */
    readonly optionalProperties?: "anyOf" | "oneOf" | "nullable";
    /** The most optional properties one object may have for {@link optionalProperties} (2^n variants). */
    readonly maxOptional?: number;
  };
}

/** A projected form and what the projection did. */
export interface Projection {
  readonly schema: Record<string, unknown>;
  readonly warnings: readonly ClientWarning[];
}

/**
 * Keywords an actor may ignore at no loss, so that is not reported: those that constrain nothing
 * by themselves (`inert` in their keyword file: the annotations, `$schema`, `$defs`, whose
 * subschemas are projected and reported where they stand), but not the identifiers (`$id`,
 * `$anchor`), which a `$ref` may resolve through.
 */
const QUIET = new Set(vocabulary.filter((keyword) => keyword.inert && !keyword.identifier).map(({ name }) => name));
/** Keywords whose value is a map of names to subschemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
/** Keywords whose value is one subschema. */
const SCHEMA_ONE = new Set([
  "items",
  "additionalProperties",
  "propertyNames",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedProperties",
  "unevaluatedItems",
]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Lower bounds: an `L` cell's failed limit widens them to the largest value taken, instead of dropping them. */
const LOWER_BOUNDS = new Set(["minLength", "minItems", "minProperties", "minContains"]);

/** What applies to `value` of a keyword in `node` under `limit`: `null` when the limit is met. */
function outcomeOf(
  limit: Limited,
  value: unknown,
  node: Record<string, unknown>,
  root: boolean,
): Limited["otherwise"] | null {
  if (limit.max !== undefined && typeof value === "number" && value > limit.max) return limit.above ?? limit.otherwise;
  if (limit.values !== undefined && !limit.values.some((v) => v === value)) return limit.otherwise;
  if (limit.types !== undefined) {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (!types.every((t) => typeof t === "string" && limit.types!.includes(t))) return limit.otherwise;
  }
  if (limit.without?.some((sibling) => sibling in node)) return limit.otherwise;
  if (limit.notAtRoot && root) return limit.otherwise;
  return null;
}

function largest(limit: Limited): number | undefined {
  const numbers = (limit.values ?? []).filter((v): v is number => typeof v === "number");
  if (limit.max !== undefined) numbers.push(limit.max);
  return numbers.length === 0 ? undefined : Math.max(...numbers);
}

function describeLimit(limit: Limited): string {
  const parts: string[] = [];
  if (limit.max !== undefined) parts.push(`up to ${limit.max}`);
  if (limit.values !== undefined) parts.push(`as ${limit.values.map((v) => JSON.stringify(v)).join(" or ")}`);
  if (limit.types !== undefined) parts.push(`on type ${limit.types.join(" or ")}`);
  if (limit.without !== undefined) parts.push(`without ${limit.without.join(" or ")}`);
  if (limit.notAtRoot) parts.push("below the root");
  return parts.join(", ");
}
/**
 * Keywords that identify or reference subschemas: never dropped (a `$ref` would dangle). From
 * the keyword files: the identifiers (`identifier`: `$id`, `$anchor`), the keywords whose
 * subschemas apply nowhere but through a `$ref` (`subschemas` without `applies`: `$defs`), and
 * `$ref` itself.
 */
const STRUCTURAL = new Set(
  vocabulary
    .filter(
      (keyword) =>
        keyword.identifier ||
        (keyword.subschemas !== undefined && keyword.applies === undefined) ||
        keyword.name === "$ref",
    )
    .map(({ name }) => name),
);
/**
 * Keywords whose meaning depends on a sibling: when the sibling is dropped, keeping them would
 * narrow (`items` would then apply from index 0, `additionalProperties` to every member).
 */
const DEPENDENTS: readonly (readonly [string, string])[] = [
  ["prefixItems", "items"],
  ["properties", "additionalProperties"],
  ["patternProperties", "additionalProperties"],
];

const escapePointer = (name: string) => name.replaceAll("~", "~0").replaceAll("/", "~1");
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/**
 * `sub` widened by `null`, in the shape a strict actor takes: `null` added to a `type` (and to
 * an `enum` or `const` beside it), otherwise a union with `{"type": "null"}`.
 */
export function nullable(sub: unknown): unknown {
  if (sub === true) return true;
  if (sub === false || !isObject(sub)) return { type: "null" };
  const { type } = sub;
  const plain = !("anyOf" in sub || "oneOf" in sub || "allOf" in sub || "$ref" in sub || "not" in sub);
  if (plain && (typeof type === "string" || Array.isArray(type))) {
    const types = Array.isArray(type) ? type : [type];
    const out: Json = { ...sub, type: types.includes("null") ? types : [...types, "null"] };
    if ("const" in sub) {
      delete out.const;
      out.enum = [sub.const, null];
    } else if (Array.isArray(sub.enum) && !sub.enum.includes(null)) {
      out.enum = [...sub.enum, null];
    }
    return out;
  }
  return { anyOf: [sub, { type: "null" }] };
}

/**
 * Projects `schema` for the actor of `profile`.
 *
 * @example
 * ```ts
 * const { schema, warnings } = projectForm(arrival.document.s, profiles.openai);
 * for (const w of warnings) console.warn(`${w.pointer} ${w.keyword}: ${w.message}`);
 * ```
 */
export function projectForm(schema: unknown, profile: ActorProfile): Projection {
  const warnings: ClientWarning[] = [];
  /** How many changes so far let the projection accept more than the form (dropped, widened). */
  let widenings = 0;
  const warn = (type: ClientWarning["type"], pointer: string, keyword: string, message: string) => {
    if (type === "dropped" || type === "widened") widenings++;
    warnings.push({
      type,
      pointer: `${pointer}/${escapePointer(keyword)}`,
      keyword,
      message: `${profile.actor}: ${message}`,
    });
  };
  const cell = (keyword: string): Cell => profile.keywords[keyword] ?? profile.unlisted;

  function visit(node: unknown, pointer: string, root: boolean): unknown {
    if (!isObject(node)) return node;
    let out: Json = {};
    let ifWidened = false;
    for (const [keyword, value] of Object.entries(node)) {
      let name = keyword;
      if (keyword === "anyOf" && profile.rewrites?.anyOf === "oneOf") {
        name = "oneOf";
        warn(
          "rewritten",
          pointer,
          keyword,
          "anyOf sent as oneOf (this actor has no anyOf; its oneOf is a plain alternation)",
        );
      } else if (keyword === "oneOf" && profile.rewrites?.oneOf === "anyOf") {
        name = "anyOf";
        warn("widened", pointer, keyword, "oneOf sent as anyOf (this actor refuses oneOf)");
      } else if (keyword === "const" && profile.rewrites?.const === "enum") {
        out.enum = [value];
        warn("rewritten", pointer, keyword, "const sent as a one-value enum");
        continue;
      }
      const c = name === keyword ? cell(keyword) : cell(name);
      if ((c === "R" || c === "X") && STRUCTURAL.has(keyword)) {
        warn("other", pointer, keyword, `refuses ${keyword}; kept, since dropping it would break references`);
      } else if (c === "R" || c === "X") {
        warn("dropped", pointer, keyword, c === "R" ? `refuses ${keyword}; dropped` : `mishandles ${keyword}; dropped`);
        continue;
      }
      if (c === "I" && keywordOf(keyword)?.identifier) {
        warn("ignored", pointer, keyword, `ignores ${keyword}; a $ref through it may not resolve`);
      } else if (c === "I" && !QUIET.has(keyword)) {
        warn("ignored", pointer, keyword, `accepts ${keyword} without enforcing it`);
      }
      if (keyword === "format" && c === "L" && profile.formats && !profile.formats.includes(String(value))) {
        warn("dropped", pointer, keyword, `does not take format ${JSON.stringify(value)}; dropped`);
        continue;
      }
      if (keyword === "pattern" && profile.anchoredPatterns && typeof value === "string") {
        if (!(value.startsWith("^") && value.endsWith("$"))) {
          warn("dropped", pointer, keyword, "takes only patterns anchored ^…$; dropped");
          continue;
        }
      }
      if (keyword === "pattern" && typeof value === "string") {
        const shape = regexShape(value);
        if (
          (shape.lookaround && profile.requires?.noLookaround) ||
          (shape.backreference && profile.requires?.noBackreference)
        ) {
          warn(
            "dropped",
            pointer,
            keyword,
            `refuses a pattern with ${shape.lookaround ? "lookaround" : "a backreference"}; dropped`,
          );
          continue;
        }
      }
      const limit = c === "L" ? profile.limited?.[name] : undefined;
      const outcome = limit === undefined ? null : outcomeOf(limit, value, node, root);
      if (limit !== undefined && outcome !== null) {
        const condition = describeLimit(limit);
        if (outcome === "I") {
          warn("ignored", pointer, keyword, `takes ${keyword} only ${condition}; ignored here`);
        } else {
          const widest = LOWER_BOUNDS.has(keyword) && typeof value === "number" ? largest(limit) : undefined;
          if (widest !== undefined && typeof value === "number" && widest < value) {
            warn("widened", pointer, keyword, `takes ${keyword} only ${condition}; sent ${widest}`);
            out[name] = widest;
          } else {
            warn("dropped", pointer, keyword, `takes ${keyword} only ${condition}; dropped`);
          }
          continue;
        }
      }
      const at = `${pointer}/${escapePointer(keyword)}`;
      if (SCHEMA_MAPS.has(keyword) && isObject(value)) {
        const map: Json = {};
        for (const [key, sub] of Object.entries(value)) map[key] = visit(sub, `${at}/${escapePointer(key)}`, false);
        out[name] = map;
      } else if (SCHEMA_ONE.has(keyword)) {
        const before = widenings;
        const projected = visit(value, at, false);
        // A wider subschema of `not` excludes more, of `if` moves values between its branches.
        if (keyword === "not" && widenings > before) {
          warn("dropped", pointer, keyword, "not dropped: what it excludes was widened (kept, it would narrow)");
          continue;
        }
        if (keyword === "if" && widenings > before) ifWidened = true;
        out[name] = projected;
      } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
        const before = widenings;
        out[name] = value.map((sub, i) => visit(sub, `${at}/${i}`, false));
        // Two widened branches of a oneOf may both match: an alternation then, or nothing.
        if (name === "oneOf" && widenings > before && profile.rewrites?.anyOf !== "oneOf") {
          const branches = out.oneOf;
          delete out.oneOf;
          if ("anyOf" in node)
            warn("dropped", pointer, keyword, "oneOf dropped: a branch was widened (kept, it would narrow)");
          else {
            out.anyOf = branches;
            warn("widened", pointer, keyword, "oneOf sent as anyOf: a branch was widened, so more than one may match");
          }
        }
      } else {
        out[name] = value;
      }
    }
    if (ifWidened) {
      for (const keyword of ["if", "then", "else"]) delete out[keyword];
      warn("dropped", pointer, "if", "if/then/else dropped: its condition was widened (kept, it would narrow)");
    }
    for (const [sibling, dependent] of DEPENDENTS) {
      if (sibling in node && !(sibling in out) && dependent in out) {
        delete out[dependent];
        warn("dropped", pointer, dependent, `${dependent} dropped with ${sibling} (alone it would narrow the form)`);
      }
    }
    out = integerRange(out, pointer);
    out = oneStringConstraint(out, pointer);
    out = refAlone(out, pointer);
    out = addType(out, pointer);
    checkClosed(out, pointer);
    return optionalVariants(out, pointer, root);
  }

  function integerRange(node: Json, pointer: string): Json {
    const limit = profile.rewrites?.integerRange;
    if (limit === undefined || node.type !== "integer" || "enum" in node || "const" in node) return node;
    const low = typeof node.minimum === "number" ? Math.ceil(node.minimum) : undefined;
    const high = typeof node.maximum === "number" ? Math.floor(node.maximum) : undefined;
    if (low === undefined || high === undefined || high < low || high - low + 1 > limit) return node;
    if ("multipleOf" in node || "exclusiveMinimum" in node || "exclusiveMaximum" in node) return node;
    const { minimum: _min, maximum: _max, ...rest } = node;
    warn("rewritten", pointer, "minimum", `ignores integer bounds; ${low}…${high} sent as an enum`);
    return { ...rest, enum: Array.from({ length: high - low + 1 }, (_, i) => low + i) };
  }

  /** The first of `pattern`, `format` and the length bounds kept, the others dropped (a relaxation). */
  function oneStringConstraint(node: Json, pointer: string): Json {
    if (!profile.requires?.oneStringConstraint) return node;
    const kinds = [["pattern"], ["format"], ["minLength", "maxLength"]].filter((names) => names.some((k) => k in node));
    if (kinds.length < 2) return node;
    const out = { ...node };
    for (const names of kinds.slice(1)) {
      for (const name of names) {
        if (!(name in out)) continue;
        delete out[name];
        warn("dropped", pointer, name, `takes one of pattern, format and length bounds on a string; ${name} dropped`);
      }
    }
    return out;
  }

  /** A `$ref`'s siblings dropped, but `$…` keywords (a relaxation: the `$ref` still applies). */
  function refAlone(node: Json, pointer: string): Json {
    if (!profile.requires?.refAlone || !("$ref" in node)) return node;
    const out: Json = {};
    for (const [name, value] of Object.entries(node)) {
      if (name.startsWith("$")) out[name] = value;
      else if (!QUIET.has(name)) warn("dropped", pointer, name, `takes a $ref only alone; ${name} dropped`);
    }
    return out;
  }

  function addType(node: Json, pointer: string): Json {
    if (!profile.requires?.typeEverywhere || "type" in node) return node;
    const values = "const" in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
    if (values === undefined) return node;
    const types = [...new Set(values.map(jsonType))];
    const type = types.length === 2 && types.includes("integer") && types.includes("number") ? ["number"] : types;
    warn(
      "rewritten",
      pointer,
      "type",
      `needs a type on every node; added ${JSON.stringify(type.length === 1 ? type[0] : type)} from the values`,
    );
    return { type: type.length === 1 ? type[0] : type, ...node };
  }

  function checkClosed(node: Json, pointer: string): void {
    if (!profile.requires?.closedObjects) return;
    const isObjectNode = node.type === "object" || "properties" in node;
    if (isObjectNode && node.additionalProperties !== false) {
      warn(
        "other",
        pointer,
        "additionalProperties",
        "needs additionalProperties: false on every object; this object is open, and closing it would narrow the form, so the actor may refuse it",
      );
    }
  }

  function optionalVariants(node: Json, pointer: string, root: boolean): Json {
    const union = profile.rewrites?.optionalProperties;
    if (union === undefined || !isObject(node.properties)) return node;
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const optional = Object.keys(node.properties).filter((name) => !required.has(name));
    if (optional.length === 0) return node;
    const where = "required";
    if (union === "nullable") {
      const properties: Json = {};
      for (const [name, sub] of Object.entries(node.properties)) {
        properties[name] = required.has(name) ? sub : nullable(sub);
      }
      warn(
        "rewritten",
        pointer,
        where,
        `requires every property; ${optional.length} optional (${optional.join(", ")}) sent as required and nullable, and null read back as absent`,
      );
      return { ...node, properties, required: Object.keys(properties) };
    }
    const max = profile.rewrites?.maxOptional ?? 4;
    const exact = node.type === "object" && node.additionalProperties === false && !("patternProperties" in node);
    if (!exact || optional.length > max || (root && profile.requires?.objectRoot)) {
      const why = !exact
        ? "it is not a closed object of type object"
        : optional.length > max
          ? `it has ${optional.length} optional properties (at most ${max} are written as variants)`
          : "the root must stay an object";
      warn("other", pointer, where, `requires every property; the optional ones stay optional here because ${why}`);
      return node;
    }
    const { properties, required: _required, additionalProperties, type: _type, ...rest } = node;
    const variants: Json[] = [];
    for (let mask = 0; mask < 1 << optional.length; mask++) {
      const names = new Set(optional.filter((_, i) => mask & (1 << i)));
      const props: Json = {};
      for (const [name, sub] of Object.entries(properties as Json)) {
        if (required.has(name) || names.has(name)) props[name] = sub;
      }
      variants.push({ type: "object", properties: props, required: Object.keys(props), additionalProperties });
    }
    warn(
      "rewritten",
      pointer,
      where,
      `requires every property; ${optional.length} optional (${optional.join(", ")}) sent as ${union} of ${variants.length} variants`,
    );
    return { ...rest, [union]: variants };
  }

  const projected = visit(schema, "", true);
  // unevaluated* reads what the schemas applied beside it evaluated, wherever they are: once any
  // of them was widened (a `properties` dropped), keeping it would narrow the form.
  if (widenings > 0) dropUnevaluated(projected, "");
  if (!isObject(projected)) {
    return { schema: {}, warnings: [{ type: "other", message: `${profile.actor}: the form is a boolean schema` }] };
  }
  if (profile.requires?.objectRoot && projected.type !== "object") {
    warnings.push({ type: "other", pointer: "", message: `${profile.actor}: needs an object at the root` });
  }
  return { schema: projected, warnings };

  /** Removes every unevaluated* keyword of the schema `node`, walking schema positions only (not `const`). */
  function dropUnevaluated(node: unknown, pointer: string): void {
    if (!isObject(node)) return;
    for (const keyword of ["unevaluatedProperties", "unevaluatedItems"]) {
      if (!(keyword in node)) continue;
      delete node[keyword];
      warn("dropped", pointer, keyword, `${keyword} dropped: what it reads was widened (kept, it would narrow)`);
    }
    for (const [keyword, value] of Object.entries(node)) {
      const at = `${pointer}/${escapePointer(keyword)}`;
      if (SCHEMA_MAPS.has(keyword) && isObject(value))
        for (const [key, sub] of Object.entries(value)) dropUnevaluated(sub, `${at}/${escapePointer(key)}`);
      else if (SCHEMA_ONE.has(keyword)) dropUnevaluated(value, at);
      else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value))
        for (const [i, sub] of value.entries()) dropUnevaluated(sub, `${at}/${i}`);
    }
  }
}
