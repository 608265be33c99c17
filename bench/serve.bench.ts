/**
 * Serving on workerd (the example worker, in Miniflare, as `wrangler dev` runs it):
 *
 * 1. GET throughput of the page form against a Hono route returning the same bytes as a
 *    constant string, both served the same way, alternated in one run (goal ≥ 0.95×; S4).
 * 2. Cold start: a fresh workerd process → the first answered act (POST of a valid page, 200),
 *    for the example worker as built, against the same worker validating with
 *    @cfworker/json-schema compiled at start-up (goal: ours no slower).
 *
 * Load comes from `wrk` when it is on PATH (Debian's `wrk` package), else from a Node
 * keep-alive loop; with two or more cores the server and the load are pinned to different
 * cores (`taskset`). Absolute figures move from run to run; compare ratios of one run.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const root = join(import.meta.dirname, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
const coldTrials = Number(process.env.BENCH_COLD_TRIALS ?? 11);
const connections = 16;

export const hasTaskset = spawnSync("taskset", ["--version"]).status === 0 && availableParallelism() >= 2;
export const hasWrk = spawnSync("wrk", ["--version"]).error === undefined;

/** The body of a valid act, the example the form itself gives its actors (`m[1].content`). */
async function validAct(): Promise<string> {
  const { form } = (await import(new URL("../examples/pages/generated/page.js", import.meta.url).href)) as {
    form: { arrival: string };
  };
  const arrival = JSON.parse(form.arrival) as { m: { content: string }[] };
  return arrival.m[arrival.m.length - 1]!.content;
}

/**
 * Swaps the generated validator of `examples/pages/generated/page.js` for @cfworker/json-schema's
 * `Validator`, built from the same `s` when the worker starts: the same address, validated
 * the way an address that compiles its schema at start-up would be.
 */
const cfworkerValidation: Plugin = {
  name: "cfworker-validation",
  setup(b) {
    b.onResolve({ filter: /generated\/page\.ts$/ }, (args) =>
      args.namespace === "cfworker" ? undefined : { path: resolve(args.resolveDir, args.path), namespace: "cfworker" },
    );
    b.onLoad({ filter: /.*/, namespace: "cfworker" }, (args) => ({
      resolveDir: root,
      loader: "ts",
      contents: `
import { form as generated } from ${JSON.stringify(args.path)};
import { Validator } from "@cfworker/json-schema";
const validator = new Validator(JSON.parse(generated.arrival).s, "2020-12", false);
let last = "";
export const form = {
  ...generated,
  validate(value) {
    const result = validator.validate(value);
    last = result.valid ? "" : (result.errors[0]?.keywordLocation ?? "");
    return result.valid;
  },
  lastFailure: () => last,
};`,
    }));
  },
};

export async function bundle(options: { entry?: string; source?: string; plugins?: Plugin[] }): Promise<string> {
  const result = await build({
    ...(options.source !== undefined
      ? { stdin: { contents: options.source, resolveDir: root, loader: "ts" as const } }
      : { entryPoints: [options.entry!] }),
    absWorkingDir: root,
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    target: "es2022",
    minify: true,
    plugins: options.plugins ?? [],
    logLevel: "warning",
  });
  return result.outputFiles[0]!.text;
}

export interface Workerd {
  url: URL;
  /** The workerd processes this instance started (Linux: from /proc), for CPU accounting. */
  pids: number[];
  dispose: () => Promise<void>;
}

/** Child processes of this process named `workerd` (empty where /proc is absent). */
function workerdChildren(): Set<number> {
  const found = new Set<number>();
  if (!existsSync("/proc")) return found;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === process.pid && stat.includes("(workerd)")) found.add(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

/** CPU time (user + system) the processes have used so far, in seconds. */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / clockTicks;
}
const clockTicks = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim() || 100);

/**
 * Starts `script` in workerd under Miniflare. `direct`: the worker gets a socket of its own
 * (Miniflare's `unsafeDirectSockets`), as a deployed worker has, instead of being reached
 * through Miniflare's entry worker, which costs about as much CPU per request again as a
 * worker answering a 1 KiB act (B2: 180–195 µs direct against 370–420 µs through it, same host).
 */
export async function startWorkerd(script: string, options: { direct?: boolean } = {}): Promise<Workerd> {
  const before = workerdChildren();
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script,
      compatibilityDate: "2026-08-01",
      kvNamespaces: ["PAGES"],
      // The address's own cost, without the example's rate limits (its bindings are not
      // configured here; with the variable unset every request would log the missing binding).
      bindings: { RATE_LIMIT: "off" },
      host: "127.0.0.1",
      port: 0,
      logRequests: false,
      ...(options.direct === true ? { unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }] } : {}),
    }),
  );
  const ready = await mf.ready;
  const url = options.direct === true ? await mf.unsafeGetDirectURL() : ready;
  const pids = [...workerdChildren()].filter((pid) => !before.has(pid));
  return { url, pids, dispose: () => mf.dispose() };
}

/**
 * Raises the priority of the server and the load generator where allowed (root): on a machine
 * shared with other work, this keeps other processes from taking their cores mid-run. Fails
 * silently elsewhere.
 */
export const priority = ["nice", "-n", "-15"];
export const mayRaisePriority = spawnSync("nice", ["-n", "-15", "true"]).status === 0 && process.getuid?.() === 0;
export function raise(pids: number[]): void {
  if (mayRaisePriority)
    for (const pid of pids) spawnSync("renice", ["-n", "-15", "-p", String(pid)], { stdio: "ignore" });
}

export function pin(pid: number, cpus: string): void {
  if (hasTaskset) spawnSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
}

/** One load run: requests per second, and requests answered. */
interface Run {
  rate: number;
  requests: number;
}

/** GET `url` for `seconds` with `connections` keep-alive connections. */
function load(url: string): Promise<Run> {
  const prefix = [...(mayRaisePriority ? priority : []), ...(hasTaskset ? ["taskset", "-c", "1"] : [])];
  const [file, ...args] = hasWrk
    ? [...prefix, "wrk", "-t1", `-c${connections}`, `-d${seconds}s`, url]
    : [...prefix, process.execPath, "-e", nodeLoad, url, String(seconds), String(connections)];
  return new Promise((resolve, reject) => {
    const child = spawn(file!, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.on("error", reject);
    child.on("exit", () => {
      if (/Non-2xx or 3xx responses/.test(out) || /errors: [1-9]/.test(out))
        return reject(new Error(`failed responses:\n${out}`));
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const requests = /(\d+) requests in/.exec(out);
      return rate && requests
        ? resolve({ rate: Number(rate[1]), requests: Number(requests[1]) })
        : reject(new Error(`no rate in:\n${out}`));
    });
  });
}

/** The fallback load generator: keep-alive GET loops from Node (prints like wrk). */
const nodeLoad = `
const http = require("node:http");
const [url, seconds, connections] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const end = Date.now() + Number(seconds) * 1000;
let done = 0, errors = 0;
const loop = () => new Promise((resolve) => {
  const next = () => {
    if (Date.now() >= end) return resolve();
    http.get(url, { agent }, (res) => { res.resume(); res.on("end", () => { if (res.statusCode === 200) done++; else errors++; next(); }); })
      .on("error", () => { errors++; next(); });
  };
  next();
});
const start = Date.now();
Promise.all(Array.from({ length: Number(connections) }, loop)).then(() => {
  console.log(done + " requests in\\nRequests/sec: " + (done / ((Date.now() - start) / 1000)).toFixed(2) + "\\nerrors: " + errors);
  agent.destroy();
});`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The three servers of the throughput comparison, all on workerd, served the same way. */
type Server = "ours" | "constant" | "constantWithHeaders";
const labels: Record<Server, string> = {
  ours: "example worker (address, precomputed form)",
  constant: "Hono route, constant string (same bytes)",
  constantWithHeaders: "Hono route, same bytes and the address's response headers",
};

async function throughput(): Promise<void> {
  const { form } = (await import(new URL("../examples/pages/generated/page.js", import.meta.url).href)) as {
    form: { arrival: string };
  };
  const ours = await bundle({ entry: "examples/pages/worker.ts" });
  const constant = await bundle({
    source: `import { Hono } from "hono";
const body = ${JSON.stringify(form.arrival)};
const app = new Hono();
app.get("/page", (c) => c.text(body));
export default app;`,
  });
  pin(process.pid, "0");
  const servers: Record<Server, Workerd> = {
    ours: await startWorkerd(ours, { direct: true }),
    constant: await startWorkerd(constant, { direct: true }),
  } as Record<Server, Workerd>;
  // The address answers with ETag, Cache-Control, Vary and CORS fields (S4, A6, CORS); a third
  // baseline sends the very same fields with a constant body, separating what those fields
  // cost workerd from what the address does per request.
  const sample = await fetch(new URL("/page", servers.ours.url));
  await sample.arrayBuffer();
  const fields = [...sample.headers].filter(([name]) => !["content-length", "date", "content-encoding"].includes(name));
  servers.constantWithHeaders = await startWorkerd(
    await bundle({
      source: `import { Hono } from "hono";
const body = new TextEncoder().encode(${JSON.stringify(form.arrival)});
const fields = ${JSON.stringify(fields)};
const app = new Hono();
app.get("/page", () => new Response(body, { headers: fields }));
export default app;`,
    }),
    { direct: true },
  );
  pin(process.pid, `0-${availableParallelism() - 1}`);
  raise(Object.values(servers).flatMap((server) => server.pids));
  const keys = Object.keys(servers) as Server[];
  const rates = Object.fromEntries(keys.map((key) => [key, [] as number[]])) as Record<Server, number[]>;
  const cpu = Object.fromEntries(keys.map((key) => [key, [] as number[]])) as Record<Server, number[]>;
  try {
    for (const server of Object.values(servers)) {
      const check = await fetch(new URL("/page", server.url));
      if (check.status !== 200 || (await check.text()) !== form.arrival)
        throw new Error("a server does not serve the form's bytes");
      await load(new URL("/page", server.url).href); // warm-up
    }
    // Rounds in alternating order: each ratio compares runs made back to back, so drift in
    // the machine's load (other processes) cancels out of the median ratio. The workerd CPU
    // time per request is the steadier figure on a shared machine: a server whose core is
    // saturated answers in inverse proportion to it.
    for (let round = 0; round < rounds; round++) {
      for (const key of round % 2 === 0 ? keys : [...keys].reverse()) {
        const server = servers[key];
        const cpuBefore = server.pids.length > 0 ? cpuSeconds(server.pids) : 0;
        const run = await load(new URL("/page", server.url).href);
        rates[key].push(run.rate);
        if (server.pids.length > 0) cpu[key].push(((cpuSeconds(server.pids) - cpuBefore) / run.requests) * 1e6);
      }
    }
  } finally {
    for (const server of Object.values(servers)) await server.dispose();
  }
  console.log(
    `GET /page on workerd (Miniflare, each worker on a socket of its own), ${hasWrk ? "wrk" : "Node keep-alive loop"}, ${connections} connections, ${rounds} rounds × ${seconds} s, ${hasTaskset ? "server and load on separate cores" : "unpinned"}${mayRaisePriority ? ", both at nice -15" : ""}`,
  );
  console.table(
    Object.fromEntries(
      keys.map((key) => [
        labels[key],
        {
          "req/s (median)": Math.round(median(rates[key])),
          "workerd CPU µs/request (median)": cpu[key].length > 0 ? Number(median(cpu[key]).toFixed(1)) : "n/a",
          "req/s runs": rates[key].map(Math.round).join(" / "),
        },
      ]),
    ),
  );
  const paired = (a: number[], b: number[]) => median(a.map((x, i) => x / b[i]!));
  // The goal (issue 31): ours ≥ 0.95× the constant route, by CPU; the same-fields route shows
  // what the address's header fields cost, with no goal.
  for (const baseline of ["constant", "constantWithHeaders"] as const) {
    const rate = paired(rates.ours, rates[baseline]);
    const byCpu = cpu.ours.length > 0 ? paired(cpu[baseline], cpu.ours) : Number.NaN;
    const goal =
      baseline !== "constant"
        ? "no goal"
        : Number.isNaN(byCpu)
          ? "goal ≥ 0.95"
          : `goal ≥ 0.95 ${byCpu >= 0.95 ? "met" : "NOT met"}`;
    console.log(
      `ours ÷ ${labels[baseline]}: throughput ${rate.toFixed(3)}, by CPU per request ${Number.isNaN(byCpu) ? "n/a" : byCpu.toFixed(3)} (medians of per-round ratios; ${goal})`,
    );
  }
}

/**
 * Cold start, two ways, each variant in a fresh runtime per trial, trials alternated:
 * - workerd end to end: a new workerd process (Miniflare) until the first act is answered;
 *   dominated by starting the process, the same for both variants;
 * - the script alone: a fresh Node process (V8, as workerd's isolates are) timing the
 *   bundle's module evaluation and its first act through `fetch`, without the process start
 *   and the network; this is the part that schema compilation at start-up adds to.
 */
async function coldStart(): Promise<void> {
  const body = await validAct();
  const variants = {
    "example worker (generated validator)": await bundle({ entry: "examples/pages/worker.ts" }),
    "same, @cfworker/json-schema compiled at start-up": await bundle({
      entry: "examples/pages/worker.ts",
      plugins: [cfworkerValidation],
    }),
  };
  const names = Object.keys(variants) as (keyof typeof variants)[];
  const endToEnd: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const evaluate: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const firstAct: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const scratch = mkdtempSync(join(tmpdir(), "gpt-address-cold-"));
  const files = Object.fromEntries(
    names.map((name, i) => {
      const file = join(scratch, `variant-${i}.mjs`);
      writeFileSync(file, variants[name]);
      return [name, file];
    }),
  );
  try {
    for (let trial = 0; trial < coldTrials; trial++) {
      for (const name of trial % 2 === 0 ? names : [...names].reverse()) {
        const start = performance.now();
        const server = await startWorkerd(variants[name]);
        try {
          const response = await fetch(new URL("/page", server.url), {
            method: "POST",
            body,
            headers: { "content-type": "application/json" },
          });
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`${name}: the first act got ${response.status}`);
          endToEnd[name]!.push(performance.now() - start);
        } finally {
          await server.dispose();
        }
      }
    }
    // The script alone, after every workerd process is gone, so none competes for the CPU.
    for (let trial = 0; trial < coldTrials; trial++) {
      for (const name of trial % 2 === 0 ? names : [...names].reverse()) {
        const child = spawnSync(process.execPath, ["--input-type=module", "-e", isolateStart, files[name]!, body], {
          encoding: "utf8",
        });
        // The last line: the example's own log line of the act comes before it.
        const last = child.stdout.trim().split("\n").at(-1) ?? "";
        const result = JSON.parse(last) as { evaluate: number; firstAct: number; status: number };
        if (result.status !== 200) throw new Error(`${name}: the first act got ${result.status} in Node`);
        evaluate[name]!.push(result.evaluate);
        firstAct[name]!.push(result.firstAct);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`\ncold start, ${coldTrials} fresh runtimes per variant, alternated`);
  console.table(
    Object.fromEntries(
      names.map((name) => [
        name,
        {
          "workerd: process start → first act, median ms": Number(median(endToEnd[name]!).toFixed(1)),
          "V8 (Node): module evaluation, median ms": Number(median(evaluate[name]!).toFixed(2)),
          "V8 (Node): evaluation + first act, median ms": Number(median(firstAct[name]!).toFixed(2)),
          "bundle KiB (minified)": Number((variants[name].length / 1024).toFixed(1)),
        },
      ]),
    ),
  );
  const [ours, theirs] = names;
  console.log(
    `ratio ours ÷ @cfworker: workerd end to end ${(median(endToEnd[ours!]!) / median(endToEnd[theirs!]!)).toFixed(3)}, script evaluation + first act ${(median(firstAct[ours!]!) / median(firstAct[theirs!]!)).toFixed(3)} (goal ≤ 1)`,
  );
}

/** Run in a fresh Node process: imports a worker bundle and sends it one act, timing both. */
const isolateStart = `
const [file, body] = process.argv.slice(1);
// An empty KV namespace: the page store lists it for its quota before a put.
const env = { PAGES: { put: async () => {}, get: async () => null, list: async () => ({ keys: [], list_complete: true }) } };
const ctx = { waitUntil() {}, passThroughOnException() {} };
// Node loads its fetch classes and crypto lazily, on first use; workerd has them ready. Load
// them first so that the timing holds only what the worker itself does.
new Response(new Request("http://127.0.0.1/", { method: "POST", body: "{}" }).body);
crypto.randomUUID();
const t0 = performance.now();
const worker = (await import(file)).default;
const t1 = performance.now();
const response = await worker.fetch(new Request("http://127.0.0.1/page", { method: "POST", body, headers: { "content-type": "application/json" } }), env, ctx);
await response.arrayBuffer();
const t2 = performance.now();
console.log(JSON.stringify({ evaluate: t1 - t0, firstAct: t2 - t0, status: response.status }));`;

export default async function serve(): Promise<void> {
  await throughput();
  await coldStart();
}
