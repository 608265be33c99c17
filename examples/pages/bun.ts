/**
 * Bun entry: serves the example addresses on 127.0.0.1:`PORT` (default 8790), storing pages in
 * SQLite (`bun:sqlite`) at `PAGES_DB` (default `pages.sqlite`; one that cannot be opened or
 * written ends the start with one line naming it and exit status 1), with Bun's `node:http` rather
 * than `Bun.serve`, for its timeouts (`serve` of gpt-address/node); `SERVER=native` serves with
 * `Bun.serve` instead (faster, but it bounds no slow header fields: for use behind a proxy
 * that does).
 * Run with `npm run serve:bun`. Rate limits per client (`RATE_LIMIT`, `RATE_LIMIT_STORE`,
 * `TRUSTED_PROXIES`, `IPV6_PREFIX_LENGTH`; `RATE_LIMIT_STORE=shared` keeps them in the same
 * database), the page store's bounds (`PAGE_MAX_BYTES`, `PAGES_TTL_SECONDS`,
 * `PAGES_QUOTA_BYTES`), `PUBLIC_ORIGIN` and `/metrics` (`METRICS_TOKEN`): docs/operations.md.
 * The render address keeps its runs in the same database (`SqliteRunStore`, bounded by
 * `RUNS_MAX` and `RUNS_TTL_SECONDS`; a page takes `RENDER_PAGE_MS`): docs/operations.md, "Runs
 * of the example".
 *
 * @module
 */
import { Database } from "bun:sqlite";
import { getConnInfo as nodeConnInfo } from "@hono/node-server/conninfo";
import { getConnInfo as bunConnInfo } from "hono/bun";
import { serve } from "../../src/node/index.ts";
import { SqliteRunStore } from "../../src/run/sqlite.ts";
import { createExampleApp, exampleSettings } from "./app.ts";
import { exampleRateLimit } from "./rate-limiters.ts";
import { runLimits } from "./runs.ts";
import { startOrExit } from "./startup.ts";
import { pageLimits } from "./store.ts";
import { openPageDatabase, SqlitePageStore } from "./stores/sqlite.ts";
import { sqliteLimiters } from "./stores/sqlite-rate-limit.ts";

const { env } = Bun;
const native = env.SERVER === "native";
const database = await startOrExit(
  () => openPageDatabase(env.PAGES_DB ?? "pages.sqlite", (file) => new Database(file)),
  process.exit,
);
const setting = (name: string) => env[name];
const store = new SqlitePageStore(database, pageLimits(setting));
const rateLimit = exampleRateLimit(
  setting,
  () => sqliteLimiters(database),
  (c) => (native ? bunConnInfo(c) : nodeConnInfo(c)).remote.address,
);
const runs = new SqliteRunStore(database, runLimits(setting));
const app = createExampleApp(() => store, { rateLimit, runs, ...exampleSettings(setting) });
const port = Number(env.PORT ?? 8790);
if (native) Bun.serve({ hostname: "127.0.0.1", port, fetch: app.fetch });
else serve(app, { port: port });
