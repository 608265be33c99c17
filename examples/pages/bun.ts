/**
 * Bun entry (`Bun.serve`): serves the example addresses on 127.0.0.1:`PORT` (default 8790),
 * storing pages in SQLite (`bun:sqlite`) at `PAGES_DB` (default `pages.sqlite`).
 * Run with `npm run serve:bun`. Rate limits per client (`RATE_LIMIT`, `RATE_LIMIT_STORE`,
 * `TRUSTED_PROXIES`; kept in the same database) and `/metrics` (`METRICS=on`):
 * docs/operations.md. Bun closes a connection idle for 10 s.
 *
 * @module
 */
import { Database } from "bun:sqlite";
import { getConnInfo } from "hono/bun";
import { createExampleApp, mcpAllowedHosts } from "./app.ts";
import { exampleRateLimit } from "./rate-limiters.ts";
import { SqlitePageStore } from "./stores/sqlite.ts";
import { sqliteLimiters } from "./stores/sqlite-rate-limit.ts";

const { env } = Bun;
const database = new Database(env.PAGES_DB ?? "pages.sqlite");
const store = new SqlitePageStore(database);
const rateLimit = exampleRateLimit(
  (name) => env[name],
  () => sqliteLimiters(database),
  (c) => getConnInfo(c).remote.address,
);
const app = createExampleApp(() => store, {
  rateLimit,
  metrics: env.METRICS === "on",
  mcp: { allowedHosts: mcpAllowedHosts(env.MCP_ALLOWED_HOSTS) },
});
const server = Bun.serve({ hostname: "127.0.0.1", port: Number(env.PORT ?? 8790), fetch: app.fetch });
console.log(`listening on http://127.0.0.1:${server.port}/`);
