/**
 * gpt-address/workers: the entry of a Cloudflare Worker that serves addresses.
 *
 * Web APIs only, like the main entry. {@link worker} turns a Hono app into the Worker's
 * exported handler: each request as workerd delivered it is marked as framed by the runtime
 * (`runtimeFetch`, so a body with a `Content-Length` is read in one native call), and under
 * `wrangler dev` each body is received whole before the app sees it ({@link receivedRequest}),
 * so that an act refused by its size is answered 204 there too, not 500 by wrangler's proxy.
 *
 * @example
 * ```ts
 * // src/worker.ts (wrangler.toml `main`)
 * import { worker } from "gpt-address/workers";
 * import app from "./app.ts";
 *
 * export default worker(app);
 * ```
 * @module
 */
import { runtimeFetch } from "../body/runtime-framed.ts";
import { receivedRequest } from "./received-request.ts";

export { DRAIN_LIMIT_BYTES, receivedRequest } from "./received-request.ts";

/** What {@link worker} needs of an app: Hono's `fetch(request, env, ctx)`. */
export interface FetchApp<Env, Context> {
  fetch(request: Request, env: Env, ctx: Context): Response | Promise<Response>;
}

/** Options of {@link worker}. */
export interface WorkerOptions<Env> {
  /**
   * Whether to receive each body whole before the app sees it (development only: see
   * {@link receivedRequest}). Default: when the worker's variable `DRAIN_REQUEST_BODIES` is the
   * string `"true"`, which `.dev.vars` sets under `wrangler dev` and nothing sets when deployed.
   */
  readonly drainBodies?: (env: Env) => boolean;
}

/** The default of {@link WorkerOptions.drainBodies}: `env.DRAIN_REQUEST_BODIES === "true"`. */
export function drainBodiesVariable(env: unknown): boolean {
  return (
    typeof env === "object" &&
    env !== null &&
    (env as { DRAIN_REQUEST_BODIES?: unknown }).DRAIN_REQUEST_BODIES === "true"
  );
}

/**
 * The Worker's exported handler for `app`.
 *
 * @param app - a Hono app (or anything with Hono's `fetch(request, env, ctx)`).
 * @returns `{ fetch }`, to `export default` from the Worker's main module.
 */
export function worker<Env, Context>(
  app: FetchApp<Env, Context>,
  options: WorkerOptions<Env> = {},
): { fetch(request: Request, env: Env, ctx: Context): Promise<Response> } {
  const drain = options.drainBodies ?? drainBodiesVariable;
  return {
    // The drained request is one made by code again, and is read as any other.
    fetch: runtimeFetch(async (request: Request, env: Env, ctx: Context) =>
      app.fetch(drain(env) ? await receivedRequest(request) : request, env, ctx),
    ),
  };
}
