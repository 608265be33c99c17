/**
 * Vercel Edge entry: a Web-standard handler plus the `config` that selects the edge runtime.
 * Pages go to a Redis REST service (Upstash) named by `UPSTASH_REDIS_REST_URL` and
 * `UPSTASH_REDIS_REST_TOKEN`, which Vercel exposes on `process.env`; without them, to memory,
 * and the start-up log says so (`upstashOrMemory`). Rate limits per client (`RATE_LIMIT`,
 * `RATE_LIMIT_STORE`) are kept in the same Upstash, else in the instance's memory; the client
 * is `X-Real-IP` on Vercel (`vercelClientAddress`); the page store's bounds (`PAGE_MAX_BYTES`,
 * `PAGES_TTL_SECONDS`, `PAGES_QUOTA_BYTES`), `PUBLIC_ORIGIN` and `/metrics` (`METRICS_TOKEN`):
 * docs/operations.md. The render address keeps its runs in the instance's memory
 * (`MemoryRunStore`, bounded by `RUNS_MAX` and `RUNS_TTL_SECONDS`): a run is read and cancelled
 * only through the instance that created it, and Vercel may send the next request to another
 * (its URL is then 404); nothing outlives the instance. Re-export it from
 * `api/[[...path]].ts` to deploy (docs/deploy.md); `npm run serve:vercel` runs it locally
 * in the `edge-runtime` package.
 *
 * @module
 */
import { MemoryRunStore } from "../../src/run/memory.ts";
import { createExampleApp, exampleSettings } from "./app.ts";
import { vercelClientAddress } from "./limits.ts";
import { exampleRateLimit } from "./rate-limiters.ts";
import { runLimits } from "./runs.ts";
import { pageLimits } from "./store.ts";
import { upstashOrMemory } from "./stores/upstash.ts";
import { upstashLimiters } from "./stores/upstash-rate-limit.ts";

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const { store, upstash, message } = upstashOrMemory(
  env,
  pageLimits((name) => env[name]),
);
// Said once, at start-up (each cold start on Vercel): where the pages go, and why.
(upstash ? console.info : console.warn)(`gpt-address example: ${message}`);
const credentials = { url: env.UPSTASH_REDIS_REST_URL ?? "", token: env.UPSTASH_REDIS_REST_TOKEN ?? "" };
const shared = upstash ? () => upstashLimiters(credentials) : undefined;
const rateLimit = exampleRateLimit((name) => env[name], shared, vercelClientAddress(env), "shared");
const runs = new MemoryRunStore(runLimits((name) => env[name]));
const app = createExampleApp(() => store, { rateLimit, runs, ...exampleSettings((name) => env[name]) });

/** Selects Vercel's edge runtime for this function. */
export const config = { runtime: "edge" };

/** Answers one request. */
export default function handler(request: Request): Response | Promise<Response> {
  return app.fetch(request);
}
