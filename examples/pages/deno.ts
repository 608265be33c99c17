/**
 * Deno and Deno Deploy entry: serves the example addresses, storing pages in Deno KV
 * (`Deno.openKv`, which needs `--unstable-kv` locally). Locally it listens on
 * 127.0.0.1:`PORT` (default 8789) with Deno's `node:http` rather than `Deno.serve`, for its
 * timeouts (`serve` of gpt-address/node), and keeps KV at `DENO_KV_PATH` (default: Deno's own location
 * for this script; one that cannot be opened or written ends the start with one line naming it
 * and exit status 1). On Deno Deploy (`DENO_DEPLOYMENT_ID` set) it is `Deno.serve`, behind the
 * platform's own front; the platform picks the port and the KV. `SERVER=native` serves with
 * `Deno.serve` locally too (faster, but it bounds no slow client: for use behind a proxy that
 * does).
 * Run with `npm run serve:deno`. Rate limits per client (`RATE_LIMIT`, `RATE_LIMIT_STORE`,
 * `TRUSTED_PROXIES`, `IPV6_PREFIX_LENGTH`; in process memory locally and in the same KV on Deno
 * Deploy unless `RATE_LIMIT_STORE` says otherwise), the page store's bounds (`PAGE_MAX_BYTES`,
 * `PAGES_TTL_SECONDS`, `PAGES_QUOTA_BYTES`), `PUBLIC_ORIGIN` and `/metrics` (`METRICS_TOKEN`):
 * docs/operations.md. The render address keeps its runs in the same KV (`DenoKvRunStore`,
 * bounded by `RUNS_MAX` and `RUNS_TTL_SECONDS`; a page takes `RENDER_PAGE_MS`): every process
 * or isolate opening that KV reads and cancels them (docs/operations.md, "Runs of the example").
 *
 * @module
 */
import { getConnInfo as nodeConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { getConnInfo as denoConnInfo } from "hono/deno";
import { serve } from "../../src/node/index.ts";
import { DenoKvRunStore } from "../../src/run/deno-kv.ts";
import { createExampleApp, exampleSettings } from "./app.ts";
import { exampleRateLimit } from "./rate-limiters.ts";
import { runLimits } from "./runs.ts";
import { startOrExit } from "./startup.ts";
import { pageLimits } from "./store.ts";
import { DenoKvPageStore, openPageKv } from "./stores/deno-kv.ts";
import { denoKvLimiters } from "./stores/deno-kv-rate-limit.ts";

const env = (name: string) => Deno.env.get(name);
const deployed = env("DENO_DEPLOYMENT_ID") !== undefined;
const native = deployed || env("SERVER") === "native";
const port = Number(env("PORT") ?? 8789);
const kv = await startOrExit(() => openPageKv(env("DENO_KV_PATH"), (path) => Deno.openKv(path), !deployed), Deno.exit);
const store = new DenoKvPageStore(kv, pageLimits(env));
const rateLimit = exampleRateLimit(
  env,
  () => denoKvLimiters(kv),
  (c: Context) => (native ? denoConnInfo(c) : nodeConnInfo(c)).remote.address,
  deployed ? "shared" : "process",
);
const runs = new DenoKvRunStore(kv, runLimits(env));
const app = createExampleApp(() => store, { rateLimit, runs, ...exampleSettings(env) });
if (deployed) Deno.serve(app.fetch);
else if (native) Deno.serve({ hostname: "127.0.0.1", port }, app.fetch);
else serve(app, { port: port });
