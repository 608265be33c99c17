/**
 * Cloudflare Workers entry (wrangler.toml `main`): the example app with pages in the Workers
 * KV namespace bound as `PAGES`, rate limits per client from the Rate Limiting bindings
 * `ACT_LIMITER` and `ARRIVAL_LIMITER` (keyed by `CF-Connecting-IP`; the variable
 * `RATE_LIMIT = "off"` turns them off), `/metrics` when the variable `METRICS` is `"on"`
 * (docs/operations.md), and `/mcp` for the hosts named by the variable `MCP_ALLOWED_HOSTS`
 * (loopback names when unset: docs/mcp.md).
 *
 * @module
 */
import { worker } from "../../src/workers/index.ts";
import { createExampleApp, mcpAllowedHosts } from "./app.ts";
import { workersRateLimit } from "./limits.ts";
import { WorkersKvPageStore } from "./stores/workers-kv.ts";

// What hono/cloudflare-workers' getConnInfo reads, without the rest of that module in the bundle.
const rateLimit = workersRateLimit((c) => c.req.header("cf-connecting-ip"));
const metrics = (c: { env: { METRICS?: string } }) => c.env.METRICS === "on";
/** The app, made at the first request: the MCP door's hosts come from a variable of the worker. */
let app: ReturnType<typeof createExampleApp> | undefined;
function exampleApp(env: ExampleEnv) {
  const allowedHosts = mcpAllowedHosts(env.MCP_ALLOWED_HOSTS);
  app ??= createExampleApp((c) => new WorkersKvPageStore(c.env.PAGES), { rateLimit, metrics, mcp: { allowedHosts } });
  return app;
}

/** The bindings of the example worker; `DRAIN_REQUEST_BODIES` is set by `npm start` only. */
type ExampleEnv = Env & {
  readonly DRAIN_REQUEST_BODIES?: string;
  readonly METRICS?: string;
  readonly MCP_ALLOWED_HOSTS?: string;
};

// worker(): each request marked as framed by workerd (one native read of a body with a
// Content-Length), and under `npm start` (DRAIN_REQUEST_BODIES) each body received whole first.
export default worker({
  fetch: (request: Request, env: ExampleEnv, ctx: ExecutionContext) => exampleApp(env).fetch(request, env, ctx),
}) satisfies ExportedHandler<ExampleEnv>;
