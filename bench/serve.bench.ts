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
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";

const root = fileURLToPath(new URL("..", import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
const coldTrials = Number(process.env.BENCH_COLD_TRIALS ?? 9);
const connections = 16;

const hasTaskset = spawnSync("taskset", ["--version"]).status === 0 && availableParallelism() >= 2;
const hasWrk = spawnSync("wrk", ["--version"]).error === undefined;

/** The body of a valid act, the example the form itself gives its actors (`m[1].content`). */
async function validAct(): Promise<string> {
  const { form } = (await import(new URL("../src/generated/page.ts", import.meta.url).href)) as { form: { arrival: string } };
  const arrival = JSON.parse(form.arrival) as { m: { content: string }[] };
  return arrival.m[arrival.m.length - 1]!.content;
}

/**
 * Swaps the generated validator of `src/generated/page.ts` for @cfworker/json-schema's
 * `Validator`, built from the same `s` when the worker starts: the same address, validated
 * the way an address that compiles its schema at start-up would be.
 */
const cfworkerValidation: Plugin = {
  name: "cfworker-validation",
  setup(b) {
    b.onResolve({ filter: /generated\/page\.ts$/ }, (args) =>
      args.namespace === "cfworker" ? undefined : { path: fileURLToPath(new URL(args.path, `file://${args.resolveDir}/`)), namespace: "cfworker" },
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

async function bundle(options: { entry?: string; source?: string; plugins?: Plugin[] }): Promise<string> {
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

async function startWorkerd(script: string): Promise<{ url: URL; dispose: () => Promise<void> }> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script,
      compatibilityDate: "2026-08-01",
      kvNamespaces: ["PAGES"],
      host: "127.0.0.1",
      port: 0,
      logRequests: false,
    }),
  );
  return { url: await mf.ready, dispose: () => mf.dispose() };
}

function pin(pid: number, cpus: string): void {
  if (hasTaskset) spawnSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
}

/** Requests per second of GET `url` for `seconds`, with `connections` keep-alive connections. */
function load(url: string): Promise<number> {
  const prefix = hasTaskset ? ["taskset", "-c", "1"] : [];
  const [file, ...args] = hasWrk
    ? [...prefix, "wrk", "-t1", `-c${connections}`, `-d${seconds}s`, url]
    : [...prefix, process.execPath, "-e", nodeLoad, url, String(seconds), String(connections)];
  return new Promise((resolve, reject) => {
    const child = spawn(file!, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.on("error", reject);
    child.on("exit", () => {
      if (/Non-2xx or 3xx responses/.test(out) || /errors: [1-9]/.test(out)) return reject(new Error(`failed responses:\n${out}`));
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
      return rate ? resolve(Number(rate[1])) : reject(new Error(`no rate in:\n${out}`));
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
  console.log("Requests/sec: " + (done / ((Date.now() - start) / 1000)).toFixed(2) + "\\nerrors: " + errors);
  agent.destroy();
});`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function throughput(): Promise<void> {
  const { form } = (await import(new URL("../src/generated/page.ts", import.meta.url).href)) as { form: { arrival: string } };
  const ours = await bundle({ entry: "src/example/worker.ts" });
  const constant = await bundle({
    source: `import { Hono } from "hono";
const body = ${JSON.stringify(form.arrival)};
const app = new Hono();
app.get("/page", (c) => c.text(body));
export default app;`,
  });
  pin(process.pid, "0");
  const servers = { ours: await startWorkerd(ours), constant: await startWorkerd(constant) };
  pin(process.pid, `0-${availableParallelism() - 1}`);
  const rates: Record<keyof typeof servers, number[]> = { ours: [], constant: [] };
  const ratios: number[] = [];
  try {
    for (const server of Object.values(servers)) {
      const check = await fetch(new URL("/page", server.url));
      if (check.status !== 200 || (await check.text()) !== form.arrival) throw new Error("a server does not serve the form's bytes");
      await load(new URL("/page", server.url).href); // warm-up
    }
    // Paired rounds, order alternated: each ratio compares two runs made back to back, so
    // drift in the machine's load (other processes) cancels out of the median ratio.
    for (let round = 0; round < rounds; round++) {
      for (const key of (round % 2 === 0 ? ["ours", "constant"] : ["constant", "ours"]) as (keyof typeof servers)[]) {
        rates[key].push(await load(new URL("/page", servers[key].url).href));
      }
      ratios.push(rates.ours[round]! / rates.constant[round]!);
    }
  } finally {
    await servers.ours.dispose();
    await servers.constant.dispose();
  }
  console.log(`GET /page on workerd (Miniflare), ${hasWrk ? "wrk" : "Node keep-alive loop"}, ${connections} connections, ${rounds} paired rounds × ${seconds} s, ${hasTaskset ? "server and load on separate cores" : "unpinned"}`);
  console.table({
    "example worker (address, precomputed form)": { "req/s (median)": Math.round(median(rates.ours)), runs: rates.ours.map(Math.round).join(" / ") },
    "Hono route, constant string (same bytes)": { "req/s (median)": Math.round(median(rates.constant)), runs: rates.constant.map(Math.round).join(" / ") },
  });
  console.log(`ratio ours ÷ constant: median of paired rounds ${median(ratios).toFixed(3)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(" ")}; goal ≥ 0.95)`);
}

async function coldStart(): Promise<void> {
  const body = await validAct();
  const variants = {
    "example worker (generated validator)": await bundle({ entry: "src/example/worker.ts" }),
    "same, @cfworker/json-schema compiled at start-up": await bundle({ entry: "src/example/worker.ts", plugins: [cfworkerValidation] }),
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  const names = Object.keys(variants);
  for (let trial = 0; trial < coldTrials; trial++) {
    for (const name of trial % 2 === 0 ? names : [...names].reverse()) {
      const start = performance.now();
      const server = await startWorkerd(variants[name as keyof typeof variants]);
      try {
        const response = await fetch(new URL("/page", server.url), { method: "POST", body, headers: { "content-type": "application/json" } });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${name}: the first act got ${response.status}`);
        times[name]!.push(performance.now() - start);
      } finally {
        await server.dispose();
      }
    }
  }
  console.log(`\ncold start on workerd: new workerd process (Miniflare) → first act answered 200, ${coldTrials} trials each, alternated`);
  console.table(
    Object.fromEntries(
      Object.entries(variants).map(([name, script]) => [
        name,
        {
          "median ms": Number(median(times[name]!).toFixed(1)),
          "min ms": Number(Math.min(...times[name]!).toFixed(1)),
          "bundle KiB (minified)": Number((script.length / 1024).toFixed(1)),
        },
      ]),
    ),
  );
  const [ours, theirs] = names.map((name) => median(times[name]!));
  console.log(`ratio ours ÷ @cfworker: ${(ours! / theirs!).toFixed(3)} (goal ≤ 1)`);
}

export default async function serve(): Promise<void> {
  await throughput();
  await coldStart();
}
