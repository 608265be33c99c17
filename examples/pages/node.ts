/**
 * Node entry (@hono/node-server): serves the example addresses on 127.0.0.1:`PORT`
 * (default 8788), storing pages in SQLite (`node:sqlite`) at `PAGES_DB` (default
 * `pages.sqlite`; `:memory:` keeps nothing). Run with `npm run serve:node`. Rate limits per
 * client (`RATE_LIMIT`, `TRUSTED_PROXIES`) and `/metrics` (`METRICS=on`): docs/operations.md.
 *
 * The server's own timeouts close slow clients that the address never sees
 * (`serverTimeouts` in `./node-server.ts`).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { getConnInfo } from "@hono/node-server/conninfo";
import { createExampleApp, mcpAllowedHosts } from "./app.ts";
import { rateLimitSetting, trustedProxies } from "./limits.ts";
import { memoryRateLimit } from "./memory-rate-limit.ts";
import { serveWithTimeouts } from "./node-server.ts";
import { SqlitePageStore } from "./stores/sqlite.ts";

const { env } = process;
const store = new SqlitePageStore(new DatabaseSync(env.PAGES_DB ?? "pages.sqlite"));
const limits = rateLimitSetting(env.RATE_LIMIT);
const rateLimit = memoryRateLimit(limits, (c) => getConnInfo(c).remote.address, trustedProxies(env.TRUSTED_PROXIES));
const app = createExampleApp(() => store, {
  rateLimit,
  metrics: env.METRICS === "on",
  mcp: { allowedHosts: mcpAllowedHosts(env.MCP_ALLOWED_HOSTS) },
});
serveWithTimeouts(app.fetch, Number(env.PORT ?? 8788));
