/**
 * The strict parser against the non-strict ways to parse a body, on the page workload
 * (`bench/corpus/`, bodies of about 1, 16 and 256 KiB; issue 3 "Speed"):
 *
 * - `TextDecoder(fatal) + JSON.parse`: the floor, bytes in, value out (the goals are ratios to it);
 * - `JSON.parse(string)`: the text already decoded, for reference;
 * - `TextDecoder + secure-json-parse`: a prototype-poisoning-safe parser, bytes in;
 * - `parseJson(duplicate)`: the same body with a duplicate name in its last object, rejected.
 *
 * Then hostile shapes of about 1 MiB (what an attacker sends to spend CPU per byte), each
 * parseJson ÷ `TextDecoder(fatal) + JSON.parse`, generated here: one object of about 95k
 * distinct short member names, an array of 131k numbers like `1.5e300` (off Clinger's
 * fast path), and an array of 524k zeros (the most elements 1 MiB holds).
 *
 * Two columns, each measured in processes of its own (fresh and seasoned alternated,
 * `BENCH_PROCESSES` of each): fresh, a process that has parsed nothing before; seasoned, one
 * that has first fed both sides everything `season.ts` draws (JSONTestSuite, the test suite's
 * hostile shapes, ≥ 10,000 seeded mutations of the bench bodies; issue 16). The seed is
 * printed; `BENCH_SEED` sets it.
 *
 * The tasks alternate in batches of about half a millisecond within each round (one call
 * each at 256 KiB), a task's speed in a round is its median batch, and a ratio is the median
 * over rounds of the ratio measured in that round, so drift and garbage collections on a
 * shared machine hit both sides alike. Figures vary from run to run; compare the ratios of one run.
 */
import sjson from "secure-json-parse";
import { JsonSyntaxError } from "../src/json/json-syntax-error.ts";
import { parseJson } from "../src/json/parse.ts";
import {
  benchSeed,
  childColumn,
  corpus,
  feed,
  hostileBodies,
  mutationCount,
  parserSeasoning,
  runColumns,
} from "./season.ts";

const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
/** Time given to each task in one round, in milliseconds. */
const sliceMs = Number(process.env.BENCH_SLICE_MS ?? 40);

/** The goals of parseJson ÷ `TextDecoder(fatal)` + `JSON.parse`, seasoned (issue 16). */
const goals: Record<string, number> = { "1k": 1.0, "16k": 1.1, "256k": 0.85 };

/** How many calls of `fn` take about `ms` milliseconds (at least one). */
function calibrate(fn: () => unknown, ms: number): number {
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    for (let k = 0; k < n; k++) fn();
    const elapsed = performance.now() - t0;
    if (elapsed >= ms || n >= 1 << 20) return Math.max(1, Math.round((n * ms) / Math.max(elapsed, 1e-3)));
    n *= 2;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

type Task = readonly [name: string, fn: () => unknown];

/**
 * Runs the tasks for `rounds` rounds; returns each task's ops/s per round. Within a round the
 * tasks alternate in batches of about half a millisecond for `sliceMs` each, so that a change
 * in the machine's load falls on every task alike.
 */
function measure(tasks: readonly Task[]): number[][] {
  const rates = tasks.map(() => [] as number[]);
  for (const [, fn] of tasks) calibrate(fn, 50); // warm-up: every task reaches optimized code first
  const batches = tasks.map(([, fn]) => calibrate(fn, 0.5));
  for (let r = 0; r < rounds; r++) {
    const perCall = tasks.map(() => [] as number[]);
    const t0 = performance.now();
    while (performance.now() - t0 < sliceMs * tasks.length) {
      for (let t = 0; t < tasks.length; t++) {
        const fn = tasks[t]![1];
        const n = batches[t]!;
        const start = performance.now();
        for (let k = 0; k < n; k++) fn();
        perCall[t]!.push((performance.now() - start) / n);
      }
    }
    // The median batch, so that a garbage collection landing in one task's batch does not
    // decide the round.
    tasks.forEach((_, t) => {
      rates[t]!.push(1000 / median(perCall[t]!));
    });
  }
  return rates;
}

/** The median over rounds of a[r] / b[r]. */
function ratio(a: number[], b: number[]): number {
  return median(a.map((x, r) => x / b[r]!));
}

/** Prints parseJson ÷ TextDecoder+JSON.parse on the hostile shapes. */
function hostileBench(decoder: TextDecoder): void {
  const rows: string[][] = [];
  for (const [name, body] of hostileBodies()) {
    if (JSON.stringify(parseJson(body)) !== JSON.stringify(JSON.parse(decoder.decode(body)))) {
      throw new Error(`parseJson and JSON.parse disagree on ${name}`);
    }
    const [floor, ours] = measure([
      ["TextDecoder + JSON.parse", () => JSON.parse(decoder.decode(body))],
      ["parseJson", () => parseJson(body)],
    ]);
    const ms = (rates: number[]) => (1000 / median(rates)).toFixed(1);
    rows.push([name, String(body.length), ms(floor!), ms(ours!), `${ratio(ours!, floor!).toFixed(2)}×`]);
  }
  const head = [
    "hostile body",
    "bytes",
    "TextDecoder+JSON.parse ms",
    "parseJson ms",
    "parseJson ÷ TextDecoder+JSON.parse",
  ];
  console.log(`\nhostile shapes, ${rounds} rounds\n`);
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map((_, k) => (k < 2 ? " --- " : " ---: ")).join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

/** Per size, each task's ops/s per round, as one child measured them. */
interface ChildResult {
  column: string;
  seasoning: { inputs: number; rejected: number; ms: number };
  sizes: Record<
    string,
    { bytes: number; floor: number[]; string: number[]; secure: number[]; ours: number[]; dup: number[] }
  >;
}

/** In a child: seasons the process when asked (`--column seasoned`), then times every task. */
function child(column: string): ChildResult {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const seasoning = { inputs: 0, rejected: 0, ms: 0 };
  if (column === "seasoned") {
    const t0 = performance.now();
    const inputs = parserSeasoning(Number(process.env.BENCH_SEED));
    // Both sides see the same inputs, so that whatever seasoning does to V8 it does to both.
    seasoning.rejected = feed(inputs, (bytes) => parseJson(bytes));
    feed(inputs, (bytes) => JSON.parse(decoder.decode(bytes)));
    seasoning.inputs = inputs.length;
    seasoning.ms = performance.now() - t0;
  }
  const sizes: ChildResult["sizes"] = {};
  for (const size of ["1k", "16k", "256k"]) {
    const valid = corpus(`valid-${size}.json`);
    const duplicate = corpus(`duplicate-key-${size}.json`);
    const text = decoder.decode(valid);
    // The value each side returns must be the same before any figure means anything.
    if (JSON.stringify(parseJson(valid)) !== JSON.stringify(JSON.parse(text))) {
      throw new Error(`parseJson and JSON.parse disagree on valid-${size}.json`);
    }
    try {
      parseJson(duplicate);
      throw new Error(`parseJson accepted duplicate-key-${size}.json`);
    } catch (error) {
      if (!(error instanceof JsonSyntaxError) || error.code !== "duplicate-name") throw error;
    }
    const rejectDuplicate = () => {
      try {
        return parseJson(duplicate);
      } catch (error) {
        return error;
      }
    };
    const [floor, string, secure, ours, dup] = measure([
      ["TextDecoder + JSON.parse", () => JSON.parse(decoder.decode(valid))],
      ["JSON.parse(string)", () => JSON.parse(text)],
      ["TextDecoder + secure-json-parse", () => sjson.parse(decoder.decode(valid))],
      ["parseJson", () => parseJson(valid)],
      ["parseJson(duplicate), rejected", rejectDuplicate],
    ]) as [number[], number[], number[], number[], number[]];
    sizes[size] = { bytes: valid.length, floor, string, secure, ours, dup };
  }
  return { column, seasoning, sizes };
}

/** The per-round ratios a[r] / b[r] of every child of a column, pooled. */
function pooled(
  results: readonly ChildResult[],
  size: string,
  a: "ours" | "dup",
  b: "floor" | "string" | "secure" | "ours",
): number {
  return median(results.flatMap((result) => result.sizes[size]![a].map((x, r) => x / result.sizes[size]![b][r]!)));
}

/** The median over every child and round of a column of one task's ops/s. */
function rate(results: readonly ChildResult[], size: string, task: "floor" | "ours" | "dup"): number {
  return median(results.flatMap((result) => result.sizes[size]![task]));
}

export default async function parseBench(): Promise<void> {
  const seed = benchSeed();
  const processes = Number(process.env.BENCH_PROCESSES ?? 2);
  const columns = ["fresh", "seasoned"] as const;
  console.log(
    `parseJson: ${processes} processes per column (fresh and seasoned alternated, one process each), ${rounds} rounds of ${sliceMs} ms per task (alternating ~0.5 ms batches), medians of per-round ratios; seasoning seed ${seed} (set with BENCH_SEED), ${mutationCount} mutations\n`,
  );
  const results = await runColumns<ChildResult>(import.meta.filename, columns, processes, { BENCH_SEED: String(seed) });
  const s = results.seasoned![0]!.seasoning;
  console.log(
    `seasoning: ${s.inputs} inputs (JSONTestSuite, test shapes, hostile shapes, mutations), ${s.rejected} rejected by parseJson, ${(s.ms / 1000).toFixed(1)} s for both sides\n`,
  );
  const mark = (x: number, goal: number) => `${x.toFixed(2)}× (≥ ${goal} ${x >= goal ? "met" : "NOT met"})`;
  const rows: string[][] = [];
  for (const size of ["1k", "16k", "256k"]) {
    const fresh = results.fresh!;
    const seasoned = results.seasoned!;
    const goal = goals[size]!;
    const dup = pooled(seasoned, size, "dup", "ours");
    rows.push([
      size,
      String(fresh[0]!.sizes[size]!.bytes),
      ((rate(seasoned, size, "floor") * fresh[0]!.sizes[size]!.bytes) / 1e6).toFixed(0),
      ((rate(seasoned, size, "ours") * fresh[0]!.sizes[size]!.bytes) / 1e6).toFixed(0),
      `${pooled(fresh, size, "ours", "floor").toFixed(2)}×`,
      mark(pooled(seasoned, size, "ours", "floor"), goal),
      `${(rate(seasoned, size, "ours") / rate(fresh, size, "ours")).toFixed(2)}×`,
      `${(rate(seasoned, size, "floor") / rate(fresh, size, "floor")).toFixed(2)}×`,
      mark(pooled(seasoned, size, "ours", "floor") / pooled(fresh, size, "ours", "floor"), 0.95),
      `${pooled(seasoned, size, "ours", "string").toFixed(2)}×`,
      `${pooled(seasoned, size, "ours", "secure").toFixed(2)}×`,
      size === "256k" ? mark(dup, 1) : `${dup.toFixed(2)}×`,
    ]);
  }
  const head = [
    "body",
    "bytes",
    "seasoned TextDecoder+JSON.parse MB/s",
    "seasoned parseJson MB/s",
    "fresh: parseJson ÷ TextDecoder+JSON.parse",
    "seasoned: parseJson ÷ TextDecoder+JSON.parse",
    "parseJson seasoned ÷ fresh",
    "floor seasoned ÷ fresh (the machine's drift between processes)",
    "parseJson seasoned ÷ fresh, drift removed (÷ floor in each process)",
    "seasoned ÷ JSON.parse(string)",
    "seasoned ÷ secure-json-parse",
    "seasoned: duplicate rejected ÷ valid accepted",
  ];
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map((_, k) => (k < 2 ? " --- " : " ---: ")).join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  if (process.env.BENCH_HOSTILE !== "0") hostileBench(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }));
}

const column = childColumn();
if (column !== undefined) console.log(JSON.stringify(child(column)));
else if (import.meta.url === `file://${process.argv[1]}`) await parseBench();
