/**
 * The example server serves every form at `/<name>` beside paths of its own (`/mcp`,
 * `/pages/<id>`, `/metrics`): the list of its own paths is complete, and a form named like one
 * of them is refused with a reason (a form `mcp` would otherwise answer where the MCP door does);
 * a deployment names the hosts its MCP door answers for (`MCP_ALLOWED_HOSTS`).
 */
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { createExampleApp, mcpAllowedHosts } from "../../examples/pages/app.ts";
import { forms } from "../../examples/pages/generated/forms.js";
import { RESERVED_PATHS, reservedPathReason } from "../../examples/pages/paths.ts";
import { MemoryPageStore } from "../../examples/pages/store.ts";
import { upload } from "../runtimes/raw-http.ts";

describe("the example server's own paths", () => {
  it("every route that is not a form's is under a reserved path (the list is complete)", () => {
    const store = new MemoryPageStore();
    const app = createExampleApp(() => store, { metricsToken: "t" });
    const own = new Set(
      app.routes.map((route) => route.path.split("/")[1] ?? "").filter((first) => first !== "" && !(first in forms)),
    );
    expect([...own].sort()).toEqual(Object.keys(RESERVED_PATHS).sort());
  });

  it("a form named mcp, pages or metrics is refused with what the path is for; control: page and feedback are not", () => {
    expect(reservedPathReason("mcp")).toMatch(/keeps \/mcp for the MCP door/);
    expect(reservedPathReason("pages")).toMatch(/published pages/);
    expect(reservedPathReason("metrics")).toMatch(/counters/);
    expect(reservedPathReason("page")).toBeNull();
    expect(reservedPathReason("feedback")).toBeNull();
    expect(reservedPathReason("toString")).toBeNull();
  });
});

describe("MCP_ALLOWED_HOSTS", () => {
  const initialize = (host: string) =>
    new Request(`http://${host}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
      }),
    });
  const store = new MemoryPageStore();

  it("reads a comma-separated list; unset or empty keeps the door's loopback default", () => {
    expect(mcpAllowedHosts("gpt.example.com, www.gpt.example.com")).toEqual(["gpt.example.com", "www.gpt.example.com"]);
    expect(mcpAllowedHosts(undefined)).toBeUndefined();
    expect(mcpAllowedHosts(" , ")).toBeUndefined();
  });

  it("a deployment's own host is answered once named (200); control: unnamed it is refused (403), loopback still 200", async () => {
    const deployed = createExampleApp(() => store, { mcp: { allowedHosts: mcpAllowedHosts("gpt.example.com") } });
    expect((await deployed.fetch(initialize("gpt.example.com"))).status).toBe(200);
    expect((await deployed.fetch(initialize("evil.example"))).status).toBe(403);
    const local = createExampleApp(() => store, { mcp: { allowedHosts: mcpAllowedHosts(undefined) } });
    expect((await local.fetch(initialize("gpt.example.com"))).status).toBe(403);
    expect((await local.fetch(initialize("127.0.0.1:8787"))).status).toBe(200);
  });
});

describe("RFC 9112 §9.6 the example's own routes leave a body unread and close, as the doors do", () => {
  /** {@link upload}s `total` bytes with `method` to `path` of the app: the status and `Connection`. */
  async function send(port: number, method: string, path: string, total: number, chunked: boolean) {
    const answer = await upload(
      `http://127.0.0.1:${port}${path}`,
      method,
      total,
      chunked ? "chunked" : "content-length",
    );
    return { status: answer.status, connection: answer.headers.connection };
  }

  it("GET / and a POST to a path that is not there, with 32 MiB: answered with Connection: close, the body never read; without a body the connection is kept (control)", async () => {
    const app = createExampleApp(() => new MemoryPageStore());
    const sockets: Socket[] = [];
    const server = await new Promise<ServerType>((resolve) => {
      const started: ServerType = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started));
    });
    server.on("connection", (socket: Socket) => sockets.push(socket));
    const port = (server.address() as AddressInfo).port;
    try {
      const cases = [
        { method: "GET", path: "/", chunked: false, status: 200 },
        { method: "POST", path: "/nothing", chunked: true, status: 404 },
        { method: "GET", path: "/pages/00000000-0000-4000-8000-000000000000", chunked: false, status: 404 },
      ];
      for (const [k, { method, path, chunked, status }] of cases.entries()) {
        const answer = await send(port, method, path, 32 << 20, chunked);
        expect(answer, `${method} ${path}`).toEqual({ status, connection: "close" });
        expect(sockets[k]!.bytesRead).toBeLessThan(1_048_576);
      }
      expect(await send(port, "GET", "/", 0, false)).toEqual({ status: 200, connection: "keep-alive" });
    } finally {
      (server as Server).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
