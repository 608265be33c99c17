/**
 * A value from the form itself, for `check` when `m` holds no example to build its probes on:
 * the smallest value `s` accepts (the required members only, the least lengths and counts, the
 * first `const`/`enum` value, the first satisfiable `anyOf`/`oneOf` branch), or a fuller one
 * (every property it can fill, non-empty strings and arrays) for probes that need a string or a
 * nested object to carry them.
 *
 * Each subschema proposes a few candidates, smallest first, built from its own keywords merged
 * with those of its `$ref`, `allOf` and chosen branch; a candidate is kept only when the
 * subschema accepts it, judged by @cfworker/json-schema over the whole document (so `not`,
 * `if`/`then`/`else`, `dependentSchemas` and the rest are honoured even where they guided
 * nothing). The caller still judges the result with the form's own validator: this is a
 * generator, not the check.
 *
 * @see JSON Schema 2020-12 Validation §6; draft "The Form"
 * @module
 */
import { dereference, type Schema, validate } from "@cfworker/json-schema";
import { patternSamples } from "./pattern-sample.ts";

/** `least`: the smallest value; `full`: every property and item the form lets it fill. */
export type ValueShape = "least" | "full";

type Node = boolean | Readonly<Record<string, unknown>>;
type Flat = Record<string, unknown>;

/** Candidates kept per subschema. */
const KEEP = 6;
/**
 * Subschemas entered in one descent, tried in turn (iterative deepening): a recursive form
 * then takes its way out at the least depth that has one, not the deepest.
 */
const DEPTHS = [4, 8, 16, 32];
/** `values` calls for one form, so that a wide recursive form cannot run away. */
const BUDGET = 20_000;
/** The keywords applied by merging or by the acceptance test, not by building. */
const APPLICATORS = ["$ref", "allOf", "anyOf", "oneOf", "if", "then", "else", "not", "$defs"];
const TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"];
/** A value of each format the compiler asserts (src/compile/formats). */
const FORMATS: Readonly<Record<string, string>> = {
  date: "2020-01-01",
  time: "00:00:00Z",
  "date-time": "2020-01-01T00:00:00Z",
  duration: "P1D",
  email: "a@example.com",
  hostname: "example.com",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  uri: "https://example.com/",
  "uri-reference": "a",
  uuid: "00000000-0000-4000-8000-000000000000",
  "json-pointer": "/a",
  "relative-json-pointer": "0",
  regex: "a",
};

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const numberOr = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);
const key = (value: unknown) => JSON.stringify(value);

/**
 * A value `s` accepts, built from `s` alone.
 *
 * @param s - the arrival's form.
 * @param shape - {@link ValueShape}; default `least`.
 * @returns `{value}`, or `undefined` when none was found (none may exist: `not: {}`).
 * @example
 * ```ts
 * formValue({ type: "object", required: ["n"], properties: { n: { type: "integer", minimum: 3 } } });
 * // { value: { n: 3 } }
 * ```
 */
export function formValue(s: unknown, shape: ValueShape = "least"): { readonly value: unknown } | undefined {
  if (typeof s !== "boolean" && !isObject(s)) return undefined;
  const root = structuredClone(s) as Node;
  let lookup: Record<string, Schema | boolean>;
  try {
    lookup = dereference(root as Schema);
  } catch {
    return undefined;
  }
  for (const depth of DEPTHS) {
    const [value] = new Builder(lookup, shape, depth).values(root, 0);
    if (value !== undefined) return { value: value.value };
  }
  return undefined;
}

/** A candidate, boxed so that `null` is one. */
interface Candidate {
  readonly value: unknown;
}

class Builder {
  private spent = 0;
  private readonly lookup: Record<string, Schema | boolean>;
  private readonly shape: ValueShape;
  private readonly maxDepth: number;
  constructor(lookup: Record<string, Schema | boolean>, shape: ValueShape, maxDepth: number) {
    this.lookup = lookup;
    this.shape = shape;
    this.maxDepth = maxDepth;
  }

  /** Whether `node` accepts `value` (a schema the judge cannot read lets it through). */
  private accepts(node: Node, value: unknown): boolean {
    try {
      return validate(value, node as Schema, "2020-12", this.lookup, true).valid;
    } catch {
      return true;
    }
  }

  /** Up to {@link KEEP} values `node` accepts, smallest first. */
  values(node: Node, depth: number): Candidate[] {
    if (node === false || depth > this.maxDepth || ++this.spent > BUDGET) return [];
    const seen = new Set<string>();
    const out: Candidate[] = [];
    for (const flat of this.flatten(node, depth)) {
      for (const value of this.build(flat, depth)) {
        const id = key(value);
        if (seen.has(id)) continue;
        seen.add(id);
        if (this.accepts(node, value)) out.push({ value });
        if (out.length >= KEEP) return out;
      }
    }
    return out;
  }

  /** `node` as alternatives without applicators: its own keywords merged with each way through them. */
  private flatten(node: Node, depth: number): Flat[] {
    if (node === false || depth > this.maxDepth) return [];
    if (node === true) return [{}];
    let alternatives: Flat[] = [Object.fromEntries(Object.entries(node).filter(([k]) => !APPLICATORS.includes(k)))];
    const and = (parts: Flat[]) => {
      alternatives = alternatives.flatMap((a) => parts.map((b) => merge(a, b))).slice(0, KEEP);
    };
    const ref = (node as { __absolute_ref__?: string }).__absolute_ref__ ?? node.$ref;
    if (typeof ref === "string") {
      const target = this.lookup[ref];
      if (target !== undefined) and(this.flatten(target as Node, depth + 1));
    }
    if (Array.isArray(node.allOf)) for (const part of node.allOf) and(this.flatten(part as Node, depth + 1));
    for (const branches of [node.anyOf, node.oneOf]) {
      if (Array.isArray(branches)) and(branches.flatMap((branch) => this.flatten(branch as Node, depth + 1)));
    }
    if (node.if !== undefined && (node.then !== undefined || node.else !== undefined)) {
      and([
        ...this.flatten((node.then ?? true) as Node, depth + 1),
        ...this.flatten((node.else ?? true) as Node, depth + 1),
      ]);
    }
    return alternatives;
  }

  /** Values of one flattened alternative, by its `const`, `enum` or types. */
  private *build(flat: Flat, depth: number): Generator<unknown> {
    if ("const" in flat) {
      yield flat.const;
      return;
    }
    if (Array.isArray(flat.enum)) {
      yield* flat.enum;
      return;
    }
    for (const type of typesOf(flat)) {
      if (type === "null") yield null;
      else if (type === "boolean") yield* [false, true];
      else if (type === "integer" || type === "number") yield* numbers(flat, type === "integer");
      else if (type === "string") yield* this.strings(flat);
      else if (type === "array") yield* this.arrays(flat, depth);
      else yield* this.objects(flat, depth);
    }
  }

  private strings(flat: Flat): string[] {
    const least = Math.max(numberOr(flat.minLength, 0), this.shape === "full" ? 1 : 0);
    if (typeof flat.pattern === "string") return patternSamples(flat.pattern, least);
    const format = typeof flat.format === "string" ? FORMATS[flat.format] : undefined;
    if (format !== undefined) return [format];
    const least0 = numberOr(flat.minLength, 0);
    return [...new Set(["a".repeat(least), "a".repeat(least0), "b".repeat(Math.max(least, 1))])];
  }

  private arrays(flat: Flat, depth: number): unknown[][] {
    const prefix = Array.isArray(flat.prefixItems) ? (flat.prefixItems as Node[]) : [];
    const items = (flat.items ?? true) as Node;
    const wanted = Math.max(
      numberOr(flat.minItems, 0),
      flat.contains === undefined ? 0 : numberOr(flat.minContains, 1),
      this.shape === "full" && items !== false ? Math.min(prefix.length + 1, numberOr(flat.maxItems, 1)) : 0,
    );
    const out: unknown[] = [];
    for (let i = 0; i < wanted; i++) {
      const choices = this.values(i < prefix.length ? prefix[i]! : items, depth + 1);
      // uniqueItems: the i-th item takes a choice no earlier item took.
      const choice = choices.find((c) => flat.uniqueItems !== true || !out.some((v) => key(v) === key(c.value)));
      if (choice === undefined) return [];
      out.push(choice.value);
    }
    const results = [out];
    if (flat.contains !== undefined) {
      const contained = this.values(flat.contains as Node, depth + 1).map((c) => c.value);
      results.push(...contained.map((c) => [...out.slice(1), c]), contained.slice(0, Math.max(wanted, 1)));
    }
    return results;
  }

  private objects(flat: Flat, depth: number): Record<string, unknown>[] {
    const properties = isObject(flat.properties) ? flat.properties : {};
    const names = new Set(Array.isArray(flat.required) ? (flat.required as string[]) : []);
    if (this.shape === "full") for (const name of Object.keys(properties)) names.add(name);
    // dependentRequired: a present name brings its dependents.
    const dependent = isObject(flat.dependentRequired) ? flat.dependentRequired : {};
    for (const name of names) for (const other of (dependent[name] as string[] | undefined) ?? []) names.add(other);
    for (let i = 0; names.size < numberOr(flat.minProperties, 0) && i < 64; i++) {
      names.add(Object.keys(properties).find((name) => !names.has(name)) ?? `a${i}`);
    }
    const members: [string, Candidate[]][] = [];
    for (const name of names) {
      const choices = this.values(this.memberSchema(flat, name), depth + 1);
      if (choices.length === 0) {
        if (Array.isArray(flat.required) && flat.required.includes(name)) return [];
        continue; // an optional member the form lets nothing fill: left out
      }
      members.push([name, choices]);
    }
    const object = (pick: (i: number) => number) =>
      Object.fromEntries(members.map(([name, choices], i) => [name, choices[pick(i)]!.value]));
    // The first choices, then each member's other choices one at a time.
    const out = [object(() => 0)];
    members.forEach(([, choices], at) => {
      for (let c = 1; c < choices.length && out.length < KEEP; c++) out.push(object((i) => (i === at ? c : 0)));
    });
    return out;
  }

  /** The schema a member `name` must meet: its property, the matching patterns, or additionalProperties. */
  private memberSchema(flat: Flat, name: string): Node {
    const parts: Node[] = [];
    if (isObject(flat.properties) && Object.hasOwn(flat.properties, name)) parts.push(flat.properties[name] as Node);
    if (isObject(flat.patternProperties)) {
      for (const [pattern, schema] of Object.entries(flat.patternProperties)) {
        try {
          if (new RegExp(pattern, "u").test(name)) parts.push(schema as Node);
        } catch {
          return false; // a pattern this runtime cannot read: the name is not risked
        }
      }
    }
    if (parts.length === 0) parts.push((flat.additionalProperties ?? true) as Node);
    if (flat.propertyNames !== undefined && !this.accepts(flat.propertyNames as Node, name)) return false;
    return parts.length === 1 ? parts[0]! : { allOf: parts };
  }
}

/**
 * The types to try, in the form's order; with no `type`, those its keywords imply first (a
 * keyword of one type leaves the others free), then the rest.
 */
function typesOf(flat: Flat): string[] {
  if (typeof flat.type === "string") return [flat.type];
  if (Array.isArray(flat.type)) return flat.type as string[];
  const implied = [
    ["string", ["minLength", "maxLength", "pattern", "format"]],
    ["number", ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]],
    ["array", ["items", "prefixItems", "contains", "minItems", "maxItems", "uniqueItems"]],
    ["object", ["properties", "required", "patternProperties", "additionalProperties", "minProperties"]],
  ] as const;
  const types = implied.filter(([, keywords]) => keywords.some((k) => k in flat)).map(([type]) => type as string);
  return [...new Set([...types, ...TYPES])];
}

/** Numbers within the bounds and on the `multipleOf` grid, nearest 0 first. */
function numbers(flat: Flat, integer: boolean): number[] {
  const step = numberOr(flat.multipleOf, integer ? 1 : 0);
  const low = Math.max(numberOr(flat.minimum, -Infinity), numberOr(flat.exclusiveMinimum, -Infinity));
  const high = Math.min(numberOr(flat.maximum, Infinity), numberOr(flat.exclusiveMaximum, Infinity));
  const seeds = [0, low, high, low + 1, high - 1, (low + high) / 2, low + 0.5, high - 0.5];
  const grid = (n: number) => (step > 0 ? [Math.ceil(n / step) * step, Math.floor(n / step) * step] : [n]);
  const inside = (n: number) =>
    Number.isFinite(n) &&
    (!integer || Number.isInteger(n)) &&
    n >= low &&
    n <= high &&
    n !== flat.exclusiveMinimum &&
    n !== flat.exclusiveMaximum;
  const found = [...new Set(seeds.flatMap(grid).filter(inside))];
  return found.sort((a, b) => Math.abs(a) - Math.abs(b) || a - b);
}

/** Two alternatives as one: every keyword of both (bounds tightened, subschemas joined by allOf). */
function merge(a: Flat, b: Flat): Flat {
  const out: Flat = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const mine = out[k];
    if (mine === undefined) out[k] = v;
    else if (k === "type") out[k] = intersectTypes(mine, v);
    else if (k === "required") out[k] = [...new Set([...(mine as string[]), ...(v as string[])])];
    else if (k === "enum") out[k] = (mine as unknown[]).filter((x) => (v as unknown[]).some((y) => key(x) === key(y)));
    else if (/^(min|exclusiveMin)/.test(k)) out[k] = Math.max(mine as number, v as number);
    else if (/^(max|exclusiveMax)/.test(k)) out[k] = Math.min(mine as number, v as number);
    else if (k === "properties" || k === "patternProperties" || k === "dependentSchemas") {
      const joined: Flat = { ...(mine as Flat) };
      for (const [name, schema] of Object.entries(v as Flat)) {
        joined[name] = Object.hasOwn(joined, name) ? { allOf: [joined[name], schema] } : schema;
      }
      out[k] = joined;
    } else if (isObject(v) || typeof v === "boolean") {
      if (["items", "additionalProperties", "contains", "propertyNames"].includes(k)) out[k] = { allOf: [mine, v] };
    }
  }
  return out;
}

function intersectTypes(a: unknown, b: unknown): string[] {
  const list = (t: unknown) => (Array.isArray(t) ? (t as string[]) : [t as string]);
  const right = list(b);
  return list(a).flatMap((t) => {
    if (right.includes(t)) return [t];
    if (t === "number" && right.includes("integer")) return ["integer"];
    if (t === "integer" && right.includes("number")) return ["integer"];
    return [];
  });
}
