/**
 * The example on Cloudflare Workers, behind its entry (`./worker.ts`): the app made at the first
 * request from the worker's variables, with pages in the Workers KV namespace `PAGES`, the render
 * address's runs in the Durable Object namespace `RUNS` (a `RunStoreObject`, which the
 * entry exports), and rate limits from the Rate Limiting bindings, wrapped by `worker()` of
 * gpt-address/workers; around
 * it, whatever throws (a setting it cannot read, a fault outside the app) is answered as the
 * app answers an error, 500 with no body, the error on `console.error`.
 *
 * @module
 */
import { DurableObjectRunStore } from "../../src/run/durable-object.ts";
import { worker } from "../../src/workers/index.ts";
import { createExampleApp, exampleSettings } from "./app.ts";
import { ipv6PrefixLength, workersRateLimit } from "./limits.ts";
import { runLimits } from "./runs.ts";
import { pageLimits } from "./store.ts";
import { WorkersKvPageStore } from "./stores/workers-kv.ts";

/** The bindings of the example worker; `DRAIN_REQUEST_BODIES` is set by `npm start` only. */
export type ExampleEnv = Env & {
  readonly DRAIN_REQUEST_BODIES?: string;
  readonly METRICS_TOKEN?: string;
  readonly MCP_ALLOWED_HOSTS?: string;
  readonly PUBLIC_ORIGIN?: string;
  readonly IPV6_PREFIX_LENGTH?: string;
};

/** A worker variable as a setting: its text, or `undefined`. */
function settingOf(env: ExampleEnv): (name: string) => string | undefined {
  return (name) => {
    const value = (env as unknown as Record<string, unknown>)[name];
    return typeof value === "string" ? value : undefined;
  };
}

/** The example app of `env`: `METRICS_TOKEN` read per request (a secret may change), the rest once. */
function exampleApp(env: ExampleEnv) {
  const setting = settingOf(env);
  // What hono/cloudflare-workers' getConnInfo reads, without the rest of that module in the bundle.
  const rateLimit = workersRateLimit(
    (c) => c.req.header("cf-connecting-ip"),
    ipv6PrefixLength(setting("IPV6_PREFIX_LENGTH")),
  );
  const limits = pageLimits(setting);
  // One store per isolate: it keeps the usage it listed (stores/workers-kv.ts).
  let store: WorkersKvPageStore | undefined;
  // One run store per isolate too: a cancel through the isolate acting on the run stops the act
  // at once, not at its next read of the object (`cancelRun`).
  const bounds = runLimits(setting);
  let runs: DurableObjectRunStore | undefined;
  return createExampleApp((c) => (store ??= new WorkersKvPageStore(c.env.PAGES, "page:", limits)), {
    rateLimit,
    runs: (c) => (runs ??= new DurableObjectRunStore(c.env.RUNS, { limits: bounds })),
    ...exampleSettings(setting),
    metricsToken: (c) => settingOf(c.env as ExampleEnv)("METRICS_TOKEN"),
  });
}

/**
 * The worker's exported handler: `worker()` marks each request as framed by workerd (one native
 * read of a body with a `Content-Length`) and under `npm start` (`DRAIN_REQUEST_BODIES`) receives
 * each body whole first.
 */
export function exampleWorker(): {
  fetch(request: Request, env: ExampleEnv, ctx: ExecutionContext): Promise<Response>;
} {
  let app: ReturnType<typeof createExampleApp> | undefined;
  const handler = worker({
    fetch(request: Request, env: ExampleEnv, ctx: ExecutionContext) {
      app ??= exampleApp(env);
      return app.fetch(request, env, ctx);
    },
  });
  return {
    async fetch(request, env, ctx) {
      try {
        return await handler.fetch(request, env, ctx);
      } catch (error) {
        console.error("gpt-address example: a request failed", error);
        return new Response(null, { status: 500, headers: { "Content-Length": "0", "Cache-Control": "no-store" } });
      }
    },
  };
}
