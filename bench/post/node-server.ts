/**
 * One server of the POST bench on Node: `node bench/post/node-server.ts <kind> <form module>`
 * serves {@link postApp} (or a peer's app, {@link peerApp}) with @hono/node-server, or for
 * `fastify-ajv` {@link fastifyApp} with Fastify's own server, on 127.0.0.1 at an ephemeral port,
 * and prints `{"port": N}` once listening.
 *
 * @module
 */
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import type { CompiledForm } from "../../src/address/form.ts";
import { type PeerServer, type PostServer, postApp } from "./apps.ts";
import { fastifyApp } from "./fastify.ts";
import { peerApp } from "./peers.ts";

const PEERS: readonly string[] = ["hono-zod", "mcp-sdk-v1", "mcp-sdk-v2"] satisfies PeerServer[];

const [kind, module] = process.argv.slice(2) as [PostServer, string];
const { form } = (await import(pathToFileURL(module).href)) as { form: CompiledForm };
if (kind === "fastify-ajv") {
  const app = fastifyApp(form);
  await app.listen({ host: "127.0.0.1", port: 0 });
  console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port }));
} else {
  const app = PEERS.includes(kind)
    ? peerApp(kind as Exclude<PeerServer, "fastify-ajv">)
    : postApp(kind as Exclude<PostServer, PeerServer>, form);
  serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
    console.log(JSON.stringify({ port: info.port }));
  });
}
// Ends on SIGTERM with a normal exit, so that `--cpu-prof` writes its profile.
process.on("SIGTERM", () => process.exit(0));
