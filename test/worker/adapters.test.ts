/**
 * gpt-address/ai inside workerd: the AI SDK's own test model (`MockLanguageModelV4`) calls the
 * example worker (wrangler.toml's `main`, through its `fetch` export) with the adapter running in
 * the same runtime. workerd cannot load the compiled validator (no `data:` module, and deployed,
 * no `eval`; the test pool itself allows `eval`), so the local check is the portable validator's. The tool call acts (200), a bad call is a tool error with the pointer and keyword,
 * and a form changed between arrival and act (412) is fetched again.
 */
import { exports } from "cloudflare:workers";
import { generateText, isStepCount } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { addressTool } from "../../src/ai/index.ts";
import { contactAddress } from "../../src/client/address-tool.ts";

const BASE = "https://pages.example";
/** The example worker as the adapter's `fetch`, counting requests by method and path. */
function workerFetch(seen: string[], olderFirst = false) {
  let servedOlder = !olderFirst;
  return async (request: Request): Promise<Response> => {
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
    const response = await exports.default.fetch(request);
    if (servedOlder || request.method !== "GET") return response;
    // The first arrival is an older version of the form: the act pinned to it gets 412.
    servedOlder = true;
    const document = (await response.json()) as { p: string };
    return Response.json({ ...document, p: `${document.p} (older)` }, { headers: { etag: '"older"' } });
  };
}

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const call = (input: unknown, id: string): GenerateResult => ({
  content: [{ type: "tool-call", toolCallId: id, toolName: "feedback", input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});
const done: GenerateResult = {
  content: [{ type: "text", text: "Done." }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
};

describe("gpt-address/ai in workerd against the example worker", () => {
  it("V3 the compiled validator cannot load here, so the local check is the portable validator, with the same pointer and keyword", async () => {
    const tool = await contactAddress(`${BASE}/feedback`, { fetch: workerFetch([]), cache: new Map() });
    expect(tool.validator).toBe("portable");
    expect(tool.check({ rating: 7, topic: "other" })).toMatchObject({ pointer: "/properties/rating/maximum" });
  });

  it("R1 the model's tool call acts (200); a bad call is a tool error naming the pointer and keyword, never sent", async () => {
    const seen: string[] = [];
    const feedback = await addressTool(`${BASE}/feedback`, { fetch: workerFetch(seen), cache: new Map() });
    const model = new MockLanguageModelV4({
      doGenerate: [call({ rating: 7, topic: "other" }, "c1"), call({ rating: 4, topic: "other" }, "c2"), done],
    });
    const result = await generateText({ model, tools: { feedback }, stopWhen: isStepCount(4), prompt: "4 stars" });
    const error = result.steps[0]!.content.find((part) => part.type === "tool-error") as { error: Error };
    expect(error.error.message).toContain("the form rejects it at /properties/rating/maximum (maximum)");
    expect(result.steps[1]!.content.find((part) => part.type === "tool-result")).toMatchObject({
      output: { received: true, rating: 4 },
    });
    expect(seen.filter((line) => line === "POST /feedback")).toHaveLength(1);
  });

  it("X2 a form changed between arrival and act (412) is fetched again, and the model's next call lands", async () => {
    const seen: string[] = [];
    const feedback = await addressTool(`${BASE}/feedback`, { fetch: workerFetch(seen, true), cache: new Map() });
    const model = new MockLanguageModelV4({
      doGenerate: [call({ rating: 5, topic: "other" }, "c1"), call({ rating: 5, topic: "other" }, "c2"), done],
    });
    const result = await generateText({ model, tools: { feedback }, stopWhen: isStepCount(4), prompt: "5 stars" });
    const error = result.steps[0]!.content.find((part) => part.type === "tool-error") as { error: Error };
    expect(error.error.message).toContain("(412 Precondition Failed)");
    expect(result.steps[1]!.content.find((part) => part.type === "tool-result")).toMatchObject({
      output: { received: true, rating: 5 },
    });
    expect(seen).toEqual(["GET /feedback", "POST /feedback", "GET /feedback", "POST /feedback"]);
  });
});
