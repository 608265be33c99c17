/**
 * The MCP door of the example (`/mcp`) over real HTTP on loopback, against one runtime, with
 * the official clients: v1 `@modelcontextprotocol/sdk` (protocol up to 2025-11-25) and v2
 * `@modelcontextprotocol/client` in `legacy` and `auto` negotiation (2026-07-28), plus raw
 * requests for what a client never sends (a duplicate member, hostile envelopes) and four
 * scenarios of the official conformance suite, and the render tool as a task (2025-11-25
 * experimental tasks: created, polled to its result, cancelled). Each
 * `test/runtimes/<runtime>.test.ts` calls {@link mcpSuite} once.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forms } from "../../examples/pages/generated/forms.js";
import { verificationLimits } from "../../src/address/verification.ts";
import { NAMED_CALL_ENVELOPE_BYTES } from "../../src/mcp/mcp.ts";
import { hostileCorpus, VALID_CALL } from "../mcp-corpus.ts";
import { type FakeUpstash, startFakeUpstash } from "./fake-upstash.ts";
import { launch, type Running, type RuntimeName, root } from "./harness.ts";

interface FormFile {
  p: string;
  m: { role: string; content: string }[];
  s: { title?: string; description?: string };
}
const file = (name: string): FormFile => JSON.parse(readFileSync(join(root, `forms/${name}.json`), "utf8"));
/** The form's own example act: the content of its last assistant message. */
const example = (form: FormFile): Record<string, unknown> =>
  JSON.parse(form.m.filter((message) => message.role === "assistant").at(-1)!.content);

const page = file("page");
const feedback = file("feedback");
const render = file("render");
/** The feedback tool's bound on its arguments: its form's `maxBytes` default. */
const feedbackMaxBytes = verificationLimits(forms.feedback, {}, "test").maxBytes;
const CONFORMANCE = join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

/** A tool result as the clients return it. */
interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The listing and calls every client must get right; `client` is v1 or v2 (same surface). */
async function exercise(
  client: {
    listTools(): Promise<{ tools: { name: string; title?: string; description?: string; inputSchema: unknown }[] }>;
    callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
    listResources(): Promise<{ resources: { uri: string; mimeType?: string }[] }>;
    readResource(params: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; text?: string }[] }>;
    getServerCapabilities(): Record<string, unknown> | undefined;
  },
  server: Running,
): Promise<void> {
  const { tools } = await client.listTools();
  // MCP Apps: each tool's UI is its page, read back byte for byte as it was built.
  expect(client.getServerCapabilities()).toMatchObject({
    resources: {},
    extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
  });
  const { resources } = await client.listResources();
  expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
    ["ui://page/form", "text/html;profile=mcp-app"],
    ["ui://feedback/form", "text/html;profile=mcp-app"],
    ["ui://render/form", "text/html;profile=mcp-app"],
  ]);
  for (const form of [forms.page, forms.feedback, forms.render]) {
    const uri = `ui://${form.name}/form`;
    const tool = tools.find((t) => t.name === form.name) as { _meta?: unknown };
    expect(tool._meta).toEqual({ ui: { resourceUri: uri } });
    const { contents } = await client.readResource({ uri });
    expect(contents).toEqual([{ uri, mimeType: "text/html;profile=mcp-app", text: form.appPage }]);
  }
  expect(tools.map((tool) => tool.name).sort()).toEqual(["feedback", "page", "render"]);
  for (const [name, form] of [
    ["page", page],
    ["feedback", feedback],
    ["render", render],
  ] as const) {
    const tool = tools.find((t) => t.name === name)!;
    expect(tool.inputSchema).toEqual(form.s);
    // s.description, the words of every door; p speaks to the HTTP actor (docs/mcp.md, "Words").
    expect(tool.description).toBe(form.s.description);
    expect(tool.title).toBe(form.s.title);
  }

  // The form's own example: the act's result, checked by the client against outputSchema.
  const rated = (await client.callTool({ name: "feedback", arguments: example(feedback) })) as ToolResult;
  expect(rated.isError).toBe(false);
  expect(rated.structuredContent).toEqual({ received: true, rating: example(feedback).rating });
  expect(JSON.parse(rated.content![0]!.text!)).toEqual(rated.structuredContent);

  const published = (await client.callTool({ name: "page", arguments: example(page) })) as ToolResult;
  expect(published.isError).toBe(false);
  const { url } = published.structuredContent as { id: string; url: string };
  expect(url.startsWith(`${server.url}/pages/`)).toBe(true);
  const stored = await fetch(url);
  expect(stored.status).toBe(200);
  expect(await stored.text()).toContain("<html");

  // An act that takes a while (two pages of a document), called by a client that asks for no
  // task: it waits for the result, as for any tool.
  const rendered = (await client.callTool({
    name: "render",
    arguments: { title: "Two pages through MCP", pages: 2 },
  })) as ToolResult;
  expect(rendered.isError).toBe(false);
  expect(rendered.structuredContent).toMatchObject({ pages: 2 });
  const document = await fetch((rendered.structuredContent as { url: string }).url);
  expect(await document.text()).toContain("Page 2 of 2");

  // An invalid value: a tool error, no result, nothing published.
  const refused = (await client.callTool({ name: "page", arguments: { ...example(page), title: "" } })) as ToolResult;
  expect(refused.isError).toBe(true);
  expect(refused.structuredContent).toBeUndefined();
  expect(refused.content![0]!.text).not.toContain("/pages/");
}

export function mcpSuite(name: RuntimeName): void {
  describe(`${name}: the example's MCP door at /mcp`, { timeout: 60_000 }, () => {
    let server: Running;
    let upstash: FakeUpstash | undefined;
    let failure: unknown;
    const endpoint = () => {
      if (failure !== undefined) throw failure;
      return new URL(`${server.url}/mcp`);
    };
    const post = (body: string | Uint8Array, headers: Record<string, string> = {}) =>
      fetch(endpoint(), {
        method: "POST",
        body,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      });

    beforeAll(async () => {
      let env: Record<string, string> = {};
      if (name === "vercel") {
        upstash = await startFakeUpstash();
        env = { UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token };
      }
      try {
        server = await launch(name, env);
      } catch (error) {
        failure = error;
      }
    });

    afterAll(async () => {
      await server?.stop();
      await upstash?.close();
    });

    it("v1 SDK client (1.32.2): initialize at 2025-11-25, list, call valid and invalid", async () => {
      const transport = new TransportV1(endpoint());
      const client = new ClientV1({ name: "gpt-address-test-v1", version: "1.0.0" });
      await client.connect(transport);
      try {
        expect(transport.protocolVersion).toBe("2025-11-25");
        expect(client.getServerVersion()?.name).toBe("gpt-address-example");
        await exercise(client, server);
      } finally {
        await client.close();
      }
    });

    it("v2 client (2.4.0), legacy negotiation: the 2025 handshake", async () => {
      const client = new ClientV2({ name: "gpt-address-test-v2", version: "2.0.0" });
      await client.connect(new TransportV2(endpoint()));
      try {
        expect(client.getProtocolEra()).toBe("legacy");
        expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
        await exercise(client, server);
      } finally {
        await client.close();
      }
    });

    it("v2 client (2.4.0), auto negotiation: server/discover selects 2026-07-28", async () => {
      const client = new ClientV2(
        { name: "gpt-address-test-v2", version: "2.0.0" },
        { versionNegotiation: { mode: "auto" } },
      );
      await client.connect(new TransportV2(endpoint()));
      try {
        expect(client.getProtocolEra()).toBe("modern");
        expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
        await exercise(client, server);
      } finally {
        await client.close();
      }
    });

    it("tasks (2025-11-25, v1 SDK client): render as a task, polled with tasks/get to its result; another cancelled with tasks/cancel", async () => {
      const client = new ClientV1(
        { name: "gpt-address-test-tasks", version: "1.0.0" },
        { capabilities: { tasks: {} } },
      );
      await client.connect(new TransportV1(endpoint()));
      try {
        expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
        const { tools } = await client.listTools();
        expect(tools.find((tool) => tool.name === "render")?.execution).toEqual({ taskSupport: "optional" });
        // The example's render takes 250 ms a page: two pages run as a task to the result.
        const seen: string[] = [];
        let result: ToolResult | undefined;
        const stream = client.experimental.tasks.callToolStream(
          { name: "render", arguments: { title: "Two pages as a task", pages: 2 } },
          CallToolResultSchema,
          { task: { ttl: 60_000 } },
        );
        for await (const message of stream) {
          seen.push(message.type === "taskStatus" ? `status:${message.task.status}` : message.type);
          if (message.type === "result") result = message.result as ToolResult;
          if (message.type === "error") throw message.error;
        }
        expect(seen[0]).toBe("taskCreated");
        expect(seen.at(-1)).toBe("result");
        expect(result?.isError).toBe(false);
        expect(result?.structuredContent).toMatchObject({ pages: 2 });
        const document = await fetch((result!.structuredContent as { url: string }).url);
        expect(await document.text()).toContain("Page 2 of 2");

        // Forty pages take ten seconds: cancelled while working, the task reads cancelled.
        const created = await client.request(
          { method: "tools/call", params: { name: "render", arguments: { title: "Cancelled", pages: 40 }, task: {} } },
          CreateTaskResultSchema,
        );
        expect(created.task.status).toBe("working");
        expect((await client.experimental.tasks.cancelTask(created.task.taskId)).status).toBe("cancelled");
        expect((await client.experimental.tasks.getTask(created.task.taskId)).status).toBe("cancelled");
        // Invalid arguments with a task ask: a tool error, and no task.
        const invalid = await client.request(
          { method: "tools/call", params: { name: "render", arguments: { title: "", pages: 41 }, task: {} } },
          CallToolResultSchema,
        );
        expect(invalid.isError).toBe(true);
      } finally {
        await client.close();
      }
    });

    it("V2: a duplicate member in arguments rejects the message (-32700); the control acts", async () => {
      const duplicate = await post(VALID_CALL.replace('"rating":4,', '"rating":4,"rating":5,'), {
        "mcp-protocol-version": "2025-11-25",
      });
      expect(duplicate.status).toBe(400);
      expect(((await duplicate.json()) as { error: { code: number } }).error.code).toBe(-32700);
      const control = await post(VALID_CALL, { "mcp-protocol-version": "2025-11-25" });
      expect(control.status).toBe(200);
      const answer = (await control.json()) as { result: ToolResult };
      expect(answer.result.structuredContent).toEqual({ received: true, rating: 4 });
    });

    it("issue 31: a 2025-era call to the feedback tool past its own bound is 413 from its first bytes; arguments first: the form refuses it", async () => {
      const comment = "x".repeat(feedbackMaxBytes + NAMED_CALL_ENVELOPE_BYTES);
      const args = JSON.stringify({ rating: 4, topic: "other", comment });
      const headers = { "mcp-protocol-version": "2025-11-25" };
      const named = await post(
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"feedback","arguments":${args}}}`,
        headers,
      );
      expect(named.status).toBe(413);
      await named.text();
      const argumentsFirst = await post(
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":${args},"name":"feedback"}}`,
        headers,
      );
      expect(argumentsFirst.status).toBe(200);
      expect(((await argumentsFirst.json()) as { result: ToolResult }).result.isError).toBe(true);
    });

    it("S1: the hostile corpus never gets a 5xx; every answer is a JSON-RPC message or 202", async () => {
      for (const { label, body } of hostileCorpus()) {
        const response = await post(body);
        expect(response.status, label).toBeLessThan(500);
        const text = await response.text();
        if (response.status === 202) expect(text, label).toBe("");
        else expect((JSON.parse(text) as { jsonrpc: string }).jsonrpc, label).toBe("2.0");
      }
      // GET (a client's SSE stream) is 405, with a definite empty body; the endpoint stays up.
      const get = await fetch(endpoint(), { headers: { accept: "text/event-stream", "accept-encoding": "identity" } });
      expect([get.status, get.headers.get("content-length"), get.headers.get("transfer-encoding")]).toEqual([
        405,
        "0",
        null,
      ]);
      expect((await post(VALID_CALL)).status).toBe(200);
    });

    for (const scenario of ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"]) {
      it(`conformance suite 0.1.16: ${scenario}`, async () => {
        const output = await new Promise<string>((resolve, reject) => {
          execFile(
            process.execPath,
            [CONFORMANCE, "server", "--url", endpoint().href, "--scenario", scenario],
            { cwd: root, timeout: 45_000, env: { ...process.env, NO_COLOR: "1" } },
            (error, stdout, stderr) =>
              error === null ? resolve(stdout + stderr) : reject(new Error(`${error.message}\n${stdout}${stderr}`)),
          );
        });
        expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      });
    }
  });
}
