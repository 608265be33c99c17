/**
 * The example server serves every form at `/<name>` beside paths of its own (`/mcp`,
 * `/pages/<id>`, `/metrics`): the list of its own paths is complete, and a form named like one
 * of them is refused with a reason (a form `mcp` would otherwise answer where the MCP door does);
 * a deployment names the hosts its MCP door answers for (`MCP_ALLOWED_HOSTS`).
 */
import { describe, expect, it } from "vitest";
import { createExampleApp, mcpAllowedHosts } from "../../examples/pages/app.ts";
import { forms } from "../../examples/pages/generated/forms.js";
import { RESERVED_PATHS, reservedPathReason } from "../../examples/pages/paths.ts";
import { MemoryPageStore } from "../../examples/pages/store.ts";

describe("the example server's own paths", () => {
  it("every route that is not a form's is under a reserved path (the list is complete)", () => {
    const store = new MemoryPageStore();
    const app = createExampleApp(() => store, { metrics: true });
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
