/**
 * `npm run serve:vercel`: runs the Vercel Edge entry (`examples/pages/vercel.ts`) locally in
 * the `edge-runtime` package (Vercel's open-source edge sandbox), on 127.0.0.1:`PORT`
 * (default 8791).
 *
 * The entry is bundled by esbuild into one service-worker script, as Vercel bundles it, and
 * evaluated in a fresh edge VM. The VM gets a `process.env` holding only
 * `UPSTASH_REDIS_REST_URL`, `UPSTASH_REDIS_REST_TOKEN`, `RATE_LIMIT`, `RATE_LIMIT_STORE`,
 * `METRICS_TOKEN`, and the run store's and render address's settings (`RUNS_MAX`,
 * `RUNS_TTL_SECONDS`, `RENDER_PAGE_MS`), as Vercel exposes the project's variables (not `VERCEL`:
 * this is not Vercel).
 *
 * The VM is served by a `node:http` server of our own (edge-runtime's `createHandler`, as its
 * `runServer` does) so that it gets the example's server timeouts (`serverTimeouts` of
 * gpt-address/node): `runServer` takes none, and Node's defaults let a client
 * sending one header byte a second stay connected for 30 s and more.
 */
import { createServer } from "node:http";
import { join } from "node:path";
import { createHandler, EdgeRuntime } from "edge-runtime";
import { build } from "esbuild";
import { serverTimeouts } from "../src/node/index.ts";

const root = join(import.meta.dirname, "..");
const bundle = await build({
  stdin: {
    contents: `import handler from "./examples/pages/vercel.ts";
addEventListener("fetch", (event) => event.respondWith(handler(event.request)));`,
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  write: false,
  format: "iife",
  platform: "browser",
  conditions: ["edge-light", "worker", "browser"],
  target: "es2022",
  logLevel: "warning",
});
const env: Record<string, string> = {};
for (const name of [
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "RATE_LIMIT",
  "RATE_LIMIT_STORE",
  "METRICS_TOKEN",
  "RUNS_MAX",
  "RUNS_TTL_SECONDS",
  "RENDER_PAGE_MS",
]) {
  const value = process.env[name];
  if (value !== undefined) env[name] = value;
}
const runtime = new EdgeRuntime({
  initialCode: bundle.outputFiles[0]!.text,
  extend: (context) => Object.assign(context, { process: { env } }),
});
const { handler, waitUntil } = createHandler({ runtime });
const server = createServer(serverTimeouts, handler);
server.listen(Number(process.env.PORT ?? 8791), "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === "object" && address ? address.port : ""}/`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    const closed = new Promise((resolve) => server.close(resolve));
    void Promise.all([waitUntil(), closed]).then(() => process.exit(0));
  });
}
