/**
 * Attacks on the MCP door's reading of a `tools/call` under its tool's bound (issue 31,
 * `callHeadLimit` and `readLimits` of src/mcp/options.ts): valid messages that the endpoint's
 * own `maxBytes` admits must not be refused 413 because of the order of their members or the
 * field that named their tool: an endpoint `maxBytes` the author gave is the bound of every call.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { forms } from "../../examples/pages/generated/forms.js";
import { verificationLimits } from "../../src/address/verification.ts";
import { mcp } from "../../src/mcp/mcp.ts";
import { postMcp } from "../mcp-corpus.ts";

const MiB = 1_048_576;

/** A valid `page` of about 1.2 MB: 12 paragraphs of 50 spans of 1999 characters. */
const span = { text: "a".repeat(1999) };
const page = JSON.stringify({
  title: "large",
  blocks: Array.from({ length: 12 }, () => ({ type: "paragraph", spans: Array.from({ length: 50 }, () => span) })),
});

/** An endpoint whose author raised `maxBytes` above the page form's default (1 MiB). */
const app = new Hono();
app.all("/mcp", mcp([{ form: forms.page, act: () => ({ published: true }) }], { maxBytes: 2 * MiB }));

const post = (text: string, fields: Record<string, string> = {}) => postMcp(app, text, fields);

async function acted(answer: Response): Promise<boolean> {
  if (answer.status !== 200) return false;
  return ((await answer.json()) as { result?: { isError: boolean } }).result?.isError === false;
}

describe("an endpoint maxBytes above 1 MiB, a valid 1.2 MB page call", () => {
  it("the page form's own bound is the 1 MiB default, below the message (premise)", () => {
    expect(verificationLimits(forms.page, {}, "test").maxBytes).toBe(MiB);
    expect(page.length).toBeGreaterThan(MiB + 8192);
    expect(page.length).toBeLessThan(2 * MiB - 1024);
  });

  it("arguments before name: read under the endpoint's 2 MiB, acts (control)", async () => {
    const answer = await post(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":${page},"name":"page"}}`,
    );
    expect(await acted(answer)).toBe(true);
  });

  it("name before arguments, as the SDKs write it: the same message acts too", async () => {
    const answer = await post(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"page","arguments":${page}}}`,
    );
    expect(answer.status).not.toBe(413);
    expect(await acted(answer)).toBe(true);
  });

  it("named in Mcp-Name (2026-07-28 fields, 2025-11-25 body order): acts too", async () => {
    const answer = await post(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":${page},"name":"page"}}`,
      {
        "mcp-method": "tools/call",
        "mcp-name": "page",
      },
    );
    expect(answer.status).not.toBe(413);
  });
});
