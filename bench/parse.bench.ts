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
 * The tasks alternate in batches of about half a millisecond within each round (one call
 * each at 256 KiB), a task's speed in a round is its median batch, and a ratio is the median
 * over rounds of the ratio measured in that round, so drift and garbage collections on a
 * shared machine hit both sides alike. Figures vary from run to run; compare the ratios of one run.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sjson from "secure-json-parse";
import { JsonSyntaxError } from "../src/json/json-syntax-error.ts";
import { parseJson } from "../src/json/parse.ts";

const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
/** Time given to each task in one round, in milliseconds. */
const sliceMs = Number(process.env.BENCH_SLICE_MS ?? 40);

const goals: Record<string, number> = { "1k": 0.9, "16k": 0.95, "256k": 1.5 };

function corpus(file: string): Uint8Array {
  return new Uint8Array(readFileSync(join(import.meta.dirname, "corpus", file)));
}

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

/** The bytes of `text`. */
function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** The hostile shapes, each about 1 MiB: name → bytes. */
function hostileBodies(): [string, Uint8Array][] {
  const size = 1 << 20;
  const members: string[] = [];
  for (let k = 0, n = 2; n < size; k++) {
    const member = `"k${String(k).padStart(5, "0")}":${k % 10}`;
    members.push(member);
    n += member.length + 1;
  }
  members.pop();
  const manyNames = `{${members.join(",")}}`;
  const bigExponents = `[${new Array<string>(131071).fill("1.5e300").join(",")}]`;
  const zeros = `[${new Array<string>(size / 2 - 1).fill("0").join(",")}]`;
  return [
    [`object of ${members.length} distinct names`, utf8(manyNames)],
    ["131071 × 1.5e300", utf8(bigExponents)],
    [`${size / 2 - 1} × 0 (the most elements a 1 MiB body holds)`, utf8(zeros)],
  ];
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
  console.log(
    `parseJson, ${rounds} rounds of ${sliceMs} ms per task (alternating ~0.5 ms batches), medians of per-round ratios\n`,
  );
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map((_, k) => (k < 2 ? " --- " : " ---: ")).join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  if (process.env.BENCH_HOSTILE !== "0") hostileBench(decoder);
}

if (import.meta.url === `file://${process.argv[1]}`) await parseBench();
