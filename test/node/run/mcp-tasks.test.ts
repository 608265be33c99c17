/**
 * Tasks on the MCP door (issue 34, docs/runs.md "On the MCP door"), on a real @hono/node-server
 * on loopback: with the official SDK v1 client (`@modelcontextprotocol/sdk`, experimental tasks
 * of 2025-11-25) a task created by `tools/call`, polled with `tasks/get` to its result
 * (`tasks/result`), and cancelled with `tasks/cancel` (the act's signal aborts); with raw JSON-RPC
 * the tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`), which no official client
 * speaks yet. A client without tasks waits as before; invalid arguments never create a run.
 */
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forms } from "../../../examples/pages/generated/forms.js";
import type { ActContext } from "../../../src/address/options.ts";
import { mcp } from "../../../src/mcp/mcp.ts";
import { MemoryRunStore } from "../../../src/run/memory.ts";

type Feedback = { rating: number; topic: string };
const ARGUMENTS = { rating: 4, topic: "other" };

/** Acts held until the test releases them (by rating), each seeing its signal. */
const gates = new Map<number, () => void>();
const signals: AbortSignal[] = [];
let acted = 0;

async function act(value: Feedback, { signal, progress }: ActContext): Promise<unknown> {
  acted++;
  signals.push(signal);
  progress("started", 0.1);
  await new Promise<void>((resolve, reject) => {
    gates.set(value.rating, resolve);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    setTimeout(resolve, 150); // a slow act, released by the test or after 150 ms
  });
  return { received: true, rating: value.rating };
}

const store = new MemoryRunStore({ maxRuns: 100, ttlMs: 60_000 });
let server: ServerType;
let url = "";

beforeAll(async () => {
  const app = new Hono();
  app.all("/mcp", mcp([{ form: forms.feedback, act, runs: { store, maxWaitMs: 20, pollIntervalMs: 50 } }]));
  server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function sdkClient(): Promise<Client> {
  const client = new Client({ name: "gpt-address-tasks-test", version: "1.0.0" }, { capabilities: { tasks: {} } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("X4 MCP 2025-11-25 experimental tasks, with the official SDK v1 client", () => {
  it("declares tasks for tools/call and the tool's taskSupport; a task created by tools/call is polled with tasks/get to its result", async () => {
    const client = await sdkClient();
    expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    expect(tools[0]?.execution).toEqual({ taskSupport: "optional" });
    const seen: string[] = [];
    let result: unknown;
    const stream = client.experimental.tasks.callToolStream(
      { name: "feedback", arguments: ARGUMENTS },
      CallToolResultSchema,
      {
        task: { ttl: 60_000 },
      },
    );
    for await (const message of stream) {
      seen.push(message.type === "taskStatus" ? `status:${message.task.status}` : message.type);
      if (message.type === "result") result = message.result;
      if (message.type === "error") throw message.error;
    }
    expect(seen[0]).toBe("taskCreated");
    expect(seen).toContain("status:completed");
    expect(seen.at(-1)).toBe("result");
    expect(result).toMatchObject({ structuredContent: { received: true, rating: 4 }, isError: false });
    await client.close();
  });

  it("tasks/cancel cancels a working task: the act sees its signal aborted, and tasks/get reads cancelled", async () => {
    const client = await sdkClient();
    const before = signals.length;
    const created = await client.request(
      { method: "tools/call", params: { name: "feedback", arguments: { rating: 2, topic: "other" }, task: {} } },
      CreateTaskResultSchema,
    );
    expect(created.task.status).toBe("working");
    expect(created.task.pollInterval).toBe(50);
    const cancelled = await client.experimental.tasks.cancelTask(created.task.taskId);
    expect(cancelled.status).toBe("cancelled");
    await expect.poll(() => signals[before]?.aborted).toBe(true);
    expect((await client.experimental.tasks.getTask(created.task.taskId)).status).toBe("cancelled");
    await expect(client.experimental.tasks.cancelTask(created.task.taskId)).rejects.toThrow(/already cancelled/);
    await expect(client.experimental.tasks.getTask("AAAAAAAAAAAAAAAAAAAAAA")).rejects.toThrow(/Task not found/);
    await client.close();
  });

  it("a client that asks for no task waits for the act as before; invalid arguments with a task create no run", async () => {
    const client = await sdkClient();
    const result = await client.callTool({ name: "feedback", arguments: { rating: 3, topic: "other" } });
    expect(result).toMatchObject({ structuredContent: { received: true, rating: 3 }, isError: false });
    const runs = store.size;
    const invalid = await client.request(
      { method: "tools/call", params: { name: "feedback", arguments: { rating: 9, topic: "other" }, task: {} } },
      CallToolResultSchema,
    );
    expect(invalid.isError).toBe(true);
    expect(store.size).toBe(runs);
    await client.close();
  });
});

/** One raw 2026-07-28 request, with the transport's fields; the tasks extension declared unless `tasks` is false. */
async function rpc(method: string, params: Record<string, unknown>, tasks = true) {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": tasks ? { extensions: { "io.modelcontextprotocol/tasks": {} } } : {},
  };
  const name = (params.name ?? params.taskId) as string | undefined;
  const answer = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
    signal: AbortSignal.timeout(10_000),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read answers as plain JSON, member by member.
  return { status: answer.status, body: (await answer.json()) as any };
}

describe("X4 MCP 2026-07-28, the tasks extension io.modelcontextprotocol/tasks (raw JSON-RPC)", () => {
  it("server/discover declares the extension; a long tools/call is a task, polled with tasks/get to its result", async () => {
    const discovered = await rpc("server/discover", {});
    expect(discovered.body.result.capabilities.extensions).toMatchObject({ "io.modelcontextprotocol/tasks": {} });
    const called = await rpc("tools/call", { name: "feedback", arguments: ARGUMENTS });
    const task = called.body.result;
    expect(task).toMatchObject({ resultType: "task", status: "working", ttlMs: 60_000, pollIntervalMs: 50 });
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const working = await rpc("tasks/get", { taskId: task.taskId });
    expect(working.body.result).toMatchObject({ resultType: "complete", taskId: task.taskId });
    gates.get(4)?.();
    let state = working.body.result;
    for (let i = 0; i < 100 && state.status !== "completed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      state = (await rpc("tasks/get", { taskId: task.taskId })).body.result;
    }
    expect(state.status).toBe("completed");
    expect(state.result).toMatchObject({ structuredContent: { received: true, rating: 4 }, isError: false });
  });

  it("tasks/cancel acknowledges and cancels: the act's signal aborts, tasks/get reads cancelled", async () => {
    const before = signals.length;
    const task = (await rpc("tools/call", { name: "feedback", arguments: { rating: 1, topic: "other" } })).body.result;
    expect(task.resultType).toBe("task");
    const ack = await rpc("tasks/cancel", { taskId: task.taskId });
    expect(ack.body.result).toMatchObject({ resultType: "complete" });
    expect(Object.keys(ack.body.result).sort()).toEqual(["_meta", "resultType"]);
    await expect.poll(() => signals[before]?.aborted).toBe(true);
    expect((await rpc("tasks/get", { taskId: task.taskId })).body.result.status).toBe("cancelled");
  });

  it("a client that did not declare the extension waits for the act (a complete result) and gets -32021 from tasks/*; an unknown task is -32602", async () => {
    const called = await rpc("tools/call", { name: "feedback", arguments: { rating: 5, topic: "other" } }, false);
    expect(called.body.result).toMatchObject({ resultType: "complete", structuredContent: { rating: 5 } });
    const refused = await rpc("tasks/get", { taskId: "AAAAAAAAAAAAAAAAAAAAAA" }, false);
    expect(refused.body.error.code).toBe(-32021);
    const unknown = await rpc("tasks/get", { taskId: "AAAAAAAAAAAAAAAAAAAAAA" });
    expect(unknown.body.error.code).toBe(-32602);
    expect((await rpc("tasks/update", { taskId: "AAAAAAAAAAAAAAAAAAAAAA", inputResponses: {} })).body.error.code).toBe(
      -32602,
    );
    expect(acted).toBeGreaterThan(0);
  });
});
