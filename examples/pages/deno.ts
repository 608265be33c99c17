/**
 * Deno and Deno Deploy entry (`Deno.serve`): serves the example addresses, storing pages in
 * Deno KV (`Deno.openKv`, which needs `--unstable-kv` locally). Locally it listens on
 * 127.0.0.1:`PORT` (default 8789) and keeps KV at `DENO_KV_PATH` (default: Deno's own
 * location for this script); on Deno Deploy the platform picks the port and the KV.
 * Run with `npm run serve:deno`. Rate limits per client (`RATE_LIMIT`, `RATE_LIMIT_STORE`,
 * `TRUSTED_PROXIES`; kept in the same KV) and `/metrics` (`METRICS=on`): docs/operations.md.
 *
 * @module
 */
import { getConnInfo } from "hono/deno";
import { createExampleApp, mcpAllowedHosts } from "./app.ts";
import { exampleRateLimit } from "./rate-limiters.ts";
import { DenoKvPageStore } from "./stores/deno-kv.ts";
import { denoKvLimiters } from "./stores/deno-kv-rate-limit.ts";

const env = (name: string) => Deno.env.get(name);
const kv = await Deno.openKv(env("DENO_KV_PATH"));
const store = new DenoKvPageStore(kv);
const rateLimit = exampleRateLimit(
  env,
  () => denoKvLimiters(kv),
  (c) => getConnInfo(c).remote.address,
);
const app = createExampleApp(() => store, {
  rateLimit,
  metrics: env("METRICS") === "on",
  mcp: { allowedHosts: mcpAllowedHosts(env("MCP_ALLOWED_HOSTS")) },
});
if (Deno.env.get("DENO_DEPLOYMENT_ID") !== undefined) {
  Deno.serve(app.fetch);
} else {
  Deno.serve(
    {
      hostname: "127.0.0.1",
      port: Number(Deno.env.get("PORT") ?? 8789),
      onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}/`),
    },
    app.fetch,
  );
}
