/**
 * The official MCP SDK servers, peers of the MCP door in the POST bench: each serves one tool,
 * `page`, whose `inputSchema` is the page form written in zod (`./page-zod.ts`), and answers a
 * valid call with the result the door sends (`structuredContent: {ok: true}`). Both stateless,
 * with a new server for every request, as the SDKs' own stateless examples do, mounted on a Hono
 * route (`c.req.raw`) like the door, so that all of them are served the same way:
 *
 * - `mcp-sdk-v1`: `@modelcontextprotocol/sdk` (v1): per request an `McpServer` and a
 *   `WebStandardStreamableHTTPServerTransport` with `sessionIdGenerator: undefined` and
 *   `enableJsonResponse: true`, connected, `handleRequest`, then both closed (the v1 README's
 *   stateless example on Express does the same with the Node transport, which wraps this one);
 * - `mcp-sdk-v2`: `@modelcontextprotocol/server` (v2): `createMcpHandler` with a factory that
 *   builds the `McpServer`, called by the handler once per request, and `responseMode: "json"`;
 *   a 2025-era request (no `_meta` envelope) goes to its stateless legacy leg, a 2026-07-28 one to
 *   its per-request transport.
 *
 * @module
 */
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpHandler, McpServer as McpServerV2 } from "@modelcontextprotocol/server";
import type { Handler } from "hono";
import { pageSchema } from "./page-zod.ts";

/** The tool's result, as the MCP door answers a valid act of a constant `{ok: true}`. */
const result = () => ({
  content: [{ type: "text" as const, text: '{"ok":true}' }],
  structuredContent: { ok: true },
});

/** The v1 handler: a server and a stateless transport per request. */
export function mcpSdkV1(): Handler {
  return async function mcpSdkV1Route(c) {
    const server = new McpServerV1({ name: "bench", version: "0.1.0" });
    server.registerTool("page", { description: "Publishes a page.", inputSchema: pageSchema }, result);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await transport.close();
      await server.close();
    }
  };
}

/** The v2 handler: `createMcpHandler`, whose factory it calls for each request. */
export function mcpSdkV2(): Handler {
  const handler = createMcpHandler(
    () => {
      const server = new McpServerV2({ name: "bench", version: "0.1.0" });
      server.registerTool("page", { description: "Publishes a page.", inputSchema: pageSchema }, result);
      return server;
    },
    { responseMode: "json" },
  );
  return function mcpSdkV2Route(c) {
    return handler.fetch(c.req.raw);
  };
}
