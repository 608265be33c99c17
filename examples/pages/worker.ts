/**
 * Cloudflare Workers entry (wrangler.toml `main`): the example app with pages in the Workers
 * KV namespace bound as `PAGES`, rate limits per client from the Rate Limiting bindings
 * `ACT_LIMITER` and `ARRIVAL_LIMITER` (keyed by `CF-Connecting-IP`; the variable
 * `RATE_LIMIT = "off"` turns them off), and `/metrics` when the variable `METRICS` is `"on"`
 * (docs/operations.md).
 *
 * @module
 */
import { createExampleApp } from "./app.ts";
import { workersRateLimit } from "./limits.ts";
import { receivedRequest } from "./received-request.ts";
import { WorkersKvPageStore } from "./stores/workers-kv.ts";

// What hono/cloudflare-workers' getConnInfo reads, without the rest of that module in the bundle.
const rateLimit = workersRateLimit((c) => c.req.header("cf-connecting-ip"));
const metrics = (c: { env: { METRICS?: string } }) => c.env.METRICS === "on";
const app = createExampleApp((c) => new WorkersKvPageStore(c.env.PAGES), { rateLimit, metrics });

/** The bindings of the example worker; `DRAIN_REQUEST_BODIES` is set by `npm start` only. */
type ExampleEnv = Env & { readonly DRAIN_REQUEST_BODIES?: string; readonly METRICS?: string };

export default {
  async fetch(request, env, ctx) {
    const received = env.DRAIN_REQUEST_BODIES === "true" ? await receivedRequest(request) : request;
    return app.fetch(received, env, ctx);
  },
} satisfies ExportedHandler<ExampleEnv>;
