/**
 * Node entry (@hono/node-server): serves the example addresses on 127.0.0.1:`PORT`
 * (default 8788), storing pages in SQLite (`node:sqlite`) at `PAGES_DB` (default
 * `pages.sqlite`; `:memory:` keeps nothing; a file that cannot be opened or written ends the
 * start with one line naming it and exit status 1). Run with `npm run serve:node`. Rate limits per
 * client (`RATE_LIMIT`, `RATE_LIMIT_STORE`, `TRUSTED_PROXIES`, `IPV6_PREFIX_LENGTH`; in process
 * memory unless `RATE_LIMIT_STORE=shared` keeps them in the same database), the page store's
 * bounds (`PAGE_MAX_BYTES`, `PAGES_TTL_SECONDS`, `PAGES_QUOTA_BYTES`), the origin of answered
 * URLs (`PUBLIC_ORIGIN`) and `/metrics` (`METRICS_TOKEN`): docs/operations.md. The render
 * address keeps its runs in the same database (`SqliteRunStore`, bounded by `RUNS_MAX` and
 * `RUNS_TTL_SECONDS`; a page takes `RENDER_PAGE_MS`): docs/operations.md, "Runs of the example".
 *
 * The server's own timeouts close slow clients that the address never sees
 * (`serverTimeouts` of gpt-address/node).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serve } from "../../src/node/index.ts";
import { SqliteRunStore } from "../../src/run/sqlite.ts";
import { createExampleApp, exampleSettings } from "./app.ts";
import { exampleRateLimit } from "./rate-limiters.ts";
import { runLimits } from "./runs.ts";
import { startOrExit } from "./startup.ts";
import { pageLimits } from "./store.ts";
import { openPageDatabase, SqlitePageStore } from "./stores/sqlite.ts";
import { sqliteLimiters } from "./stores/sqlite-rate-limit.ts";

const { env } = process;
const database = await startOrExit(
  () => openPageDatabase(env.PAGES_DB ?? "pages.sqlite", (file) => new DatabaseSync(file)),
  process.exit,
);
const setting = (name: string) => env[name];
const store = new SqlitePageStore(database, pageLimits(setting));
const rateLimit = exampleRateLimit(
  setting,
  () => sqliteLimiters(database),
  (c) => getConnInfo(c).remote.address,
);
const runs = new SqliteRunStore(database, runLimits(setting));
const app = createExampleApp(() => store, { rateLimit, runs, ...exampleSettings(setting) });
serve(app, { port: Number(env.PORT ?? 8788) });
