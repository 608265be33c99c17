/**
 * The hostile kinds of the matrix (issue 31), each generated at a door's own limits: a body of
 * about `maxBytes` (less `room`, the bytes of the message around it at the MCP door), shaped to
 * cost the server as much as the limits let it:
 *
 * - `wide object`: one object of as many members as fit (`{"m0":0,"m1":0,…}`), refused at
 *   member `maxMembers + 1`;
 * - `long array`: one array of `0`s, refused at item `maxItems + 1`;
 * - `deep nesting`: `{"a":{"a":…}}` as deep as fits, refused at depth `maxDepth + 1`;
 * - `long string`: one string of ASCII as long as fits, refused past `maxStringLength`, or, where
 *   strings are unbounded (the MCP door), parsed whole and refused by the form;
 * - `many escapes` and `numbers`: trees within every bound (objects of at most `maxMembers`,
 *   arrays of at most `maxItems`, at most `maxDepth` deep) whose leaves are strings of `\n`
 *   escapes (at most `maxStringLength` each) or numbers (`-1.2345678901234567e+300`, longer
 *   where the tree has few leaves), so that the parser reads the whole body before the form
 *   refuses its member names;
 * - `invalid UTF-8 late`: a valid act (the costliest candidate) with a byte 0xFF in its last
 *   string;
 * - `duplicate at the end`: the same act with its last object's last member renamed as its first
 *   (so that no object has more members than the act had), or its only member repeated.
 *
 * @module
 */

/** The limits a body is generated at. */
export interface KindLimits {
  /** The most bytes of the body. */
  readonly maxBytes: number;
  /** The deepest nesting, counting the root. */
  readonly maxDepth: number;
  readonly maxStringLength: number;
  readonly maxMembers: number;
  readonly maxItems: number;
}

/** The kinds, in the order printed. */
export const KINDS = [
  "wide object",
  "long array",
  "deep nesting",
  "long string",
  "many escapes",
  "numbers",
  "invalid UTF-8 late",
  "duplicate at the end",
] as const;
export type Kind = (typeof KINDS)[number];

const NUMBER = "-1.2345678901234567e+300";

/** A root object of members named `m0`, `m1`, … each `0`, of about `bytes` bytes. */
function wide(bytes: number): string {
  const parts: string[] = [];
  let used = 2;
  for (let k = 0; ; k++) {
    const member = `"m${k}":0`;
    if (used + member.length + 1 > bytes) break;
    parts.push(member);
    used += member.length + 1;
  }
  return `{${parts.join(",")}}`;
}

/**
 * A tree of `leaf`s within every bound of `limits`, of at most `bytes` bytes: the root an object
 * (the forms are object forms), below it arrays where `maxItems` allows two or more items, else
 * objects; each container takes all the room it can, depth first.
 */
function tree(limits: KindLimits, bytes: number, leaf: (room: number) => string | null): string {
  const names = (k: number) => `"${k.toString(36)}":`;
  const container = (depth: number, room: number): string | null => {
    const array = depth > 1 && limits.maxItems >= 2;
    const max = array ? limits.maxItems : limits.maxMembers;
    const parts: string[] = [];
    let used = 2;
    for (let k = 0; k < max; k++) {
      const prefix = array ? "" : names(k);
      const sep = parts.length > 0 ? 1 : 0;
      const left = room - used - sep - prefix.length;
      const child = depth < limits.maxDepth ? container(depth + 1, left) : leaf(left);
      if (child === null) break;
      parts.push(prefix + child);
      used += sep + prefix.length + child.length;
    }
    if (parts.length === 0) return depth === 1 ? "{}" : leaf(room);
    return array ? `[${parts.join(",")}]` : `{${parts.join(",")}}`;
  };
  return container(1, bytes) ?? "{}";
}

/** How many leaves a tree within `limits` holds (capped, to size the leaves). */
function leaves(limits: KindLimits): number {
  const fan = limits.maxItems >= 2 ? limits.maxItems : limits.maxMembers;
  return Math.min(1e9, limits.maxMembers * fan ** Math.max(0, limits.maxDepth - 2));
}

/** The last string value of `value` in document order, as a path of keys; null when none. */
function lastPath(value: unknown, want: "string" | "object"): (string | number)[] | null {
  if (typeof value === "string") return want === "string" ? [] : null;
  if (value === null || typeof value !== "object") return null;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, k) => [k, v])
    : Object.entries(value);
  for (let k = entries.length - 1; k >= 0; k--) {
    const [key, child] = entries[k]!;
    const below = lastPath(child, want);
    if (below !== null) return [key, ...below];
  }
  return want === "object" && !Array.isArray(value) && entries.length > 0 ? [] : null;
}

const at = (value: unknown, path: readonly (string | number)[]): Record<string | number, unknown> =>
  path.reduce<unknown>((v, key) => (v as Record<string | number, unknown>)[key], value) as Record<
    string | number,
    unknown
  >;

const MARK = "\u0001mark\u0001";

/**
 * `valid` (a JSON text) with its last string's value ending in a byte 0xFF, or its last object's
 * last member renamed as its first (its only member repeated as `0`); written with `serialize`
 * (the candidate's own escaping).
 */
function late(valid: string, kind: "utf8" | "duplicate", serialize: (text: string) => string): Uint8Array {
  const value = JSON.parse(valid) as unknown;
  if (kind === "utf8") {
    const path = lastPath(value, "string")!;
    const parent = at(value, path.slice(0, -1));
    const key = path.at(-1)!;
    parent[key] = `${[...(parent[key] as string)].slice(0, -1).join("")}${MARK}`;
    const [head, tail] = serialize(JSON.stringify(value)).split(JSON.stringify(MARK).slice(1, -1));
    return Buffer.concat([Buffer.from(head!), Buffer.from([0xff]), Buffer.from(tail!)]);
  }
  const path = lastPath(value, "object")!;
  const object = at(value, path);
  const names = Object.keys(object);
  const last = names.at(-1)!;
  // One member: repeated with a short value, so that the body stays within the candidate's slack.
  const member = names.length > 1 ? object[last] : 0;
  if (names.length > 1) delete object[last];
  object[MARK] = member;
  return Buffer.from(serialize(JSON.stringify(value)).replace(JSON.stringify(MARK), JSON.stringify(names[0])));
}

/**
 * The body of `kind` at `limits`; `valid` is the valid act the last two kinds are made from,
 * and `serialize` its escaping.
 */
export function hostileBody(
  kind: Kind,
  limits: KindLimits,
  valid: string,
  serialize: (text: string) => string = (text) => text,
): Uint8Array {
  const bytes = limits.maxBytes;
  switch (kind) {
    case "wide object":
      return Buffer.from(wide(bytes));
    case "long array":
      return Buffer.from(
        `{"a":[${Array(Math.max(0, (bytes - 8) >> 1))
          .fill("0")
          .join(",")}]}`,
      );
    case "deep nesting": {
      // Objects, not arrays: a form may admit no array at all (`maxItems` 0).
      const n = Math.max(0, Math.floor((bytes - 2) / 6));
      return Buffer.from(`${'{"a":'.repeat(n)}{}${"}".repeat(n)}`);
    }
    case "long string":
      return Buffer.from(`{"a":"${"x".repeat(Math.max(0, bytes - 8))}"}`);
    case "many escapes": {
      // At least 64 escapes a string, so that escapes, not quotes and commas, fill the body.
      const units = Math.min(limits.maxStringLength, Math.max(64, Math.ceil(bytes / 2 / leaves(limits)) + 1));
      return Buffer.from(
        tree(limits, bytes, (room) => {
          const n = Math.min(units, (room - 2) >> 1);
          return n < 1 ? null : `"${"\\n".repeat(n)}"`;
        }),
      );
    }
    case "numbers": {
      const digits = Math.max(NUMBER.length, Math.ceil(bytes / leaves(limits)) + 1);
      return Buffer.from(
        tree(limits, bytes, (room) => {
          const n = Math.min(digits, room);
          if (n < NUMBER.length) return null;
          return `-1.${"2".repeat(n - NUMBER.length + 16)}e+300`;
        }),
      );
    }
    case "invalid UTF-8 late":
      return late(valid, "utf8", serialize);
    case "duplicate at the end":
      return late(valid, "duplicate", serialize);
  }
}
