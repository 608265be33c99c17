/**
 * `gpt-address mcp --async` follows an act's run (docs/runs.md), driven by the official MCP SDK
 * client (`@modelcontextprotocol/sdk` 1.32.2, `Client` + `StdioClientTransport`) over stdio,
 * against the project's own `address()` with runs on loopback
 * (test/node/client/render-address.ts): the call's `progressToken` gets `notifications/progress` as
 * the run goes, growing; the result is the run's; the client's cancellation (its
 * `AbortSignal`, sent as `notifications/cancelled`) DELETEs the run, whose act sees the abort.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { type RenderAddress, type RenderAddressOptions, serveRenderAddress } from "../client/render-address.ts";
import { root } from "../client/servers.ts";

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

let server: RenderAddress | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** The bridge over a run address, `gpt-address mcp <address> ...args` (the bin, by Node's type stripping). */
async function connect(options: RenderAddressOptions, args: string[]) {
  server = await serveRenderAddress({ stepMs: 150, pollIntervalMs: 250, retryAfter: null, ...options });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, "src/cli/bin.ts"), "mcp", server.address, ...args],
    cwd: root,
    stderr: "pipe",
  });
  client = new Client({ name: "gpt-address-mcp-runs-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, server };
}

describe("gpt-address mcp --async: runs through the official SDK client", () => {
  it("a call with a progressToken gets progress notifications that grow to 1, and the run's result", async () => {
    const { client, server } = await connect({}, ["--async", "--wait", "0"]);
    const progress: Progress[] = [];
    const result = (await client.callTool({ name: "render", arguments: { title: "Q3", pages: 5 } }, undefined, {
      onprogress: (p) => progress.push(p),
    })) as ToolResult;
    expect(result).toMatchObject({ isError: false, structuredContent: { title: "Q3", pages: 5, rendered: true } });
    expect(server.seen.find((r) => r.method === "POST")!.headers.prefer).toBe("respond-async, wait=0");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    const values = progress.map((p) => p.progress);
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThan(values[i - 1]!);
    // The bridge's last notification (progress 1, "completed") comes just before the response; the
    // SDK client handles notifications a microtask late and has dropped the call's progress
    // handler by then, so it may not be seen here.
    for (const p of progress) expect(p).toMatchObject({ total: 1 });
    expect(values.at(-1)!).toBeGreaterThan(0);
    expect(progress.some((p) => /^page \d of 5$/.test(p.message ?? ""))).toBe(true);
  }, 30_000);

  it("the client's cancellation DELETEs the run and its act sees the abort; the bridge serves on", async () => {
    const { client, server } = await connect({ stepMs: 300 }, ["--async"]);
    const controller = new AbortController();
    const pending = client.callTool({ name: "render", arguments: { title: "Long", pages: 60 } }, undefined, {
      signal: controller.signal,
      onprogress: () => {},
    });
    await expect
      .poll(() => server.seen.filter((r) => r.method === "GET" && r.path.includes("/runs/")).length, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(1);
    controller.abort("the user stopped it");
    await expect(pending).rejects.toThrow();
    await expect.poll(() => server.seen.filter((r) => r.method === "DELETE").length, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => server.aborted).toHaveLength(1);
    const quick = (await client.callTool({ name: "render", arguments: { title: "Q", pages: 1 } })) as ToolResult;
    expect(quick.structuredContent).toEqual({ title: "Q", pages: 1, rendered: true });
  }, 30_000);

  it("without --async, a 202 is followed all the same (no progressToken: no notifications); a failed run is a tool error", async () => {
    const { client, server } = await connect({ alwaysAsync: true }, []);
    const done = (await client.callTool({ name: "render", arguments: { title: "A", pages: 2 } })) as ToolResult;
    expect(done.structuredContent).toEqual({ title: "A", pages: 2, rendered: true });
    expect(server.seen.find((r) => r.method === "POST")!.headers.prefer).toBeUndefined();
    const failed = (await client.callTool({ name: "render", arguments: { title: "fail", pages: 3 } })) as ToolResult;
    expect(failed.isError).toBe(true);
    expect(failed.content[0]!.text).toMatch(/ran in the background, but it failed/);
  }, 30_000);
});
