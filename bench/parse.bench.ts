/**
 * The strict parser against the non-strict ways to parse a body, on the page workload
 * (`bench/corpus/`, bodies of about 1, 16 and 256 KiB; issue 3 "Speed"):
 *
 * - `TextDecoder(fatal) + JSON.parse`: the floor, bytes in, value out (the goals are ratios to it);
 * - `JSON.parse(string)`: the text already decoded, for reference;
 * - `TextDecoder + secure-json-parse`: a prototype-poisoning-safe parser, bytes in;
 * - `parseJson(duplicate)`: the same body with a duplicate name in its last object, rejected.
 *
 * Every task runs in short timed slices, rotated within each round, and a ratio is the median
 * over rounds of the ratio measured in that round, so drift on a shared machine hits both
 * sides alike. Figures vary from run to run; compare the ratios of one run.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sjson from "secure-json-parse";
import { parseJson } from "../src/json/parse.ts";
import { JsonSyntaxError } from "../src/json/json-syntax-error.ts";

const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
/** Length of one timed slice of one task, in milliseconds. */
const sliceMs = Number(process.env.BENCH_SLICE_MS ?? 40);

const goals: Record<string, number> = { "1k": 0.9, "16k": 0.95, "256k": 1.5 };

function corpus(file: string): Uint8Array {
  return new Uint8Array(readFileSync(join(import.meta.dirname, "corpus", file)));
}

/** Operations per second of `fn` over one slice; `fn` runs in batches so the clock is read rarely. */
function slice(fn: () => unknown): number {
  let runs = 0;
  let batch = 1;
  const t0 = performance.now();
  let elapsed = 0;
  do {
    for (let k = 0; k < batch; k++) fn();
    runs += batch;
    elapsed = performance.now() - t0;
    if (elapsed < sliceMs / 20) batch *= 2;
  } while (elapsed < sliceMs);
  return (runs * 1000) / elapsed;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

type Task = readonly [name: string, fn: () => unknown];

/** Runs the tasks for `rounds` rounds; returns each task's ops/s per round. */
function measure(tasks: readonly Task[]): number[][] {
  const rates = tasks.map(() => [] as number[]);
  for (const [, fn] of tasks) slice(fn); // warm-up: every task reaches optimized code first
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < tasks.length; k++) {
      const t = (k + r) % tasks.length;
      rates[t]!.push(slice(tasks[t]![1]));
    }
  }
  return rates;
}

/** The median over rounds of a[r] / b[r]. */
function ratio(a: number[], b: number[]): number {
  return median(a.map((x, r) => x / b[r]!));
}

export default async function parseBench(): Promise<void> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const rows: string[][] = [];
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
    ]);
    const mbps = (rates: number[]) => ((median(rates) * valid.length) / 1e6).toFixed(0);
    const vsFloor = ratio(ours!, floor!);
    const dupVsValid = ratio(dup!, ours!);
    const goal = goals[size]!;
    rows.push([
      size,
      String(valid.length),
      mbps(floor!),
      mbps(string!),
      mbps(secure!),
      mbps(ours!),
      `${vsFloor.toFixed(2)}× (goal ≥ ${goal}× ${vsFloor >= goal ? "met" : "NOT met"})`,
      `${ratio(ours!, string!).toFixed(2)}×`,
      `${ratio(ours!, secure!).toFixed(2)}×`,
      `${dupVsValid.toFixed(2)}×${size === "256k" ? ` (goal ≥ 1× ${dupVsValid >= 1 ? "met" : "NOT met"})` : ""}`,
    ]);
  }
  const head = [
    "body",
    "bytes",
    "TextDecoder+JSON.parse MB/s",
    "JSON.parse(string) MB/s",
    "TextDecoder+secure-json-parse MB/s",
    "parseJson MB/s",
    "parseJson ÷ TextDecoder+JSON.parse",
    "÷ JSON.parse(string)",
    "÷ secure-json-parse",
    "duplicate rejected ÷ valid accepted",
  ];
  console.log(`parseJson, ${rounds} rounds of ${sliceMs} ms slices, medians of per-round ratios\n`);
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map((_, k) => (k < 2 ? " --- " : " ---: ")).join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) await parseBench();
