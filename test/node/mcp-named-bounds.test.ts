/**
 * Issue 31 at the MCP door: a 2026-07-28 `tools/call` whose `Mcp-Method` and `Mcp-Name` fields
 * name a tool is read under that tool's own bound (its form's `maxBytes` plus
 * `NAMED_CALL_ENVELOPE_BYTES`), not the endpoint's (the largest tool's), so that a hostile call
 * to a small tool costs what its form admits. Everything else is read as before.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { forms } from "../../examples/pages/generated/forms.js";
import { verificationLimits } from "../../src/address/verification.ts";
import { mcp, NAMED_CALL_ENVELOPE_BYTES } from "../../src/mcp/mcp.ts";

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
  return app.request("/mcp", {
    method: "POST",
    body,
    headers: {
      host: "127.0.0.1",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      ...(fields ? { "mcp-method": "tools/call", "mcp-name": name } : {}),
    },
  });
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

  it("the same body with the fields left out is read under the endpoint's bound (the form refuses it: a tool error)", async () => {
    const answer = await call("feedback", large, false);
    // 2026-07-28 requires the fields: without them the request is refused in band, not as too large.
    expect(answer.status).not.toBe(413);
  });

  it("a name that is no tool of the endpoint leaves the endpoint's bound", async () => {
    const answer = await call("nosuchtool", large);
    expect(answer.status).not.toBe(413);
  });
});
