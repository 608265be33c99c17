/**
 * The MCP door's MCP Apps pages inside workerd (issue 14 §5): each tool named as its form
 * declares `ui://<name>/form` as its UI, `resources/list` lists the pages and `resources/read`
 * answers the exact HTML built with the form (`text/html;profile=mcp-app`), in every revision's
 * method table; the page's tool calls take the strict path (V3) like any other call.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { forms } from "../../examples/pages/generated/forms.js";
import { mcp } from "../../src/mcp/mcp.ts";
import type { AnyMcpAddress } from "../../src/mcp/tools.ts";

const MIME = "text/html;profile=mcp-app";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } } },
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
};

function door(tools: AnyMcpAddress[]) {
  const app = new Hono();
  app.all("/mcp", mcp(tools));
  let id = 0;
  return async (
    method: string,
    params?: unknown,
    headers: Record<string, string> = {},
    // biome-ignore lint/suspicious/noExplicitAny: the tests read answers as plain JSON, member by member.
  ): Promise<{ status: number; body: any }> => {
    const message = { jsonrpc: "2.0", id: ++id, method, ...(params === undefined ? {} : { params }) };
    const response = await app.fetch(
      new Request("http://127.0.0.1:8881/mcp", {
        method: "POST",
        body: JSON.stringify(message),
        headers: { "content-type": "application/json", accept: "application/json", ...headers },
      }),
    );
    return { status: response.status, body: await response.json() };
  };
}

const acts: unknown[] = [];
const rpc = door([
  {
    form: forms.page,
    act: (value: unknown) => {
      acts.push(value);
      return { id: "p1", url: "http://127.0.0.1/pages/p1" };
    },
  },
  { form: forms.feedback, act: (value: { rating: number }) => ({ received: true, rating: value.rating }) },
]);

describe("mcp(): MCP Apps pages", () => {
  it("each tool declares ui://<name>/form; initialize announces resources and the io.modelcontextprotocol/ui extension", async () => {
    const init = await rpc("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } } },
      clientInfo: { name: "t", version: "1" },
    });
    expect(init.body.result.capabilities).toEqual({
      tools: { listChanged: false },
      resources: { listChanged: false },
      extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } },
    });
    const tools = (await rpc("tools/list")).body.result.tools;
    expect(tools.map((t: { _meta: unknown }) => t._meta)).toEqual([
      { ui: { resourceUri: "ui://page/form" } },
      { ui: { resourceUri: "ui://feedback/form" } },
    ]);
  });

  it("resources/list lists the pages as text/html;profile=mcp-app, in every revision", async () => {
    for (const [params, headers] of [
      [undefined, { "mcp-protocol-version": "2025-06-18" }],
      [{}, { "mcp-protocol-version": "2025-11-25" }],
      [{ _meta: ENVELOPE }, { "mcp-protocol-version": "2026-07-28", "mcp-method": "resources/list" }],
    ] as const) {
      const { status, body } = await rpc("resources/list", params, headers);
      expect(status).toBe(200);
      expect(body.result.resources.map((r: { uri: string; mimeType: string }) => [r.uri, r.mimeType])).toEqual([
        ["ui://page/form", MIME],
        ["ui://feedback/form", MIME],
      ]);
    }
    expect((await rpc("resources/list", { cursor: "x" })).body.error.code).toBe(-32602);
  });

  it("resources/read answers the exact HTML built with the form; it cannot fetch and calls the tool instead", async () => {
    for (const form of [forms.page, forms.feedback]) {
      const uri = `ui://${form.name}/form`;
      const { status, body } = await rpc("resources/read", { uri });
      expect(status).toBe(200);
      expect(body.result.contents).toEqual([{ uri, mimeType: MIME, text: form.appPage }]);
      const html: string = body.result.contents[0].text;
      expect(html).toContain('<form id="gpt-form"');
      expect(html).toContain("function gptAddressBridge(");
      expect(html).not.toContain("connect-src");
      expect(form.page).toContain("connect-src");
      expect(form.page).not.toContain("function gptAddressBridge(");
    }
    const modern = await rpc(
      "resources/read",
      { uri: "ui://feedback/form", _meta: ENVELOPE },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "resources/read", "mcp-name": "ui://feedback/form" },
    );
    expect(modern.body.result.contents[0].text).toBe(forms.feedback.appPage);
    expect(modern.body.result.resultType).toBe("complete");
  });

  it("resources/read refuses: an unknown URI -32002 (-32602 in 2026-07-28), no uri or a non-string -32602, a disagreeing Mcp-Name -32020", async () => {
    expect((await rpc("resources/read", { uri: "ui://nobody/form" })).body.error).toMatchObject({
      code: -32002,
      data: { uri: "ui://nobody/form" },
    });
    expect((await rpc("resources/read", { uri: "ui://__proto__/form" })).body.error.code).toBe(-32002);
    expect((await rpc("resources/read", {})).body.error.code).toBe(-32602);
    expect((await rpc("resources/read", { uri: 1 })).body.error.code).toBe(-32602);
    const headers = {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "resources/read",
      "mcp-name": "ui://page/form",
    };
    const mismatch = await rpc("resources/read", { uri: "ui://feedback/form", _meta: ENVELOPE }, headers);
    expect([mismatch.status, mismatch.body.error.code]).toEqual([400, -32020]);
    // 2026-07-28 never emits -32002: an unknown URI is -32602 ("Error Codes").
    const unknown = await rpc(
      "resources/read",
      { uri: "ui://nobody/form", _meta: ENVELOPE },
      { ...headers, "mcp-name": "ui://nobody/form" },
    );
    expect([unknown.status, unknown.body.error.code, unknown.body.error.data]).toEqual([
      200,
      -32602,
      { uri: "ui://nobody/form" },
    ]);
    // The control: the same request with agreeing names.
    expect(
      (await rpc("resources/read", { uri: "ui://page/form", _meta: ENVELOPE }, headers)).body.result.contents,
    ).toHaveLength(1);
  });

  it("a tool renamed by toolName, or a form built without its page, declares no UI and lists no resource", async () => {
    const { appPage: _, ...withoutPage } = forms.feedback;
    const other = door([
      { form: forms.page, toolName: "publish", act: () => ({}) },
      { form: withoutPage, act: () => ({}) },
    ]);
    const tools = (await other("tools/list")).body.result.tools;
    expect(tools.map((t: object) => "_meta" in t)).toEqual([false, false]);
    expect((await other("resources/list")).body.result.resources).toEqual([]);
    const init = await other("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    expect(init.body.result.capabilities).toEqual({ tools: { listChanged: false } });
  });
});
