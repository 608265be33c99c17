/**
 * One server of the POST bench on Node: `node bench/post/node-server.ts <kind> <form module>`
 * serves {@link postApp} with @hono/node-server on 127.0.0.1 at an ephemeral port, and prints
 * `{"port": N}` once listening.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import type { CompiledForm } from "../../src/address/form.ts";
import { type PostServer, postApp } from "./apps.ts";

const [kind, module] = process.argv.slice(2) as [PostServer, string];
const { form } = (await import(pathToFileURL(module).href)) as { form: CompiledForm };
serve({ fetch: postApp(kind, form).fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  console.log(JSON.stringify({ port: info.port }));
});
// Ends on SIGTERM with a normal exit, so that `--cpu-prof` writes its profile.
process.on("SIGTERM", () => process.exit(0));
