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
import { runtimeFetch } from "../../src/body/runtime-framed.ts";
import { createExampleApp, mcpAllowedHosts } from "./app.ts";
import { workersRateLimit } from "./limits.ts";
import { receivedRequest } from "./received-request.ts";
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

export default {
  // runtimeFetch: each request as workerd delivered it, so that an address reads a body with a
  // Content-Length in one native call (src/body/runtime-framed.ts). Under `npm start` the
  // drained request is one made by code again, and is read as any other.
  fetch: runtimeFetch(async (request: Request, env: ExampleEnv, ctx: ExecutionContext) => {
    const received = env.DRAIN_REQUEST_BODIES === "true" ? await receivedRequest(request) : request;
    return exampleApp(env).fetch(received, env, ctx);
  }),
} satisfies ExportedHandler<ExampleEnv>;
