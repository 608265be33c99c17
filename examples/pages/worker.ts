/**
 * Cloudflare Workers entry (wrangler.toml `main`): the example app with pages in the Workers
 * KV namespace bound as `PAGES`.
 *
 * @module
 */
import { createExampleApp } from "./app.ts";
import { receivedRequest } from "./received-request.ts";
import { WorkersKvPageStore } from "./stores/workers-kv.ts";

const app = createExampleApp((c) => new WorkersKvPageStore(c.env.PAGES));

/** The bindings of the example worker; `DRAIN_REQUEST_BODIES` is set by `npm start` only. */
type ExampleEnv = Env & { readonly DRAIN_REQUEST_BODIES?: string };

export default {
  async fetch(request, env, ctx) {
    const received = env.DRAIN_REQUEST_BODIES === "true" ? await receivedRequest(request) : request;
    return app.fetch(received, env, ctx);
  },
} satisfies ExportedHandler<ExampleEnv>;
