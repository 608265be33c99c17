/**
 * Seasoning: what a public address has already parsed and validated by the time a user's act
 * arrives (issue 16). A process that has rejected many malformed bodies may run the hot code
 * more slowly than a fresh one (V8 re-optimizes a function with the type feedback the bad
 * inputs left behind), so the benchmarks measure a seasoned process beside a fresh one, each in
 * a process of its own, forked per column ({@link runColumns}).
 *
 * - {@link parserSeasoning}: every JSONTestSuite file (`test/fixtures/JSONTestSuite`), the
 *   hostile shapes of the parser's tests and bench ({@link hostileBodies}, {@link testShapes}),
 *   and at least 10,000 mutations of the bench bodies drawn from a seed ({@link mutations}).
 * - {@link valueSeasoning}: the invalid instances of the JSON-Schema-Test-Suite
 *   (`test/fixtures/JSON-Schema-Test-Suite`, draft 2020-12) and mutated page values.
 *
 * The seed comes from `BENCH_SEED` (a 32-bit unsigned integer) or is drawn at random; the
 * benches print it, and the same seed gives the same inputs.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { specialNames } from "../test/node/json/json-arbitraries.ts";
import { random } from "../test/seeded-random.ts";

const root = join(import.meta.dirname, "..");

/** The seed of this run: `BENCH_SEED`, else a random 32-bit integer. */
export function benchSeed(): number {
  const given = process.env.BENCH_SEED;
  if (given !== undefined && given !== "") {
    const seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new RangeError(`BENCH_SEED must be an integer in [0, 2^32), not ${given}`);
    return seed;
  }
  return Math.floor(Math.random() * 0x100000000);
}

/** A bench body of `bench/corpus/`, e.g. `valid-16k.json`. */
export function corpus(file: string): Uint8Array {
  return new Uint8Array(readFileSync(join(import.meta.dirname, "corpus", file)));
}

/** The bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** The hostile shapes of about 1 MiB the parser bench times (what costs the most CPU per byte). */
export function hostileBodies(): [string, Uint8Array][] {
  const size = 1 << 20;
  const members: string[] = [];
  for (let k = 0, n = 2; n < size; k++) {
    const member = `"k${String(k).padStart(5, "0")}":${k % 10}`;
    members.push(member);
    n += member.length + 1;
  }
  members.pop();
  return [
    [`object of ${members.length} distinct names`, utf8(`{${members.join(",")}}`)],
    ["131071 × 1.5e300", utf8(`[${new Array<string>(131071).fill("1.5e300").join(",")}]`)],
    [
      `${size / 2 - 1} × 0 (the most elements a 1 MiB body holds)`,
      utf8(`[${new Array<string>(size / 2 - 1).fill("0").join(",")}]`),
    ],
  ];
}

/**
 * The shapes `test/node/json/parse.test.ts` throws at the parser: 10⁶ nested openers, names of
 * `Object.prototype` (duplicated and not), 400-digit numbers, names longer than the cache
 * holds, texts padded past the whole-text decoding size, escapes and surrogates.
 */
export function testShapes(): Uint8Array[] {
  const texts: string[] = [
    "[".repeat(1_000_000),
    '{"a":'.repeat(200_000),
    `${'[{"a":'.repeat(40)}[]${"}]".repeat(40)}`,
    `1${"0".repeat(400)}`,
    `1${"0".repeat(400)}e-400`,
    "-1e400",
    "9007199254740992",
    `{"${"n".repeat(40)}":1,"${"n".repeat(40)}":2}`,
    '"\\uD800"',
    '"\\uDE00\\uD83D"',
    '"\\uD83D\\uDE00 \\u00e9 \\n"',
    `[${" ".repeat(70_000)}1,"${"é".repeat(100)}"]`,
    `${" ".repeat(70_000)}{"a":1,"a":2}`,
  ];
  for (const name of specialNames) {
    const n = JSON.stringify(name);
    texts.push(`{${n}:1}`, `{${n}:1,${n}:2}`, `[{${n}:{${n}:[]}}]`);
  }
  const bytes = texts.map(utf8);
  bytes.push(
    Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0x7d),
    Uint8Array.of(0x22, 0xc0, 0xaf, 0x22),
    Uint8Array.of(0x22, 0xed, 0xa0, 0x80, 0x22),
  );
  return bytes;
}

/** Every file of JSONTestSuite's `test_parsing`, as raw bytes. */
export function jsonTestSuite(): Uint8Array[] {
  const directory = join(root, "test/fixtures/JSONTestSuite/test_parsing");
  return readdirSync(directory)
    .sort()
    .map((file) => new Uint8Array(readFileSync(join(directory, file))));
}

/** The kinds of token a truncation may cut a body in. */
type TokenKind =
  | "object-open"
  | "array-open"
  | "name"
  | "colon"
  | "string"
  | "escape"
  | "number"
  | "literal"
  | "comma"
  | "close"
  | "non-ascii";

/** Each byte offset of `b` (a JSON text) by the kind of token it lies in. */
function tokenOffsets(b: Uint8Array): Map<TokenKind, number[]> {
  const found = new Map<TokenKind, number[]>();
  const add = (kind: TokenKind, i: number) => {
    const list = found.get(kind);
    if (list === undefined) found.set(kind, [i]);
    else list.push(i);
  };
  const objects: boolean[] = [];
  let expectName = false;
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x22) {
      const kind: TokenKind = expectName ? "name" : "string";
      add(kind, i);
      for (i++; i < b.length && b[i] !== 0x22; i++) {
        if (b[i] === 0x5c) {
          add("escape", i);
          i++;
        } else if (b[i]! >= 0x80) add("non-ascii", i);
        add(kind, i);
      }
      expectName = false;
    } else if (c === 0x7b) {
      add("object-open", i);
      objects.push(true);
      expectName = true;
    } else if (c === 0x5b) {
      add("array-open", i);
      objects.push(false);
    } else if (c === 0x7d || c === 0x5d) {
      add("close", i);
      objects.pop();
    } else if (c === 0x2c) {
      add("comma", i);
      expectName = objects[objects.length - 1] === true;
    } else if (c === 0x3a) add("colon", i);
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b)
      add("number", i);
    else if (c >= 0x61 && c <= 0x7a) add("literal", i);
  }
  return found;
}

const STRUCTURAL = utf8('{}[],:"');
const BAD_UTF8 = [
  [0xff],
  [0x80],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
];
const TRAILING = ["x", ",", "}", "]", "{}", "0", '"', " 1", "\u0000", "nul"].map(utf8);

function splice(b: Uint8Array, at: number, remove: number, insert: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(b.length - remove + insert.length);
  out.set(b.subarray(0, at));
  out.set(insert, at);
  out.set(b.subarray(at + remove), at + insert.length);
  return out;
}

/**
 * `count` mutations of `bodies` drawn from `seed`, each kind in turn: a truncation inside each
 * kind of token, a flipped byte, an inserted structural byte, invalid UTF-8 inside a string, a
 * duplicated member name, deep openers before a value, trailing bytes after the text.
 */
export function mutations(bodies: readonly Uint8Array[], count: number, seed: number): Uint8Array[] {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const tokens = bodies.map(tokenOffsets);
  const out: Uint8Array[] = [];
  for (let k = 0; out.length < count; k++) {
    // Smaller bodies more often: the seasoning is about the variety of rejections, not bytes.
    const which = rnd() < 0.6 ? 0 : rnd() < 0.85 ? 1 : 2;
    const index = Math.min(which, bodies.length - 1);
    const b = bodies[index]!;
    const offsets = tokens[index]!;
    switch (k % 7) {
      case 0: {
        const kinds = [...offsets.keys()];
        const kind = kinds[Math.floor(k / 7) % kinds.length]!;
        const at = pick(offsets.get(kind)!);
        out.push(b.slice(0, at + (rnd() < 0.5 ? 0 : 1)));
        break;
      }
      case 1: {
        const at = Math.floor(rnd() * b.length);
        const flipped = b.slice();
        flipped[at] = flipped[at]! ^ (1 + Math.floor(rnd() * 255));
        out.push(flipped);
        break;
      }
      case 2:
        out.push(splice(b, Math.floor(rnd() * b.length), rnd() < 0.5 ? 1 : 0, [pick([...STRUCTURAL])]));
        break;
      case 3: {
        const inside = offsets.get(rnd() < 0.5 ? "string" : "name") ?? [1];
        out.push(splice(b, pick(inside) + 1, 0, pick(BAD_UTF8)));
        break;
      }
      case 4: {
        // `{"x":` becomes `{"x":0,"x":`: the object's first name twice.
        const at = pick(offsets.get("object-open") ?? [0]);
        const close = b.indexOf(0x22, at + 2);
        if (b[at + 1] !== 0x22 || close < 0) {
          out.push(splice(b, 1, 0, utf8('"a":0,"a":0,')));
          break;
        }
        const name = b.subarray(at + 1, close + 1);
        out.push(splice(b, at + 1, 0, [...name, 0x3a, 0x30, 0x2c]));
        break;
      }
      case 5: {
        const depth = 1 + Math.floor(rnd() * 200);
        const opener = [...utf8(rnd() < 0.5 ? "[" : '{"a":')];
        const deep: number[] = [];
        for (let d = 0; d < depth; d++) deep.push(...opener);
        const at = rnd() < 0.5 ? 0 : pick(offsets.get("colon") ?? [0]) + 1;
        out.push(splice(b, at, 0, deep));
        break;
      }
      default: {
        const tail = pick(TRAILING);
        const padded = new Uint8Array(b.length + tail.length);
        padded.set(b);
        padded.set(tail, b.length);
        out.push(padded);
      }
    }
  }
  return out;
}

/** The bodies a parser bench mutates: the valid page bodies of 1, 16 and 256 KiB. */
export function benchBodies(): Uint8Array[] {
  return ["1k", "16k", "256k"].map((size) => corpus(`valid-${size}.json`));
}

/** The number of mutations in the parser seasoning (at least 10,000; `BENCH_MUTATIONS`). */
export const mutationCount = Math.max(10_000, Number(process.env.BENCH_MUTATIONS ?? 10_000));

/** Everything a seasoned parser has seen: JSONTestSuite, the hostile shapes, the mutations. */
export function parserSeasoning(seed: number): Uint8Array[] {
  return [
    ...jsonTestSuite(),
    ...testShapes(),
    ...hostileBodies().map(([, body]) => body),
    ...mutations(benchBodies(), mutationCount, seed),
  ];
}

/** Runs `fn` on each input, a rejection (any throw) counted; returns how many were rejected. */
export function feed<T>(inputs: readonly T[], fn: (input: T) => unknown): number {
  let rejected = 0;
  for (const input of inputs) {
    try {
      fn(input);
    } catch {
      rejected++;
    }
  }
  return rejected;
}

/** The invalid instances (`valid: false`) of the JSON-Schema-Test-Suite, draft 2020-12. */
export function schemaSuiteInvalid(): unknown[] {
  const directory = join(root, "test/fixtures/JSON-Schema-Test-Suite/tests/draft2020-12");
  const found: unknown[] = [];
  for (const file of readdirSync(directory).sort()) {
    if (!file.endsWith(".json")) continue;
    const groups = JSON.parse(readFileSync(join(directory, file), "utf8")) as {
      tests: { data: unknown; valid: boolean }[];
    }[];
    for (const group of groups) for (const test of group.tests) if (!test.valid) found.push(test.data);
  }
  return found;
}

/** A copy of `value` with one node (chosen by `rnd`) changed in type, removed, or given a stranger. */
function mutateValue(value: unknown, rnd: () => number): unknown {
  const copy = structuredClone(value);
  const replacements: unknown[] = [null, 0, -1.5, 1e300, "", "x".repeat(300), true, [], {}, [1, "a"], { "": 0 }];
  let node: unknown = copy;
  let parent: Record<string, unknown> | unknown[] | undefined;
  let key: string | number | undefined;
  // A random walk down, stopping early with probability 1/4 at each level.
  for (;;) {
    const children = Array.isArray(node)
      ? node.map((_, i) => i)
      : node !== null && typeof node === "object"
        ? Object.keys(node)
        : [];
    if (children.length === 0 || rnd() < 0.25) break;
    parent = node as Record<string, unknown>;
    key = children[Math.floor(rnd() * children.length)]!;
    node = (parent as Record<string | number, unknown>)[key];
  }
  const choice = rnd();
  if (parent === undefined || key === undefined) return replacements[Math.floor(choice * replacements.length)];
  const target = parent as Record<string | number, unknown>;
  if (choice < 0.5) target[key] = replacements[Math.floor(rnd() * replacements.length)];
  else if (choice < 0.7 && !Array.isArray(parent)) delete target[key];
  else if (choice < 0.85 && node !== null && typeof node === "object" && !Array.isArray(node))
    (node as Record<string, unknown>)[pick(specialNames, rnd)] = 1;
  else target[key] = Array.isArray(node) ? [...node, ...node] : [node];
  return copy;
}

function pick<T>(xs: readonly T[], rnd: () => number): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

/** What a seasoned validator has seen: the suite's invalid instances and `count` mutated page values. */
export function valueSeasoning(seed: number, count = 5000): unknown[] {
  const rnd = random(seed ^ 0x5eed);
  const pages = ["1k", "16k"].map(
    (size) => JSON.parse(new TextDecoder().decode(corpus(`valid-${size}.json`))) as unknown,
  );
  const values = schemaSuiteInvalid();
  for (let k = 0; k < count; k++) values.push(mutateValue(pages[k % 5 === 4 ? 1 : 0], rnd));
  return values;
}

/**
 * Runs `node <file> --column <name>` once per column and round, columns alternated (fresh,
 * seasoned, seasoned, fresh, …), each in a process of its own; each child prints one JSON
 * line last. Returns the parsed lines per column, in order.
 */
export async function runColumns<T>(
  file: string,
  columns: readonly string[],
  processes: number,
  env: Record<string, string>,
): Promise<Record<string, T[]>> {
  const results: Record<string, T[]> = Object.fromEntries(columns.map((column) => [column, []]));
  for (let r = 0; r < processes; r++) {
    for (const column of r % 2 === 0 ? columns : [...columns].reverse()) {
      const out = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [file, "--column", column], {
          env: { ...process.env, ...env },
          stdio: ["ignore", "pipe", "inherit"],
        });
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => (text += chunk));
        child.on("error", reject);
        child.on("exit", (code) =>
          code === 0 ? resolve(text) : reject(new Error(`${file} --column ${column}: exit ${code}`)),
        );
      });
      const lines = out.trim().split("\n");
      results[column]!.push(JSON.parse(lines[lines.length - 1]!) as T);
    }
  }
  return results;
}

/** The column a child runs (`--column NAME`), or undefined in the parent. */
export function childColumn(): string | undefined {
  const at = process.argv.indexOf("--column");
  return at >= 0 ? process.argv[at + 1] : undefined;
}
