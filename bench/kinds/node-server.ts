/**
 * The server of the hostile-kind matrix on Node: `node bench/kinds/node-server.ts` serves
 * {@link doorsApp} with @hono/node-server on 127.0.0.1 at an ephemeral port, and prints
 * `{"port": N}` once listening.
 *
 * @module
 */
import { serve } from "@hono/node-server";
import { doorsApp } from "./doors.ts";

serve({ fetch: doorsApp().fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  console.log(JSON.stringify({ port: info.port }));
});
process.on("SIGTERM", () => process.exit(0));
