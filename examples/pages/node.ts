/**
 * Node entry (@hono/node-server): serves the example addresses on 127.0.0.1:`PORT`
 * (default 8788), storing pages in SQLite (`node:sqlite`) at `PAGES_DB` (default
 * `pages.sqlite`; `:memory:` keeps nothing). Run with `npm run serve:node`. Rate limits per
 * client (`RATE_LIMIT`, `RATE_LIMIT_STORE`, `TRUSTED_PROXIES`; kept in the same database) and
 * `/metrics` (`METRICS=on`): docs/operations.md.
 *
 * The server's own timeouts close slow clients that the address never sees: header fields
 * must arrive within 5 s and the whole request within 15 s (the address's body deadline, 5 s,
 * answers first), checked every second (Node's default check interval, 30 s, lets a client
 * sending one header byte a second live that long).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { createExampleApp, mcpAllowedHosts } from "./app.ts";
import { exampleRateLimit } from "./rate-limiters.ts";
import { SqlitePageStore } from "./stores/sqlite.ts";
import { sqliteLimiters } from "./stores/sqlite-rate-limit.ts";

const { env } = process;
const database = new DatabaseSync(env.PAGES_DB ?? "pages.sqlite");
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
const serverOptions = { headersTimeout: 5_000, requestTimeout: 15_000, connectionsCheckingInterval: 1_000 };
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(env.PORT ?? 8788), serverOptions }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}/`);
});
