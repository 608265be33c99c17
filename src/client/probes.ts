/**
 * The bodies `check` sends to test an address's strictness, each built from a value the form
 * accepts so that a lenient parser would see a valid value (and act on it), while a strict
 * address must refuse the bytes: a duplicated member name (at the top, spelled with an escape,
 * deep down), bytes after the value, invalid UTF-8, a byte order mark, a lone surrogate, a body
 * over 10 MiB. Each probe says what a lenient reading of it would be, so the check can first
 * prove, with the form's own validator, that the probe would pass a lenient address.
 *
 * @see draft "Verification"; RFC 8259 §4, §8.1; RFC 7493 §2.1
 * @module
 */

/** A path into a JSON value: member names and array indices. */
export type Path = readonly (string | number)[];

/** One strictness probe. */
export interface Probe {
  readonly id: string;
  readonly bytes: Uint8Array;
  /** The value a lenient parser would read from `bytes` (last duplicate wins, U+FFFD for bad bytes). */
  readonly lenient: unknown;
}

type Special =
  | { readonly path: Path; readonly leaf: string }
  | { readonly path: Path; readonly duplicate: "plain" | "escaped" };

const samePath = (a: Path, b: Path) => a.length === b.length && a.every((key, i) => key === b[i]);

/** JSON text of `value` with one node written specially (a leaf's own text, or a duplicated first member). */
function write(value: unknown, special: Special | undefined, path: Path = []): string {
  if (special && samePath(path, special.path) && "leaf" in special) return special.leaf;
  if (Array.isArray(value)) return `[${value.map((item, i) => write(item, special, [...path, i])).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const members = Object.entries(value).map(
      ([name, item]) => `${JSON.stringify(name)}:${write(item, special, [...path, name])}`,
    );
    if (special && "duplicate" in special && samePath(path, special.path) && members.length > 0) {
      const [name, item] = Object.entries(value)[0]!;
      const spelled =
        special.duplicate === "escaped"
          ? `"\\u${name.charCodeAt(0).toString(16).padStart(4, "0")}${JSON.stringify(name).slice(2)}`
          : JSON.stringify(name);
      members.unshift(`${spelled}:${JSON.stringify(item)}`);
    }
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Every node of `value` with its path, depth first. */
function* nodes(value: unknown, path: Path = []): Generator<{ path: Path; value: unknown }> {
  yield { path, value };
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* nodes(value[i], [...path, i]);
  else if (typeof value === "object" && value !== null) {
    for (const [name, item] of Object.entries(value)) yield* nodes(item, [...path, name]);
  }
}

/** `value` with the node at `path` replaced. */
function replace(value: unknown, path: Path, by: unknown): unknown {
  if (path.length === 0) return by;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? replace(item, rest, by) : item));
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  Object.defineProperty(copy, head as string, {
    value: replace(copy[head as string], rest, by),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

const encoder = new TextEncoder();
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** The largest body `check` expects any address to refuse: 10 MiB. */
export const OVERSIZE_BYTES = 10 * 1024 * 1024;

/**
 * Builds the probes from `base`, a value the form accepts. `accepts` is the form's validator:
 * a probe whose lenient reading the form would reject proves nothing and is tried elsewhere in
 * the value, or left out.
 */
export function buildProbes(base: unknown, accepts: (value: unknown) => boolean): Map<string, Probe | undefined> {
  const text = write(base, undefined);
  const probes = new Map<string, Probe | undefined>();
  const all = [...nodes(base)];
  const objects = all.filter((n) => typeof n.value === "object" && n.value !== null && !Array.isArray(n.value));
  const nonEmpty = objects.filter((n) => Object.keys(n.value as object).length > 0);
  const root = nonEmpty.find((n) => n.path.length === 0);
  const nested = nonEmpty.find((n) => n.path.length >= 2) ?? nonEmpty.find((n) => n.path.length === 1);
  probes.set(
    "duplicate-name",
    root && {
      id: "duplicate-name",
      bytes: encoder.encode(write(base, { path: [], duplicate: "plain" })),
      lenient: base,
    },
  );
  probes.set(
    "duplicate-name-escaped",
    root && {
      id: "duplicate-name-escaped",
      bytes: encoder.encode(write(base, { path: [], duplicate: "escaped" })),
      lenient: base,
    },
  );
  probes.set(
    "duplicate-name-nested",
    nested && {
      id: "duplicate-name-nested",
      bytes: encoder.encode(write(base, { path: nested.path, duplicate: "plain" })),
      lenient: base,
    },
  );
  probes.set("trailing-bytes", { id: "trailing-bytes", bytes: encoder.encode(`${text}\n{}`), lenient: base });
  probes.set("byte-order-mark", {
    id: "byte-order-mark",
    bytes: concat(new Uint8Array([0xef, 0xbb, 0xbf]), encoder.encode(text)),
    lenient: base,
  });
  const strings = all.filter((n) => typeof n.value === "string");
  const carrier = (suffix: string) => strings.find((n) => accepts(replace(base, n.path, (n.value as string) + suffix)));
  const utf8 = carrier("\uFFFD");
  if (utf8) {
    const marker = "\u0001gpt-address-check\u0001";
    const marked = write(base, { path: utf8.path, leaf: `${JSON.stringify(utf8.value).slice(0, -1)}${marker}"` });
    const [before, after] = marked.split(marker) as [string, string];
    probes.set("invalid-utf8", {
      id: "invalid-utf8",
      bytes: concat(encoder.encode(before), new Uint8Array([0xff]), encoder.encode(after)),
      lenient: replace(base, utf8.path, `${utf8.value}\uFFFD`),
    });
  } else probes.set("invalid-utf8", undefined);
  const surrogate = carrier("\uD800");
  probes.set(
    "lone-surrogate",
    surrogate && {
      id: "lone-surrogate",
      bytes: encoder.encode(
        write(base, { path: surrogate.path, leaf: `${JSON.stringify(surrogate.value).slice(0, -1)}\\ud800"` }),
      ),
      lenient: replace(base, surrogate.path, `${surrogate.value}\uD800`),
    },
  );
  const body = encoder.encode(text);
  const oversize = new Uint8Array(OVERSIZE_BYTES + 1).fill(0x20);
  oversize.set(body);
  probes.set("oversize", { id: "oversize", bytes: oversize, lenient: base });
  return probes;
}

/** Values the form probably rejects, for the refused-act checks; the check keeps those the validator rejects. */
export function invalidCandidates(base: unknown): unknown[] {
  const out: unknown[] = [];
  if (typeof base === "object" && base !== null && !Array.isArray(base)) {
    out.push({ ...(base as object), "gpt-address-check": true });
  }
  out.push(null, [], {}, "", 0, false);
  return out;
}
