/**
 * Node entry (@hono/node-server): serves the example addresses on 127.0.0.1:`PORT`
 * (default 8788), storing pages in SQLite (`node:sqlite`) at `PAGES_DB` (default
 * `pages.sqlite`; `:memory:` keeps nothing). Run with `npm run serve:node`.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { serve } from "@hono/node-server";
import { createExampleApp } from "./app.ts";
import { SqlitePageStore } from "./stores/sqlite.ts";

const store = new SqlitePageStore(new DatabaseSync(process.env.PAGES_DB ?? "pages.sqlite"));
const app = createExampleApp(() => store);
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT ?? 8788) }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}/`);
});
