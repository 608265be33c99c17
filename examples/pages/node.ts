/**
 * Node entry (@hono/node-server): serves the example addresses on 127.0.0.1:`PORT`
 * (default 8788), storing pages in SQLite (`node:sqlite`) at `PAGES_DB` (default
 * `pages.sqlite`; `:memory:` keeps nothing; a file that cannot be opened or written ends the
 * start with one line naming it and exit status 1). Run with `npm run serve:node`. Rate limits per
 * client (`RATE_LIMIT`, `RATE_LIMIT_STORE`, `TRUSTED_PROXIES`; in process memory unless `RATE_LIMIT_STORE=shared` keeps them in the same database) and
 * `/metrics` (`METRICS=on`): docs/operations.md.
 *
 * The server's own timeouts close slow clients that the address never sees
 * (`serverTimeouts` of gpt-address/node).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serve } from "../../src/node/index.ts";
import { createExampleApp, mcpAllowedHosts } from "./app.ts";
import { exampleRateLimit } from "./rate-limiters.ts";
import { startOrExit } from "./startup.ts";
import { openPageDatabase, SqlitePageStore } from "./stores/sqlite.ts";
import { sqliteLimiters } from "./stores/sqlite-rate-limit.ts";

const { env } = process;
const database = await startOrExit(
  () => openPageDatabase(env.PAGES_DB ?? "pages.sqlite", (file) => new DatabaseSync(file)),
  process.exit,
);
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
serve(app, { port: Number(env.PORT ?? 8788) });
