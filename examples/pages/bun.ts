/**
 * Bun entry (`Bun.serve`): serves the example addresses on 127.0.0.1:`PORT` (default 8790),
 * storing pages in SQLite (`bun:sqlite`) at `PAGES_DB` (default `pages.sqlite`).
 * Run with `npm run serve:bun`.
 *
 * @module
 */
import { Database } from "bun:sqlite";
import { createExampleApp } from "./app.ts";
import { SqlitePageStore } from "./stores/sqlite.ts";

const store = new SqlitePageStore(new Database(Bun.env.PAGES_DB ?? "pages.sqlite"));
const app = createExampleApp(() => store);
const server = Bun.serve({ hostname: "127.0.0.1", port: Number(Bun.env.PORT ?? 8790), fetch: app.fetch });
console.log(`listening on http://127.0.0.1:${server.port}/`);
