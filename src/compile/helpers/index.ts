/**
 * Runtime helpers: JavaScript source emitted into a generated module only when a keyword
 * uses them. Each is plain ES2020, imports nothing, and is covered by the suite through the
 * keywords that emit it.
 *
 * @module
 */
import { dependenciesFirst } from "../dependencies-first.ts";
import type { HelperName } from "../keyword.ts";

interface Helper {
  readonly source: string;
  readonly uses: ReadonlyArray<HelperName>;
}

/** Own-property presence (never inherited names); measured faster than `Object.hasOwn` in V8. */
const hasOwn: Helper = {
  uses: [],
  source: `const hasOwnProperty = Object.prototype.hasOwnProperty;
function hasOwn(o, k) {
  return hasOwnProperty.call(o, k);
}`,
};

/** Length in Unicode code points: a surrogate pair counts once, a lone surrogate once. */
const codePointLength: Helper = {
  uses: [],
  source: `function codePointLength(s) {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) { n--; i++; }
    }
  }
  return n;
}`,
};

/** JSON deep equality: member order ignored, numbers by value (1 = 1.0, 0 = -0). */
const equal: Helper = {
  uses: ["hasOwn"],
  source: `function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!hasOwn(b, key) || !equal(a[key], b[key])) return false;
  return true;
}`,
};

/**
 * No two items deep-equal: `===` for primitives, {@link equal} once a container appears; from
 * 17 items on, a `Set` of primitives or of canonical texts (members sorted), so a long array
 * costs O(n log n), never O(n²).
 */
const unique: Helper = {
  uses: ["equal"],
  source: `function canonical(x) {
  if (typeof x !== "object" || x === null) return JSON.stringify(x);
  if (Array.isArray(x)) return "[" + x.map(canonical).join(",") + "]";
  return "{" + Object.keys(x).sort().map((k) => JSON.stringify(k) + ":" + canonical(x[k])).join(",") + "}";
}
function unique(a) {
  const n = a.length;
  for (let i = 0; i < n; i++) {
    const x = a[i];
    if (typeof x === "object" && x !== null) {
      if (n > 16) return new Set(a.map(canonical)).size === n;
      for (let j = 1; j < n; j++) for (let k = 0; k < j; k++) if (equal(a[j], a[k])) return false;
      return true;
    }
  }
  if (n > 16) return new Set(a).size === n;
  for (let j = 1; j < n; j++) for (let k = 0; k < j; k++) if (a[j] === a[k]) return false;
  return true;
}`,
};

/**
 * Is `x` an integer multiple of `m`? Decided exactly on the shortest decimal forms of both
 * numbers (what the JSON text most plausibly said), with BigInt arithmetic.
 */
const multipleOf: Helper = {
  uses: [],
  source: `function decimal(x) {
  let text = String(Math.abs(x));
  let exponent = 0;
  const e = text.indexOf("e");
  if (e >= 0) { exponent = Number(text.slice(e + 1)); text = text.slice(0, e); }
  const dot = text.indexOf(".");
  if (dot >= 0) { exponent -= text.length - dot - 1; text = text.slice(0, dot) + text.slice(dot + 1); }
  return [BigInt(text), exponent];
}
function multipleOf(x, m) {
  if (x === 0) return true;
  const [a, ea] = decimal(x);
  const [b, eb] = decimal(m);
  const e = Math.min(ea, eb);
  return (a * 10n ** BigInt(ea - e)) % (b * 10n ** BigInt(eb - e)) === 0n;
}`,
};

/**
 * `properties` of a wide object (keywords/properties.ts): each own member of `o` listed by
 * for…in whose name `checks` maps to a check (`(value) => boolean`) satisfies it, the value's
 * members in their order. A member whose value is `undefined` is absent, as `present` reads it;
 * an inherited enumerable name (a polluted `Object.prototype`) is skipped, its `hasOwn` folded
 * by V8 into the loop's map check. `seen` caches the lookups at the first 16 positions
 * (name, check, name, check, …), so that objects of one shape, met again, cost a comparison a
 * member instead of a `Map` lookup. A check shared by members of equal schemas names the
 * pointers of the first of them: on failure, `moved` (name → [the length of that pointer, the
 * member's pointer]) moves the module's `failure` to the member's.
 */
const checkMembers: Helper = {
  uses: ["hasOwn"],
  source: `function checkMembers(o, checks, seen, moved) {
  let i = 0;
  for (const k in o) {
    let check;
    if (i < 32) {
      if (seen[i] === k) check = seen[i + 1];
      else {
        check = checks.get(k);
        seen[i] = k;
        seen[i + 1] = check;
      }
      i += 2;
    } else check = checks.get(k);
    if (check !== undefined && hasOwn(o, k)) {
      const v = o[k];
      if (v !== undefined && !check(v)) {
        const pointers = moved.get(k);
        if (pointers !== undefined) failure = pointers[1] + failure.slice(pointers[0]);
        return false;
      }
    }
  }
  return true;
}`,
};

/**
 * `required` of many names (keywords/required.ts): each of `names` (an array of strings) is an
 * own member of `o` whose value is not `undefined`, as `present` reads it, in the array's order;
 * false at the first missing, so a call reads at most one name more than the members `o` has.
 */
const hasMembers: Helper = {
  uses: ["hasOwn"],
  source: `function hasMembers(o, names) {
  for (let i = 0; i < names.length; i++) {
    const k = names[i];
    if (o[k] === undefined || !hasOwn(o, k)) return false;
  }
  return true;
}`,
};

const helpers: Readonly<Record<HelperName, Helper>> = {
  hasOwn,
  codePointLength,
  equal,
  unique,
  multipleOf,
  checkMembers,
  hasMembers,
};

/** The sources of `names` and of the helpers they use, each once, dependencies first. */
export function helperSources(names: Iterable<HelperName>): string[] {
  return dependenciesFirst([...names].sort(), (name) => helpers[name].uses).map((name) => helpers[name].source);
}
