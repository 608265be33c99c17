/**
 * Cloudflare Workers entry (wrangler.toml `main`): the example app with pages in the Workers
 * KV namespace bound as `PAGES`.
 *
 * @module
 */
import { createExampleApp } from "./app.ts";
import { WorkersKvPageStore } from "./stores/workers-kv.ts";

export default createExampleApp((c) => new WorkersKvPageStore(c.env.PAGES));
