/**
 * Bun entry: serves the example addresses on 127.0.0.1:`PORT` (default 8790), storing pages in
 * SQLite (`bun:sqlite`) at `PAGES_DB` (default `pages.sqlite`), with Bun's `node:http` rather
 * than `Bun.serve`, for its timeouts (`./node-server.ts`).
 * Run with `npm run serve:bun`. Rate limits per client (`RATE_LIMIT`, `TRUSTED_PROXIES`) and
 * `/metrics` (`METRICS=on`): docs/operations.md.
 *
 * @module
 */
import { Database } from "bun:sqlite";
import { getConnInfo } from "@hono/node-server/conninfo";
import { createExampleApp, mcpAllowedHosts } from "./app.ts";
import { rateLimitSetting, trustedProxies } from "./limits.ts";
import { memoryRateLimit } from "./memory-rate-limit.ts";
import { serveWithTimeouts } from "./node-server.ts";
import { SqlitePageStore } from "./stores/sqlite.ts";

const { env } = Bun;
const store = new SqlitePageStore(new Database(env.PAGES_DB ?? "pages.sqlite"));
const limits = rateLimitSetting(env.RATE_LIMIT);
const rateLimit = memoryRateLimit(limits, (c) => getConnInfo(c).remote.address, trustedProxies(env.TRUSTED_PROXIES));
const app = createExampleApp(() => store, {
  rateLimit,
  metrics: env.METRICS === "on",
  mcp: { allowedHosts: mcpAllowedHosts(env.MCP_ALLOWED_HOSTS) },
});
serveWithTimeouts(app.fetch, Number(env.PORT ?? 8790));
