/**
 * Issue 31 at the MCP door: a `tools/call` is read under its tool's own bound (its form's
 * `maxBytes` plus `NAMED_CALL_ENVELOPE_BYTES`), not the endpoint's (the largest tool's), so that
 * a hostile call to a small tool costs what its form admits. The tool is known from the
 * 2026-07-28 `Mcp-Method` and `Mcp-Name` fields, or, for a 2025-era call, from the message's
 * first bytes when `params.name` comes before `params.arguments` (as the SDKs write it); any
 * other method is held to `MESSAGE_MAX_BYTES` from its first bytes. Everything else is read as
 * before.
 */
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forms } from "../../examples/pages/generated/forms.js";
import { verificationLimits } from "../../src/address/verification.ts";
import { MESSAGE_MAX_BYTES, mcp, NAMED_CALL_ENVELOPE_BYTES } from "../../src/mcp/mcp.ts";
import { serve } from "../../src/node/index.ts";
import { postMcp } from "../mcp-corpus.ts";
import { exchange, postHead } from "../runtimes/raw-http.ts";

const app = new Hono();
app.all(
  "/mcp",
  mcp([
    { form: forms.page, act: () => ({ published: true }) },
    { form: forms.feedback, act: () => ({ received: true }) },
  ]),
);

const feedbackBytes = verificationLimits(forms.feedback, {}, "test").maxBytes;

/** A 2026-07-28 `tools/call` of `name` with `args`; `fields` false leaves out Mcp-Method and Mcp-Name. */
function call(name: string, args: Record<string, unknown>, fields = true) {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: args, _meta: meta },
  });
  return postMcp(app, body, fields ? { "mcp-method": "tools/call", "mcp-name": name } : {}, "2026-07-28");
}

describe("issue 31: a named tools/call is read under its tool's bound", () => {
  const large = { rating: 4, topic: "other", comment: "x".repeat(feedbackBytes + NAMED_CALL_ENVELOPE_BYTES) };

  it("a valid call to the small tool acts", async () => {
    const answer = await call("feedback", { rating: 4, topic: "other" });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { result: { isError: boolean } }).result.isError).toBe(false);
  });

  it("a body past the named tool's bound is 413, unread past it, whatever the endpoint's bound", async () => {
    const answer = await call("feedback", large);
    expect(answer.status).toBe(413);
  });

  it("the same body with the fields left out is held to the tool's bound from its first bytes: 413", async () => {
    const answer = await call("feedback", large, false);
    expect(answer.status).toBe(413);
  });

  it("a name that is no tool of the endpoint leaves the endpoint's bound", async () => {
    const answer = await call("nosuchtool", large);
    expect(answer.status).not.toBe(413);
  });
});

/** A 2025-11-25 `tools/call` (no Mcp-Name) as `text`, the message spelled by the caller. */
function call2025(text: string) {
  return postMcp(app, text);
}

describe("issue 31: a 2025-era tools/call is held to its tool's bound by its first bytes", () => {
  const comment = "x".repeat(feedbackBytes + NAMED_CALL_ENVELOPE_BYTES);
  const args = JSON.stringify({ rating: 4, topic: "other", comment });

  it("name before arguments, past the small tool's bound: 413 (before: read whole, parsed, refused by the form)", async () => {
    const answer = await call2025(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"feedback","arguments":${args}}}`,
    );
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { id: unknown }).id).toBe(null);
  });

  it("a valid call to the small tool acts (control)", async () => {
    const answer = await call2025(
      '{"method":"tools/call","params":{"name":"feedback","arguments":{"rating":4,"topic":"other"}},"jsonrpc":"2.0","id":7}',
    );
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { result: { isError: boolean } }).result.isError).toBe(false);
  });

  it("arguments before name: the endpoint's bound, as before (the form refuses it: a tool error, not 413)", async () => {
    const answer = await call2025(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":${args},"name":"feedback"}}`,
    );
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { result: { isError: boolean } }).result.isError).toBe(true);
  });

  it("a method other than tools/call past MESSAGE_MAX_BYTES: 413 from its first bytes", async () => {
    const padding = "y".repeat(MESSAGE_MAX_BYTES);
    const answer = await call2025(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"${padding}"}}}`);
    expect(answer.status).toBe(413);
  });

  describe("over a socket: refused once the head arrived, the rest never sent", () => {
    let server: ReturnType<typeof serve>;
    let port: number;
    beforeAll(async () => {
      await new Promise<void>((resolve) => {
        server = serve(app, {
          port: 0,
          onListen: (info: AddressInfo) => {
            port = info.port;
            resolve();
          },
        });
      });
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("a Content-Length of the endpoint's bound, 16 KiB sent: 413 at once, not the body deadline", async () => {
      const head = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"feedback","arguments":{"comment":"`;
      const sent = head + "x".repeat(16_384 - head.length);
      const seen = await exchange(
        port,
        [
          {
            delayMs: 0,
            bytes: postHead("/mcp", [
              "Accept: application/json, text/event-stream",
              "MCP-Protocol-Version: 2025-11-25",
              "Content-Length: 900000",
            ]),
          },
          { delayMs: 0, bytes: sent },
        ],
        "wait",
        4_000,
      );
      expect(seen.status).toBe(413);
      expect(seen.answeredMs).toBeLessThan(2_000);
    });
  });
});
