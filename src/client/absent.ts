/**
 * Reads an actor's value of a projected form back as a value of the form: where the projection
 * made an optional property required and nullable (OpenAI strict requires every property), the
 * actor's `null` means "absent", and the member is removed wherever the form does not admit
 * `null` for it. Everything else is left as the actor produced it; the local check then judges
 * the result against the full form.
 *
 * @see ./projection.ts (`optionalProperties: "nullable"`)
 * @module
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The subschema a local `$ref` (`#`, `#/…`) names in `root`, or `undefined`. */
function resolveRef(ref: string, root: unknown): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

/**
 * Whether `schema` certainly rejects `null` (a `type`, `enum` or `const` that leaves it out, or
 * every branch of a union doing so). `false` when unsure: the `null` is then kept, and the local
 * check decides. Each schema is judged once (`known`): a form whose `$ref`s name one schema
 * along many paths costs the number of its schemas, not of its paths. A schema met again on
 * its own path (a cycle) is unsure, and that verdict may be kept for it: the safe side.
 */
export function rejectsNull(
  schema: unknown,
  root: unknown,
  seen: ReadonlySet<unknown> = new Set(),
  known: Map<unknown, boolean> = new Map(),
): boolean {
  if (schema === false) return true;
  if (!isObject(schema) || seen.has(schema)) return false;
  const cached = known.get(schema);
  if (cached !== undefined) return cached;
  const verdict = judge(schema, root, new Set(seen).add(schema), known);
  known.set(schema, verdict);
  return verdict;
}

function judge(schema: Json, root: unknown, inner: ReadonlySet<unknown>, known: Map<unknown, boolean>): boolean {
  const { type } = schema;
  if (typeof type === "string" && type !== "null") return true;
  if (Array.isArray(type) && !type.includes("null")) return true;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return true;
  if ("const" in schema && schema.const !== null) return true;
  if (typeof schema.$ref === "string" && rejectsNull(resolveRef(schema.$ref, root), root, inner, known)) return true;
  for (const union of ["anyOf", "oneOf"] as const) {
    const branches = schema[union];
    if (Array.isArray(branches) && branches.length > 0 && branches.every((b) => rejectsNull(b, root, inner, known))) {
      return true;
    }
  }
  return Array.isArray(schema.allOf) && schema.allOf.some((b) => rejectsNull(b, root, inner, known));
}

/** What one read has done: the schemas each object or array was stripped under, the verdicts on `null`. */
interface Visits {
  readonly stripped: WeakMap<object, Set<unknown>>;
  readonly rejects: Map<unknown, boolean>;
}

/**
 * Removes, in place, the `null` members of `value` that stand for absent properties under
 * `schema`. Each object or array is stripped under each schema once (`visits`): a second time
 * finds nothing more, so a form whose `$ref`s name one schema along many paths stays linear.
 */
function strip(value: unknown, schema: unknown, root: unknown, depth: number, visits: Visits): boolean {
  // Only an object or an array can hold a member to remove.
  if (!isObject(schema) || depth > 256 || typeof value !== "object" || value === null) return false;
  const under = visits.stripped.get(value) ?? new Set<unknown>();
  if (under.has(schema)) return false;
  visits.stripped.set(value, under.add(schema));
  let changed = false;
  if (typeof schema.$ref === "string")
    changed = strip(value, resolveRef(schema.$ref, root), root, depth + 1, visits) || changed;
  for (const union of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = schema[union];
    if (Array.isArray(branches))
      for (const b of branches) changed = strip(value, b, root, depth + 1, visits) || changed;
  }
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    value.forEach((item, i) => {
      changed = strip(item, i < prefix.length ? prefix[i] : schema.items, root, depth + 1, visits) || changed;
    });
    return changed;
  }
  if (!isObject(value) || !isObject(schema.properties)) return changed;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [name, sub] of Object.entries(schema.properties)) {
    if (!Object.hasOwn(value, name)) continue;
    if (value[name] === null && !required.has(name) && rejectsNull(sub, root, new Set(), visits.rejects)) {
      delete value[name];
      changed = true;
    } else {
      changed = strip(value[name], sub, root, depth + 1, visits) || changed;
    }
  }
  return changed;
}

/**
 * `value` with each `null` member removed where it fills an optional property of `form` whose
 * schema does not admit `null`; `changed` says whether any was. `value` itself is not modified.
 *
 * @example
 * ```ts
 * nullAsAbsent({ rating: 4, comment: null }, feedback.s); // { value: { rating: 4 }, changed: true }
 * ```
 */
export function nullAsAbsent(value: unknown, form: unknown): { readonly value: unknown; readonly changed: boolean } {
  if (typeof value !== "object" || value === null) return { value, changed: false };
  const copy = structuredClone(value);
  const changed = strip(copy, form, form, 0, { stripped: new WeakMap(), rejects: new Map() });
  return changed ? { value: copy, changed } : { value, changed };
}
