/**
 * mcp() inside workerd, on the example's forms: the transport (stateless Streamable HTTP), the
 * revision routing (2025-06-18, 2025-11-25, 2026-07-28), the strict path of the whole message
 * (V1, V2) and of the arguments (V3), DNS-rebinding protection, and a generated corpus of
 * hostile envelopes. Every rejection is paired with an accepted control.
 */
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import { forms } from "../../examples/pages/generated/forms.js";
import type { CompiledForm } from "../../src/address/form.ts";
import type { Rejection } from "../../src/address/rejection.ts";
import { type McpOptions, MESSAGE_MAX_BYTES, mcp } from "../../src/mcp/mcp.ts";
import type { AnyMcpAddress } from "../../src/mcp/tools.ts";
import { hostileCorpus, VALID_CALL } from "../mcp-corpus.ts";

const ACCEPT = "application/json, text/event-stream";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
};

interface Door {
  post(body: BodyInit, headers?: Record<string, string>): Promise<Response>;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read answers as plain JSON, member by member.
  rpc(method: string, params?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  fetch(init: RequestInit & { headers?: Record<string, string> }, url?: string): Promise<Response>;
  readonly acts: unknown[];
  readonly rejections: Rejection[];
}

function door(options: McpOptions = {}, extra: AnyMcpAddress[] = []): Door {
  const acts: unknown[] = [];
  const rejections: Rejection[] = [];
  const tools: AnyMcpAddress[] = [
    {
      form: forms.page,
      act: (value: unknown) => {
        acts.push(value);
        return { id: "p1", url: "http://127.0.0.1/pages/p1" };
      },
    },
    {
      form: forms.feedback,
      act: (value: { rating: number }) => {
        acts.push(value);
        return { received: true, rating: value.rating };
      },
    },
    ...extra,
  ];
  const app = new Hono();
  app.all("/mcp", mcp(tools, { onReject: (r) => rejections.push(r), ...options }));
  const fetch = (init: RequestInit & { headers?: Record<string, string> }, url = "http://127.0.0.1:8821/mcp") =>
    Promise.resolve(app.fetch(new Request(url, init)));
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch({ method: "POST", body, headers: { "content-type": "application/json", accept: ACCEPT, ...headers } });
  let id = 0;
  const rpc = async (method: string, params?: unknown, headers: Record<string, string> = {}) => {
    const message = { jsonrpc: "2.0", id: ++id, method, ...(params === undefined ? {} : { params }) };
    const response = await post(JSON.stringify(message), headers);
    const text = await response.text();
    return { status: response.status, body: text === "" ? null : JSON.parse(text) };
  };
  return { post, rpc, fetch, acts, rejections };
}

const modernHeaders = (method: string, name?: string) => ({
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(name === undefined ? {} : { "mcp-name": name }),
});

/** The text of `s` inside the arrival document, as GET serves it. */
function sText(form: CompiledForm): string {
  const s = JSON.stringify((JSON.parse(form.arrival) as { s: unknown }).s);
  expect(form.arrival).toContain(`"s":${s}`);
  return s;
}

describe("mcp(): tools/list", () => {
  it("V3: one tool per address, in order, inputSchema the very bytes of the arrival's s", async () => {
    const d = door();
    const response = await d.post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', {
      "mcp-protocol-version": "2025-11-25",
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    for (const form of [forms.page, forms.feedback]) expect(text).toContain(`"inputSchema":${sText(form)}`);
    const { result } = JSON.parse(text);
    expect(result.tools.map((t: { name: string }) => t.name)).toEqual(["page", "feedback"]);
    const feedback = result.tools[1];
    const arrival = JSON.parse(forms.feedback.arrival);
    expect(feedback).toEqual({
      name: "feedback",
      title: "feedback",
      // s.description, the words of every door; p speaks to the HTTP actor (docs/mcp.md, "Words").
      description: arrival.s.description,
      inputSchema: arrival.s,
      _meta: { ui: { resourceUri: "ui://feedback/form" } },
    });
    // Legacy revisions carry no 2026-07-28 members.
    expect(result).not.toHaveProperty("ttlMs");
    expect(result).not.toHaveProperty("resultType");
  });

  it("a form without s.description is described by its p", async () => {
    const { s, ...rest } = JSON.parse(forms.feedback.arrival) as { p: string; s: Record<string, unknown> };
    const { description: _, ...plain } = s;
    const arrival = JSON.stringify({ ...rest, s: plain });
    const d = door({}, [{ form: { ...forms.feedback, arrival }, toolName: "plain", act: () => ({}) }]);
    const { body } = await d.rpc("tools/list", {}, { "mcp-protocol-version": "2025-11-25" });
    expect(body.result.tools[2]).toMatchObject({ name: "plain", description: rest.p, inputSchema: plain });
    expect(body.result.tools[1].description).not.toBe(rest.p);
  });

  it("2026-07-28: tools/list carries ttlMs, cacheScope, resultType and serverInfo", async () => {
    const d = door({ ttlMs: 1000, name: "n", version: "9" });
    const { status, body } = await d.rpc("tools/list", { _meta: ENVELOPE }, modernHeaders("tools/list"));
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ ttlMs: 1000, cacheScope: "public", resultType: "complete" });
    expect(body.result._meta["io.modelcontextprotocol/serverInfo"]).toEqual({ name: "n", version: "9" });
    expect(body.result.tools).toHaveLength(2);
  });

  it("a cursor is invalid params (no page is ever issued); without one, the list", async () => {
    const d = door();
    expect((await d.rpc("tools/list", { cursor: "x" })).body.error.code).toBe(-32602);
    expect((await d.rpc("tools/list", {})).body.result.tools).toHaveLength(2);
  });
});

describe("mcp(): revisions", () => {
  it("initialize answers the requested legacy version, else 2025-11-25", async () => {
    const d = door({ instructions: "Use the tools." });
    const init = (protocolVersion: string) =>
      d.rpc("initialize", { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } });
    expect((await init("2025-06-18")).body.result.protocolVersion).toBe("2025-06-18");
    expect((await init("2025-11-25")).body.result.protocolVersion).toBe("2025-11-25");
    expect((await init("2024-11-05")).body.result.protocolVersion).toBe("2025-11-25");
    const modern = (await init("2026-07-28")).body.result;
    expect(modern.protocolVersion).toBe("2025-11-25");
    expect(modern).toMatchObject({ capabilities: { tools: { listChanged: false } }, instructions: "Use the tools." });
    // Bad params: -32602, in-band.
    const bad = await d.rpc("initialize", { protocolVersion: 1 });
    expect(bad).toMatchObject({ status: 200, body: { error: { code: -32602 } } });
  });

  it("ping is a legacy method; 2026-07-28 has server/discover instead", async () => {
    const d = door();
    expect((await d.rpc("ping", undefined, { "mcp-protocol-version": "2025-06-18" })).body.result).toEqual({});
    expect((await d.rpc("server/discover", undefined, { "mcp-protocol-version": "2025-11-25" })).body.error.code).toBe(
      -32601,
    );
    const discovered = await d.rpc("server/discover", { _meta: ENVELOPE }, modernHeaders("server/discover"));
    expect(discovered.body.result).toMatchObject({
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18"],
      capabilities: { tools: { listChanged: false } },
      resultType: "complete",
      cacheScope: "public",
    });
    expect(typeof discovered.body.result.ttlMs).toBe("number");
    expect(await d.rpc("ping", { _meta: ENVELOPE }, modernHeaders("ping"))).toMatchObject({
      status: 404,
      body: { error: { code: -32601 } },
    });
    expect(await d.rpc("initialize", { _meta: ENVELOPE }, modernHeaders("initialize"))).toMatchObject({
      status: 404,
      body: { error: { code: -32601 } },
    });
  });

  it("2026-07-28: an unknown method is 404 Not Found with a -32601 body; before 2026-07-28 it stays 200", async () => {
    const d = door();
    const modern = await d.rpc("tools/unknown", { _meta: ENVELOPE }, modernHeaders("tools/unknown"));
    expect(modern).toMatchObject({ status: 404, body: { jsonrpc: "2.0", error: { code: -32601 } } });
    expect(modern.body.id).toBeTypeOf("number");
    // In 2025-era traffic a 404 means "session expired": the error stays in band.
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const legacy = await d.rpc("tools/unknown", undefined, { "mcp-protocol-version": version });
      expect(legacy).toMatchObject({ status: 200, body: { error: { code: -32601 } } });
    }
    // The control: a method the revision has.
    expect((await d.rpc("tools/list", { _meta: ENVELOPE }, modernHeaders("tools/list"))).status).toBe(200);
  });

  it("2026-07-28: MCP-Protocol-Version, Mcp-Method and Mcp-Name must agree with the body (-32020, 400)", async () => {
    const d = door();
    const params = { name: "feedback", arguments: { rating: 4, topic: "other" }, _meta: ENVELOPE };
    const control = await d.rpc("tools/call", params, modernHeaders("tools/call", "feedback"));
    expect(control.body.result).toMatchObject({ isError: false, resultType: "complete" });
    for (const headers of [
      { ...modernHeaders("tools/call", "feedback"), "mcp-protocol-version": "2025-11-25" },
      { "mcp-method": "tools/call", "mcp-name": "feedback" },
      modernHeaders("tools/list", "feedback"),
      modernHeaders("tools/call", "page"),
      modernHeaders("tools/call"),
    ]) {
      const refused = await d.rpc("tools/call", params, headers);
      expect(refused).toMatchObject({ status: 400, body: { error: { code: -32020 } } });
    }
    expect(d.acts).toHaveLength(1);
  });

  it("a version field disagreeing with the envelope is -32020, even when the envelope names an unknown version", async () => {
    const d = door();
    const params = { name: "feedback", arguments: { rating: 4, topic: "other" }, _meta: ENVELOPE };
    const unknown = { ...params, _meta: { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } };
    const headers = modernHeaders("tools/call", "feedback");
    for (const [body, version] of [
      [params, "2099-01-01"],
      [params, "2025-11-25"],
      [unknown, "2026-07-28"],
      [unknown, "2025-11-25"],
    ] as const) {
      const refused = await d.rpc("tools/call", body, { ...headers, "mcp-protocol-version": version });
      expect(refused, `${body._meta["io.modelcontextprotocol/protocolVersion"]} vs ${version}`).toMatchObject({
        status: 400,
        body: { error: { code: -32020 } },
      });
    }
    // The controls: an unknown version the field repeats is -32022; an agreeing known one acts.
    const repeated = await d.rpc("tools/call", unknown, { ...headers, "mcp-protocol-version": "2099-01-01" });
    expect(repeated).toMatchObject({ status: 400, body: { error: { code: -32022 } } });
    expect((await d.rpc("tools/call", params, headers)).body.result.isError).toBe(false);
    expect(d.acts).toHaveLength(1);
  });

  it("2026-07-28: Mcp-Name in the =?base64?…?= form is decoded before it is compared with the body", async () => {
    const d = door();
    const base64 = (text: string) => `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}?=`;
    const params = { name: "feedback", arguments: { rating: 4, topic: "other" }, _meta: ENVELOPE };
    const call = (name: string, extra: Record<string, string> = {}) =>
      d.rpc("tools/call", params, { ...modernHeaders("tools/call", name), ...extra });
    expect((await call(base64("feedback"))).body.result).toMatchObject({ isError: false });
    for (const name of [
      base64("page"), // another name
      base64("feedback\n"), // decoded, not the body's name
      "=?base64?ZmVlZGJhY2s?=", // unpadded
      "=?base64?ZmVlZGJhY2s=?=x",
      "=?BASE64?ZmVlZGJhY2s=?=", // the markers are lowercase, exactly: a literal name, not this one
      "=?base64?/w==?=", // not UTF-8
      "=?base64?Zm*lZGJhY2s=?=",
    ]) {
      expect(await call(name), name).toMatchObject({ status: 400, body: { error: { code: -32020 } } });
    }
    // resources/read names its uri the same way.
    const uri = "ui://feedback/form";
    const read = await d.rpc(
      "resources/read",
      { uri, _meta: ENVELOPE },
      { ...modernHeaders("resources/read"), "mcp-name": base64(uri) },
    );
    expect(read.body.result.contents[0].uri).toBe(uri);
    // No form can annotate x-mcp-header (closed vocabulary): Mcp-Param-* fields are unrecognized and ignored.
    for (const value of ["4", base64("4"), "=?base64?***?="]) {
      expect((await call("feedback", { "mcp-param-rating": value })).body.result, value).toMatchObject({
        isError: false,
      });
    }
    expect(d.acts).toHaveLength(4);
  });

  it("an envelope naming an unknown version gets -32022 with the supported ones; a malformed one -32602", async () => {
    const d = door();
    const unknown = { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2099-01-01" };
    const refused = await d.rpc(
      "tools/list",
      { _meta: unknown },
      {
        ...modernHeaders("tools/list"),
        "mcp-protocol-version": "2099-01-01",
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: -32022,
      data: { supported: ["2026-07-28", "2025-11-25", "2025-06-18"], requested: "2099-01-01" },
    });
    const malformed = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
    expect((await d.rpc("tools/list", { _meta: malformed }, modernHeaders("tools/list"))).body.error.code).toBe(-32602);
    expect((await d.rpc("tools/list", { _meta: ENVELOPE }, modernHeaders("tools/list"))).status).toBe(200);
  });

  it("a legacy request is governed by MCP-Protocol-Version: unsupported 400, modern without envelope 400", async () => {
    const d = door();
    expect((await d.rpc("tools/list", undefined, { "mcp-protocol-version": "2024-11-05" })).status).toBe(400);
    const bare = await d.rpc("tools/list", undefined, { "mcp-protocol-version": "2026-07-28" });
    expect(bare).toMatchObject({ status: 400, body: { error: { code: -32602 } } });
    for (const version of ["2025-06-18", "2025-11-25"]) {
      expect((await d.rpc("tools/list", undefined, { "mcp-protocol-version": version })).status).toBe(200);
    }
    expect((await d.rpc("tools/list")).status).toBe(200);
  });
});

describe("mcp(): tools/call through the verification core", () => {
  it("V3: valid arguments reach the act; its result is structuredContent and text", async () => {
    const d = door();
    const { body } = await d.rpc("tools/call", { name: "feedback", arguments: { rating: 5, topic: "other" } });
    expect(body.result).toEqual({
      content: [{ type: "text", text: '{"received":true,"rating":5}' }],
      structuredContent: { received: true, rating: 5 },
      isError: false,
    });
    expect(d.acts).toEqual([{ rating: 5, topic: "other" }]);
  });

  it("V3: invalid arguments are isError with a generic text, nothing acted, reported as schema", async () => {
    const d = door();
    const { body } = await d.rpc("tools/call", { name: "feedback", arguments: { rating: 6, topic: "other" } });
    expect(body.result.isError).toBe(true);
    expect(body.result).not.toHaveProperty("structuredContent");
    expect(body.result.content[0].text).not.toContain("maximum");
    expect(d.acts).toEqual([]);
    expect(d.rejections.map((r) => [r.code, r.reason])).toEqual([["schema", "/properties/rating/maximum"]]);
    // Absent arguments are {}: the feedback form requires rating and topic.
    expect((await d.rpc("tools/call", { name: "feedback" })).body.result.isError).toBe(true);
    expect(d.acts).toEqual([]);
  });

  it("V2: the MCP door parses with no string bound: an argument past the form's bound is refused by the form", async () => {
    const d = door();
    // Past feedback's own bound (its comment's maxLength 1999 is 3998 code units), which the
    // HTTP door gives its parser; the envelope's strings are bounded by no form, so this one is not.
    const comment = "x".repeat(forms.feedback.maxStringLength! + 1);
    const { body } = await d.rpc("tools/call", { name: "feedback", arguments: { rating: 4, topic: "other", comment } });
    expect(body.result.isError).toBe(true);
    expect(d.acts).toEqual([]);
    expect(d.rejections.map((r) => [r.code, r.reason])).toEqual([["schema", "/properties/comment/maxLength"]]);
    // Control: within maxLength the same call acts.
    await d.rpc("tools/call", { name: "feedback", arguments: { rating: 4, topic: "other", comment: "fine" } });
    expect(d.acts).toHaveLength(1);
  });

  it("X3: development mode names the code and the failing keyword", async () => {
    const d = door({ development: true });
    const { body } = await d.rpc("tools/call", { name: "feedback", arguments: { rating: 6, topic: "other" } });
    expect(body.result.content[0].text).toContain("schema at /properties/rating/maximum");
  });

  it("V2: a duplicate name in arguments rejects the whole message (-32700, 400); nothing acted", async () => {
    const d = door();
    const duplicate = VALID_CALL.replace('"rating":4,', '"rating":4,"rating":5,');
    const response = await d.post(duplicate);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error" },
    });
    expect(d.acts).toEqual([]);
    expect(d.rejections.map((r) => r.code)).toEqual(["json-syntax:duplicate-name"]);
    // Control: the same message without the duplicate acts.
    expect((await d.post(VALID_CALL)).status).toBe(200);
    expect(d.acts).toHaveLength(1);
  });

  it("unknown tool: -32602 in-band; a throwing act: isError, logged", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const thrower: AnyMcpAddress = {
        form: forms.feedback,
        toolName: "broken",
        act: () => {
          throw new Error("boom");
        },
      };
      const d = door({}, [thrower]);
      expect(await d.rpc("tools/call", { name: "nope", arguments: {} })).toMatchObject({
        status: 200,
        body: { error: { code: -32602 } },
      });
      const broken = await d.rpc("tools/call", { name: "broken", arguments: { rating: 1, topic: "other" } });
      expect(broken.body.result.isError).toBe(true);
      expect(broken.body.result.content[0].text).not.toContain("boom");
      expect(errors).toHaveBeenCalledOnce();
    } finally {
      errors.mockRestore();
    }
  });
});

describe("mcp(): transport", () => {
  it("notifications and responses get 202 with no body; GET and DELETE 405", async () => {
    const d = door();
    for (const body of [
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',
      '{"jsonrpc":"2.0","id":1,"result":{}}',
    ]) {
      const response = await d.post(body);
      expect(response.status).toBe(202);
      expect(await response.text()).toBe("");
    }
    for (const method of ["GET", "DELETE", "PUT"]) {
      const response = await d.fetch({ method, headers: { accept: "text/event-stream" } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    }
  });

  it("batches are refused (-32600, 400); the single message is answered", async () => {
    const d = door();
    const response = await d.post(`[${VALID_CALL}]`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(d.acts).toEqual([]);
    expect((await d.post(VALID_CALL)).status).toBe(200);
  });

  it("V1: a message over maxBytes is 413 before parsing, by Content-Length or by counting", async () => {
    const d = door({ maxBytes: VALID_CALL.length });
    expect((await d.post(VALID_CALL)).status).toBe(200);
    const over = `${VALID_CALL} `;
    expect((await d.post(over)).status).toBe(413);
    const stream = new Blob([over]).stream();
    const streamed = await d.fetch({
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      // @ts-expect-error: duplex is required for a stream body but missing from RequestInit here
      duplex: "half",
    });
    expect(streamed.status).toBe(413);
    expect(d.rejections.map((r) => r.code)).toEqual(["content-too-large", "content-too-large"]);
    expect(d.acts).toHaveLength(1);
  });

  it("issue 31: other methods than tools/call are held to 64 KiB from their first bytes; a wide object is refused from the bytes", async () => {
    const legacy = { "mcp-protocol-version": "2025-06-18" };
    const d = door();
    const wide = `{${Array.from({ length: 90_000 }, (_, k) => `"m${k}":0`).join(",")}}`;
    const ping = (params: string) => d.post(`{"jsonrpc":"2.0","id":1,"method":"ping","params":${params}}`, legacy);
    // Control: a ping whose params hold 200 members is answered.
    const members = Array.from({ length: 200 }, (_, k) => `"m${k}":0`).join(",");
    expect((await ping(`{"_meta":{${members}}}`)).status).toBe(200);
    // A ping's first bytes name its method: past 64 KiB it is 413 before it is parsed.
    const refused = await ping(wide);
    expect(refused.status).toBe(413);
    // Written with its method last, the same wide ping is parsed, and refused at its members.
    const late = await d.post(`{"jsonrpc":"2.0","id":1,"params":${wide},"method":"ping"}`, legacy);
    expect(late.status).toBe(400);
    expect(((await late.json()) as { error: { code: number } }).error.code).toBe(-32700);
    // A ping that large with a small head: 413; a tools/call of the page tool that large acts.
    const big = await ping(`{"_meta":{"pad":"${"x".repeat(MESSAGE_MAX_BYTES)}"}}`);
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: unknown }).error).toEqual({ code: -32600, message: "Message too large" });
    const block = `{"type":"paragraph","spans":[{"text":"${"x".repeat(1900)}"}]}`;
    const page = `{"title":"T","blocks":[${Array.from({ length: 50 }, () => block).join(",")}]}`;
    const call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"page","arguments":${page}}}`;
    expect(call.length).toBeGreaterThan(MESSAGE_MAX_BYTES);
    expect((await d.post(call, legacy)).status).toBe(200);
    expect(d.acts).toHaveLength(1);
    expect(d.rejections.map((r) => r.code)).toEqual([
      "content-too-large",
      "json-syntax:too-many-members",
      "content-too-large",
    ]);
    // An endpoint whose tools are small reads no more than the largest call: feedback's 24,296 bytes and 64 KiB.
    const only = new Hono();
    only.all("/mcp", mcp([{ form: forms.feedback, act: () => ({}) }]));
    const post = (body: string) =>
      only.fetch(
        new Request("http://127.0.0.1:8821/mcp", {
          method: "POST",
          body,
          headers: { "content-type": "application/json", accept: ACCEPT, ...legacy },
        }),
      );
    expect(call.length).toBeGreaterThan(24_296 + MESSAGE_MAX_BYTES);
    expect((await post(call)).status).toBe(413);
  });

  it("RFC 9112 §9.6 a message left unread (413, 415, 406, a 405 or OPTIONS with a body) closes the connection, as the HTTP door's; one read whole keeps it", async () => {
    const d = door({ maxBytes: VALID_CALL.length });
    const unread = [
      await d.post(`${VALID_CALL} `),
      await d.post(VALID_CALL, { "content-type": "text/plain" }),
      await d.post(VALID_CALL, { accept: "text/html" }),
      await d.fetch({ method: "PUT", body: VALID_CALL, headers: { "content-type": "application/json" } }),
      await d.fetch({ method: "OPTIONS", body: VALID_CALL, headers: { "content-type": "application/json" } }),
    ];
    expect(unread.map((answer) => answer.status)).toEqual([413, 415, 406, 405, 204]);
    for (const answer of unread) expect(answer.headers.get("connection")).toBe("close");
    const read = [await d.post(VALID_CALL), await d.post("{"), await d.fetch({ method: "DELETE" })];
    expect(read.map((answer) => answer.status)).toEqual([200, 400, 405]);
    for (const answer of read) expect(answer.headers.get("connection")).toBeNull();
  });

  it("RFC 9110 §12.5.1 Accept: the most specific range decides; application/json;q=0 with */* is 406, application/*;q=0 with application/json is not", async () => {
    const d = door();
    for (const accept of ["application/json;q=0, */*", "application/*;q=0, text/event-stream", "*/*;q=0"]) {
      expect((await d.post(VALID_CALL, { accept })).status, accept).toBe(406);
    }
    for (const accept of [
      "application/*;q=0, application/json",
      "*/*;q=0, application/*;q=0.1",
      "application/json;q=oops, */*",
    ]) {
      expect((await d.post(VALID_CALL, { accept })).status, accept).toBe(200);
    }
    expect(d.acts).toHaveLength(3);
  });

  it("Content-Type must be application/json (415); a coded body 415; Accept without JSON 406", async () => {
    const d = door();
    expect((await d.post(VALID_CALL, { "content-type": "text/plain" })).status).toBe(415);
    expect((await d.post(VALID_CALL, { "content-encoding": "gzip" })).status).toBe(415);
    expect((await d.post(VALID_CALL, { accept: "text/html" })).status).toBe(406);
    expect(
      (await d.post(VALID_CALL, { "content-type": "application/json; charset=utf-8", accept: "*/*" })).status,
    ).toBe(200);
    expect(d.acts).toHaveLength(1);
  });

  it("DNS rebinding: a foreign Host or Origin gets 403, loopback ones 200 (CORS echoes the origin)", async () => {
    const d = door();
    expect((await d.post(VALID_CALL, { host: "evil.example.com" })).status).toBe(403);
    expect((await d.post(VALID_CALL, { origin: "http://evil.example.com" })).status).toBe(403);
    expect((await d.post(VALID_CALL, { origin: "null" })).status).toBe(403);
    expect(d.acts).toEqual([]);
    for (const host of ["localhost:8821", "127.0.0.1", "[::1]:9"]) {
      expect((await d.post(VALID_CALL, { host })).status).toBe(200);
    }
    const allowed = await d.post(VALID_CALL, { origin: "http://localhost:6274" });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    const preflight = await d.fetch({ method: "OPTIONS", headers: { origin: "http://localhost:6274" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Mcp-Method");
  });

  it("allowedHosts for a public name, null for any Host with same-origin or listed Origins only", async () => {
    const named = door({ allowedHosts: ["mcp.example.com"] });
    const url = "https://mcp.example.com/mcp";
    const post = (d: Door, headers: Record<string, string>, at = url) =>
      d.fetch({ method: "POST", body: VALID_CALL, headers: { "content-type": "application/json", ...headers } }, at);
    expect((await post(named, {})).status).toBe(200);
    expect((await post(named, {}, "http://127.0.0.1/mcp")).status).toBe(403);
    const open = door({ allowedHosts: null, allowedOrigins: ["https://app.example"] });
    expect((await post(open, {}, "https://any.example/mcp")).status).toBe(200);
    expect((await post(open, { origin: "https://any.example" }, "https://any.example/mcp")).status).toBe(200);
    expect((await post(open, { origin: "https://app.example" }, "https://any.example/mcp")).status).toBe(200);
    expect((await post(open, { origin: "https://evil.example" }, "https://any.example/mcp")).status).toBe(403);
  });

  it("mcp() refuses a bad tool name, a repeated one, a non-object form, bad limits", () => {
    const act = () => null;
    expect(() => mcp([{ form: forms.feedback, act, toolName: "has space" }])).toThrow(TypeError);
    expect(() =>
      mcp([
        { form: forms.feedback, act },
        { form: forms.feedback, act },
      ]),
    ).toThrow(/two tools/);
    const scalar: CompiledForm = {
      ...forms.feedback,
      name: "scalar",
      arrival: '{"p":"x","m":[],"s":{"type":"string"}}',
    };
    expect(() => mcp([{ form: scalar, act }])).toThrow(/object schema/);
    expect(() => mcp([{ form: forms.feedback, act }], { maxBytes: -1 })).toThrow(RangeError);
    expect(() => mcp([{ form: forms.feedback, act }], { ttlMs: 1.5 })).toThrow(RangeError);
    expect(() =>
      mcp([
        { form: forms.feedback, act },
        { form: forms.feedback, act, toolName: "again" },
      ]),
    ).not.toThrow();
  });
});

describe("mcp(): hostile JSON-RPC corpus", () => {
  it("S1: every hostile envelope gets a JSON-RPC error, a tool error or 202/413/415, never a 5xx", async () => {
    const d = door();
    const corpus = hostileCorpus();
    expect(corpus.length).toBeGreaterThan(100);
    const outcomes: string[] = [];
    let valid = 0;
    for (const { label, body, acts } of corpus) {
      const before = d.acts.length;
      const response = await d.post(body);
      // Only a valid call acts, once.
      expect(d.acts.length - before, label).toBe(acts ? 1 : 0);
      if (acts) {
        valid++;
        expect(response.status, label).toBe(200);
        continue;
      }
      expect(response.status, label).toBeLessThan(500);
      const text = await response.text();
      if (response.status === 202) {
        expect(text, label).toBe("");
        outcomes.push("202");
        continue;
      }
      const answer = JSON.parse(text);
      expect(answer.jsonrpc, label).toBe("2.0");
      if (answer.error !== undefined) {
        expect(Number.isInteger(answer.error.code), label).toBe(true);
        expect(text, label).not.toMatch(/at .*\.ts:\d+/); // never a stack
        outcomes.push(`${response.status} ${answer.error.code}`);
      } else {
        expect(answer.result.isError, label).toBe(true);
        outcomes.push(`${response.status} isError`);
      }
    }
    expect(valid).toBeGreaterThan(0);
    expect(d.acts).toHaveLength(valid);
    // The corpus reaches each stage: parse errors, invalid requests, params, tools, arguments.
    expect(new Set(outcomes)).toEqual(
      new Set([
        "400 -32700",
        "400 -32600",
        "200 -32602",
        "200 -32601",
        "200 isError",
        // An envelope naming an unknown version, sent without MCP-Protocol-Version: the field
        // disagrees with the claim before the claim is judged.
        "400 -32020",
        "400 -32602",
        "202",
      ]),
    );
  });
});
