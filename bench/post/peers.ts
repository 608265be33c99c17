/**
 * The peers of the POST bench (issue 31), the servers users pick instead, each with the same
 * form and bodies, served on Node by `./node-server.ts`:
 *
 * - `hono-zod`: B2 with `@hono/zod-validator`'s `zValidator("json", …)` and the form written in
 *   zod (`./page-zod.ts`); 400 for an invalid value, its default;
 * - `fastify-ajv`: Fastify with strict ajv options (`./fastify.ts`), on Fastify's own server;
 * - `mcp-sdk-v1` and `mcp-sdk-v2`: the official MCP SDK servers, stateless, a server per
 *   request (`./mcp-sdk.ts`), peers of the MCP door.
 *
 * @module
 */
import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import type { PeerServer } from "./apps.ts";
import { mcpSdkV1, mcpSdkV2 } from "./mcp-sdk.ts";
import { pageSchema } from "./page-zod.ts";

/** The Hono app of a peer (not `fastify-ajv`, which is no Hono app), at `/page`. */
export function peerApp(kind: Exclude<PeerServer, "fastify-ajv">): Hono {
  const app = new Hono();
  if (kind === "hono-zod") app.post("/page", zValidator("json", pageSchema), (c) => c.json({ ok: true }));
  else if (kind === "mcp-sdk-v1") app.post("/page", mcpSdkV1());
  else app.post("/page", mcpSdkV2());
  return app;
}
