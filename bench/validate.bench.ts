/**
 * The generated page validator against the JavaScript validators (issue 4 "Speed and size"),
 * on the page workload (`bench/page.form.json`, `bench/corpus/`: valid, fails-early and
 * fails-late bodies of about 1, 16 and 256 KiB, parsed with JSON.parse outside the timed loop):
 *
 * - ajv standalone code (2020 mode, strict), written to a CommonJS file (its runtime helpers are
 *   `require`d) and imported like ours;
 * - @exodus/schemasafe (`validator`, compiled at run time; the fastest anchor);
 * - @cfworker/json-schema (`Validator`, short-circuit on).
 *
 * Also the gzipped size of the generated page validator, and a cold start: a fresh Node
 * process importing the validator and validating one body, ours against ajv standalone.
 * Every task runs in short timed slices, rotated within each round; a ratio is the median over
 * rounds of the per-round ratio. Goals: ≥ 1× schemasafe on valid and fails-late, ≥ 20×
 * cfworker, ≤ 4 KiB gzipped, cold start ≤ ajv standalone's.
 *
 * Then the cost of a call against the number of names a form declares (issue 31): the synthetic
 * `{required: [p(n−1)], properties: {p0…p(n−1): {type: "string"}}}` at 5 to 20,000 names, a
 * value that fails `required` and one valid with two members, through `validateParsed`; goal
 * 5,000 within 10 % of 5 (a per-round ratio of ns per call, median over rounds), and 20,000 ÷
 * 1,000 beside it: whether a wide form's cost still grows with its names.
 *
 * Then ours ÷ schemasafe in fresh and seasoned processes (issue 16): a seasoned one has first
 * given both validators every invalid instance of the JSON-Schema-Test-Suite and mutated page
 * values (`season.ts`, seed printed, `BENCH_SEED`); goal ≥ 1.5× seasoned.
 */

import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { Validator } from "@cfworker/json-schema";
import { validator as schemasafe } from "@exodus/schemasafe";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { compileForm } from "../src/compile/compile-form.ts";
import { benchSeed, childColumn, feed, runColumns, valueSeasoning } from "./season.ts";

const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
/** Length of one timed slice of one task, in milliseconds. */
const sliceMs = Number(process.env.BENCH_SLICE_MS ?? 40);

type Validate = (value: unknown) => boolean;

/** A path beside this file. */
function local(name: string): string {
  return fileURLToPath(new URL(name, import.meta.url).href);
}

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
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function measure(tasks: ReadonlyArray<() => unknown>): number[][] {
  const rates = tasks.map(() => [] as number[]);
  for (const fn of tasks) slice(fn);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < tasks.length; k++) {
      const t = (k + r) % tasks.length;
      rates[t]?.push(slice(tasks[t] as () => unknown));
    }
  }
  return rates;
}

function ratio(a: number[], b: number[]): number {
  return median(a.map((x, r) => x / (b[r] as number)));
}

/** Writes generated modules where bare imports (ajv's runtime) resolve, and returns their URLs. */
function writeModules(files: Record<string, string>): Record<string, string> {
  const directory = new URL("../node_modules/.cache/gpt-address-bench/", import.meta.url).href;
  mkdirSync(fileURLToPath(directory), { recursive: true });
  return Object.fromEntries(
    Object.entries(files).map(([name, text]) => {
      const url = new URL(name, directory).href;
      writeFileSync(fileURLToPath(url), text);
      return [name, url];
    }),
  );
}

function coldStart(url: string, body: string): number {
  const script =
    `const t0 = performance.now(); const m = await import(${JSON.stringify(url)}); const v = m.validate ?? m.default;` +
    `const ok = v(JSON.parse(${JSON.stringify(readFileSync(body, "utf8"))})); if (!ok) process.exit(2); console.log(performance.now() - t0);`;
  return Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }).trim());
}

/**
 * The validators of the fresh/seasoned comparison, built in a child (issue 16): ours (its
 * `validateParsed`, what the doors call), schemasafe, and `twin`, the same generated code as ours imported from a second file, so that
 * it is a module of its own with feedback of its own, which is never seasoned.
 */
async function oursAndSchemasafe(): Promise<{ ours: Validate; safe: Validate; twin: Validate }> {
  const form = JSON.parse(readFileSync(local("page.form.json"), "utf8")) as Record<string, unknown>;
  const code = compileForm(form, { source: "bench/page.form.json" });
  const urls = writeModules({ "page.ours.mjs": code, "page.twin.mjs": code });
  const load = async (name: string) =>
    ((await import(urls[name] as string)) as { validateParsed: Validate }).validateParsed;
  return {
    ours: await load("page.ours.mjs"),
    safe: schemasafe(form as never) as Validate,
    twin: await load("page.twin.mjs"),
  };
}

/** Per body, ours', schemasafe's and the twin's validations/s per round, as one child measured them. */
interface ChildResult {
  seasoning: number;
  bodies: Record<string, { ours: number[]; safe: number[]; twin: number[] }>;
}

/**
 * In a child: seasons both validators when asked (`--column seasoned`: every invalid instance
 * of the JSON-Schema-Test-Suite and mutated page values, from `BENCH_SEED`), then times both
 * on the valid and fails-late bodies.
 */
async function child(column: string): Promise<ChildResult> {
  const { ours, safe, twin } = await oursAndSchemasafe();
  let seasoning = 0;
  if (column === "seasoned") {
    const values = valueSeasoning(Number(process.env.BENCH_SEED));
    for (let r = 0; r < 3; r++) {
      feed(values, ours);
      feed(values, safe);
    }
    seasoning = values.length;
  }
  const bodies: ChildResult["bodies"] = {};
  for (const kind of ["valid", "fails-late"]) {
    for (const size of ["1k", "16k", "256k"]) {
      const body = JSON.parse(readFileSync(local(`corpus/${kind}-${size}.json`), "utf8")) as unknown;
      if (ours(body) !== (kind === "valid") || safe(body) !== (kind === "valid") || twin(body) !== (kind === "valid"))
        throw new Error(`a validator is wrong on ${kind}-${size}`);
      const [o, s, t] = measure([() => ours(body), () => safe(body), () => twin(body)]) as [
        number[],
        number[],
        number[],
      ];
      bodies[`${kind}-${size}`] = { ours: o, safe: s, twin: t };
    }
  }
  return { seasoning, bodies };
}

/** Ours ÷ schemasafe, fresh and seasoned, each column in processes of its own. */
async function seasonedBench(): Promise<void> {
  const seed = benchSeed();
  const processes = Number(process.env.BENCH_PROCESSES ?? 2);
  const results = await runColumns<ChildResult>(fileURLToPath(import.meta.url), ["fresh", "seasoned"], processes, {
    BENCH_SEED: String(seed),
  });
  /** The median over every round of every process of a column of ours' rate ÷ another's. */
  const pooled = (column: string, body: string, other: "safe" | "twin") =>
    median(
      results[column]!.flatMap((result) => {
        const rates = result.bodies[body]!;
        return rates.ours.map((x, r) => x / rates[other][r]!);
      }),
    );
  const rate = (column: string, body: string) =>
    median(results[column]!.flatMap((result) => result.bodies[body]!.ours));
  console.log(
    `\nours ÷ schemasafe, fresh and seasoned (${results.seasoned![0]!.seasoning} values: the JSON-Schema-Test-Suite's invalid instances and mutated page values, seed ${seed}, 3 times through both), ${processes} processes per column; the twin is ours imported a second time and never seasoned, timed in the same process, so ours ÷ twin is what seasoning costs ours without the machine's drift between processes (≈ 1 in fresh processes)\n`,
  );
  const head = [
    "body",
    "fresh ours ÷ schemasafe",
    "seasoned ours ÷ schemasafe (goal ≥ 1.5)",
    "ours seasoned ÷ fresh",
    "fresh ours ÷ twin",
    "seasoned ours ÷ twin",
  ];
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map((_, k) => (k === 0 ? " --- " : " ---: ")).join("|")}|`);
  for (const body of Object.keys(results.fresh![0]!.bodies)) {
    const seasoned = pooled("seasoned", body, "safe");
    const cells = [
      `${pooled("fresh", body, "safe").toFixed(2)}×`,
      `${seasoned.toFixed(2)}× ${seasoned >= 1.5 ? "met" : "NOT met"}`,
      `${(rate("seasoned", body) / rate("fresh", body)).toFixed(2)}×`,
      `${pooled("fresh", body, "twin").toFixed(2)}×`,
      `${pooled("seasoned", body, "twin").toFixed(2)}×`,
    ];
    console.log(`| ${body} | ${cells.join(" | ")} |`);
  }
}

/** `{properties: {p0…p(n−1)}}`, strings, `p(n−1)` required: issue 31's synthetic form. */
function names(n: number): Record<string, unknown> {
  return {
    type: "object",
    required: [`p${n - 1}`],
    properties: Object.fromEntries(Array.from({ length: n }, (_, k) => [`p${k}`, { type: "string" }])),
  };
}

/**
 * ns per `validateParsed` call against the names a form declares, failing and valid (issue 31):
 * 5 and 200 names (compiled inline), 1,000, 5,000 and 20,000 (over `inlineWeight`: the member
 * loop). Two ratios: 5,000 ÷ 5 (the goal, ≤ 1.10) and 20,000 ÷ 1,000, whether the cost
 * of a wide form still grows with its names.
 */
export async function namesBench(): Promise<void> {
  const counts = [5, 200, 1000, 5000, 20000];
  const urls = writeModules(Object.fromEntries(counts.map((n) => [`names-${n}.mjs`, compileForm(names(n))])));
  const labels: string[] = [];
  const tasks: Array<() => unknown> = [];
  for (const n of counts) {
    const { validateParsed } = (await import(urls[`names-${n}.mjs`] as string)) as { validateParsed: Validate };
    // 16 distinct objects of one shape, as parsed acts are: fail `required`, or valid with two members.
    const values = {
      fail: Array.from({ length: 16 }, (_, k) => JSON.parse(`{"p0":"x${k}"}`) as unknown),
      valid: Array.from({ length: 16 }, (_, k) => JSON.parse(`{"p0":"x${k}","p${n - 1}":"y"}`) as unknown),
    };
    for (const [kind, list] of Object.entries(values)) {
      for (const value of list)
        if (validateParsed(value) !== (kind === "valid")) throw new Error(`${n} names: wrong on ${kind}`);
      let k = 0;
      labels.push(`${n} ${kind}`);
      // 64 calls a task run, so that the harness's own cost is small beside them.
      tasks.push(() => {
        for (let j = 0; j < 64; j++) validateParsed(list[k++ & 15]);
      });
    }
  }
  const measured = measure(tasks);
  const rates = Object.fromEntries(labels.map((label, t) => [label, (measured[t] as number[]).map((x) => x * 64)]));
  const rows: string[][] = [];
  for (const kind of ["fail", "valid"]) {
    const at = (n: number) => rates[`${n} ${kind}`] as number[];
    const goal = ratio(at(5), at(5000));
    rows.push([
      kind,
      ...counts.map((n) => (1e9 / median(at(n))).toFixed(1)),
      `${goal.toFixed(2)}× ${goal <= 1.1 ? "met" : "NOT met"}`,
      `${ratio(at(1000), at(20000)).toFixed(2)}×`,
    ]);
  }
  const head = [
    "value",
    ...counts.map((n) => `${n.toLocaleString("en")} names ns/call`),
    "5,000 ÷ 5 (goal ≤ 1.10)",
    "20,000 ÷ 1,000",
  ];
  console.log(
    "\nvalidateParsed against the names a form declares (issue 31): `{required: [p(n−1)], properties: {p0…p(n−1): string}}`; fail: `{p0}`, valid: `{p0, p(n−1)}`; 5 and 200 names inline, 1,000 and more the member loop\n",
  );
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map((_, k) => (k === 0 ? " --- " : " ---: ")).join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

export default async function validateBench(): Promise<void> {
  const formText = readFileSync(local("page.form.json"), "utf8");
  const form = JSON.parse(formText) as Record<string, unknown>;
  const ours = compileForm(form, { source: "bench/page.form.json" });
  const ajv = new Ajv2020({ strict: true, code: { source: true } });
  const urls = writeModules({ "page.ours.mjs": ours, "page.ajv.cjs": standaloneCode(ajv, ajv.compile(form)) });
  const oursModule = (await import(urls["page.ours.mjs"] as string)) as {
    validate: Validate;
    validateParsed: Validate;
  };
  // What the doors call on parsed acts; `validate`, exact for any value, is timed beside it.
  const oursValidate = oursModule.validateParsed;
  const oursExact = oursModule.validate;
  const ajvValidate = ((await import(urls["page.ajv.cjs"] as string)) as { default: Validate }).default;
  const safeValidate = schemasafe(form as never) as Validate;
  const cfworker = new Validator(form as never, "2020-12", true);
  const cfValidate: Validate = (value) => cfworker.validate(value).valid;

  const rows: string[][] = [];
  for (const kind of ["valid", "fails-early", "fails-late"]) {
    for (const size of ["1k", "16k", "256k"]) {
      const file = local(`corpus/${kind}-${size}.json`);
      const body = JSON.parse(readFileSync(file, "utf8")) as unknown;
      const expected = kind === "valid";
      for (const [name, fn] of [
        ["ours", oursValidate],
        ["ajv", ajvValidate],
        ["schemasafe", safeValidate],
        ["cfworker", cfValidate],
        ["ours validate", oursExact],
      ] as const) {
        if (fn(body) !== expected) throw new Error(`${name} answers ${!expected} on ${kind}-${size}`);
      }
      const [o, a, s, c, e] = measure([
        () => oursValidate(body),
        () => ajvValidate(body),
        () => safeValidate(body),
        () => cfValidate(body),
        () => oursExact(body),
      ]) as [number[], number[], number[], number[], number[]];
      const vsSafe = ratio(o, s);
      const vsCf = ratio(o, c);
      const safeGoal = kind === "fails-early" ? "" : vsSafe >= 1 ? " met" : " NOT met";
      rows.push([
        `${kind}-${size}`,
        median(o).toFixed(0),
        median(a).toFixed(0),
        median(s).toFixed(0),
        median(c).toFixed(0),
        `${ratio(o, a).toFixed(2)}×`,
        `${vsSafe.toFixed(2)}×${safeGoal}`,
        `${vsCf.toFixed(1)}×${vsCf >= 20 ? " met" : " NOT met"}`,
        `${ratio(o, e).toFixed(2)}×`,
      ]);
    }
  }
  const head = [
    "body",
    "ours /s",
    "ajv standalone /s",
    "schemasafe /s",
    "cfworker /s",
    "ours ÷ ajv",
    "ours ÷ schemasafe (goal ≥ 1)",
    "ours ÷ cfworker (goal ≥ 20)",
    "ours ÷ ours validate",
  ];
  console.log(
    `validate, ${rounds} rounds of ${sliceMs} ms slices, medians of per-round ratios; ours: validateParsed (what the doors call on parsed acts); ours validate: the entry exact for any value\n`,
  );
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map((_, k) => (k === 0 ? " --- " : " ---: ")).join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);

  const gz = gzipSync(ours, { level: 9 }).length;
  console.log(
    `\ngenerated page validator: ${ours.length} bytes, ${gz} bytes gzipped (${(gz / 1024).toFixed(2)} KiB; goal ≤ 4 KiB ${gz <= 4096 ? "met" : "NOT met"})`,
  );

  const body = local("corpus/valid-16k.json");
  const cold = { ours: [] as number[], ajv: [] as number[] };
  for (let r = 0; r < 7; r++) {
    cold.ours.push(coldStart(urls["page.ours.mjs"] as string, body));
    cold.ajv.push(coldStart(urls["page.ajv.cjs"] as string, body));
  }
  const [co, ca] = [median(cold.ours), median(cold.ajv)];
  console.log(
    `cold start (fresh process: import + validate valid-16k once, median of 7): ours ${co.toFixed(2)} ms, ajv standalone ${ca.toFixed(2)} ms (goal ≤ ajv ${co <= ca ? "met" : "NOT met"})`,
  );
  await namesBench();
  await seasonedBench();
}

const column = childColumn();
if (column !== undefined) console.log(JSON.stringify(await child(column)));
else if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await validateBench();
