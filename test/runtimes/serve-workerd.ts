/**
 * Serves the example worker in workerd exactly as `wrangler deploy` would upload it: runs
 * `wrangler deploy --dry-run` into a scratch directory, then loads that bundle into Miniflare
 * (workerd) with the `PAGES` KV namespace and the `RUNS` Durable Object namespace (SQLite-backed,
 * as its migration declares), on 127.0.0.1:`PORT` (behind Miniflare's entry worker, or
 * with `WORKERD_SOCKET=direct` on a socket of the worker's own).
 *
 * Why not `wrangler dev`: its development proxy answers 500 "Network connection lost" when
 * the worker answers before reading the whole request body (an oversize act rejected on its
 * Content-Length), which workerd itself, and this setup, answer correctly with 204.
 *
 * Usage: `node test/runtimes/serve-workerd.ts` (the wire suite's launcher runs it).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { wranglerSync } from "../../scripts/wrangler.ts";

const root = join(import.meta.dirname, "../..");
const outdir = mkdtempSync(join(tmpdir(), "gpt-address-workerd-"));
wranglerSync(["deploy", "--dry-run", "--outdir", outdir], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
// The settings `wrangler deploy` would send along with the bundle, read from wrangler.toml.
const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
const compatibilityFlags = [
  ...(/^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1]?.matchAll(/"([^"]+)"/g) ?? []),
].map((m) => m[1]!);
const kvNamespaces = [...toml.matchAll(/^binding\s*=\s*"([^"]+)"/gm)].map((m) => m[1]!);
// [[ratelimits]]: name, namespace_id, simple = { limit, period }, as wrangler.toml states them.
const ratelimits = Object.fromEntries(
  [
    ...toml.matchAll(
      /^name\s*=\s*"([^"]+)"\s*\nnamespace_id\s*=\s*"([^"]*)"\s*\nsimple\s*=\s*\{\s*limit\s*=\s*(\d+),\s*period\s*=\s*(\d+)\s*\}/gm,
    ),
  ].map((m) => [m[1]!, { namespace_id: m[2]!, simple: { limit: Number(m[3]), period: Number(m[4]) as 10 | 60 } }]),
);
// RATE_LIMIT=<acts>,<arrivals> sets the bindings' limits per minute, as an operator would in
// wrangler.toml; RATE_LIMIT=off (the suites, the hostile bench) turns the example's limits
// off through the worker's variable; METRICS_TOKEN serves /metrics to that token, and
// PUBLIC_ORIGIN, IPV6_PREFIX_LENGTH, the page and run stores' bounds and RENDER_PAGE_MS pass as
// they are.
const setting = /^(\d+),(\d+)$/.exec(process.env.RATE_LIMIT ?? "");
if (setting !== null) {
  if (ratelimits.ACT_LIMITER) ratelimits.ACT_LIMITER.simple = { limit: Number(setting[1]), period: 60 };
  if (ratelimits.ARRIVAL_LIMITER) ratelimits.ARRIVAL_LIMITER.simple = { limit: Number(setting[2]), period: 60 };
}
// [[durable_objects.bindings]]: name, class_name; SQLite-backed when a migration names the class
// in new_sqlite_classes.
const sqliteClasses = new Set(
  [...toml.matchAll(/^new_sqlite_classes\s*=\s*\[([^\]]*)\]/gm)].flatMap((m) =>
    [...m[1]!.matchAll(/"([^"]+)"/g)].map((c) => c[1]!),
  ),
);
const durableObjects = Object.fromEntries(
  [...toml.matchAll(/^name\s*=\s*"([^"]+)"\s*\nclass_name\s*=\s*"([^"]+)"/gm)].map((m) => [
    m[1]!,
    { className: m[2]!, useSQLite: sqliteClasses.has(m[2]!) },
  ]),
);
const bindings: Record<string, string> = {};
if (process.env.RATE_LIMIT === "off") bindings.RATE_LIMIT = "off";
for (const name of [
  "METRICS_TOKEN",
  "PUBLIC_ORIGIN",
  "IPV6_PREFIX_LENGTH",
  "PAGE_MAX_BYTES",
  "PAGES_TTL_SECONDS",
  "PAGES_QUOTA_BYTES",
  "RUNS_MAX",
  "RUNS_TTL_SECONDS",
  "RENDER_PAGE_MS",
]) {
  const value = process.env[name];
  if (value !== undefined) bindings[name] = value;
}
// WORKERD_SOCKET=direct (the hostile bench): the worker listens on `PORT` itself, as a deployed
// worker has its own connections, instead of behind Miniflare's entry worker, which costs about
// as much CPU per request again as the worker answering a 1 KiB act (bench/serve.bench.ts).
const direct = process.env.WORKERD_SOCKET === "direct";
const port = Number(process.env.PORT ?? 8787);
const mf = new Miniflare(
  convertV4MiniflareOptions({
    modules: true,
    scriptPath: join(outdir, "worker.js"),
    modulesRoot: outdir,
    compatibilityDate,
    compatibilityFlags,
    kvNamespaces,
    durableObjects,
    ratelimits,
    bindings,
    host: "127.0.0.1",
    port: direct ? 0 : port,
    logRequests: false,
    ...(direct ? { unsafeDirectSockets: [{ host: "127.0.0.1", port }] } : {}),
  }),
);
const ready = await mf.ready;
console.log(`listening on ${(direct ? await mf.unsafeGetDirectURL() : ready).href}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void mf.dispose().finally(() => {
      rmSync(outdir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}
