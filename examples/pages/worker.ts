/**
 * Cloudflare Workers entry (wrangler.toml `main`): the example app (`./workers-app.ts`) with pages
 * in the Workers KV namespace bound as `PAGES` (bounded by the variables `PAGE_MAX_BYTES`,
 * `PAGES_TTL_SECONDS`, `PAGES_QUOTA_BYTES`), rate limits per client from the Rate Limiting
 * bindings `ACT_LIMITER` and `ARRIVAL_LIMITER` (keyed by `CF-Connecting-IP`, an IPv6 client by
 * its /64 or `IPV6_PREFIX_LENGTH`; the variable `RATE_LIMIT = "off"` turns them off), URLs at
 * the variable `PUBLIC_ORIGIN`, `/metrics` for the secret `METRICS_TOKEN` (docs/operations.md),
 * and `/mcp` for the hosts named by the variable `MCP_ALLOWED_HOSTS` (loopback names when
 * unset: docs/mcp.md). The render address keeps its runs in the Durable Object namespace bound
 * as `RUNS`, whose class, `RunStoreObject`, this entry exports (wrangler.toml declares it
 * SQLite-backed); every isolate of the worker reads and cancels the same runs, bounded by the
 * variables `RUNS_MAX` and `RUNS_TTL_SECONDS`. A rendering runs in `ctx.waitUntil` after its 202,
 * which Workers keep for at most 30 s: `RENDER_PAGE_MS` (default 250) × 40 pages stays under it. A request that fails outside the app (a bad setting) is a 500 with no
 * body, the error on `console.error`.
 *
 * @module
 */
import { type ExampleEnv, exampleWorker } from "./workers-app.ts";

export { RunStoreObject } from "../../src/run/durable-object.ts";

export default exampleWorker() satisfies ExportedHandler<ExampleEnv>;
