/**
 * gpt-address/ai driven by the AI SDK itself: `generateText` with the SDK's own test model
 * (`MockLanguageModelV4` from `ai/test`) calling the example addresses served on loopback in
 * Node. The model's tool call acts (200), a bad call comes back as a tool error naming the
 * pointer and keyword, and a form changed between arrival and act (412) is fetched again.
 */
import { generateText, isStepCount } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressTool, addressTools } from "../../../src/ai/index.ts";
import { olderFormFirst, type Served, serveExampleBehind } from "../client/servers.ts";

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};
/** A model turn that calls `toolName` with `input`. */
const call = (toolName: string, input: unknown, id: string): GenerateResult => ({
  content: [{ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});
const say = (text: string): GenerateResult => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
});

describe("gpt-address/ai with the AI SDK's test model", () => {
  let server: Served & { seen: string[] };
  beforeAll(async () => {
    server = await serveExampleBehind((request, forward) => forward(request));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("R1 a tool call acts on the address (200 JSON as the tool result); a call the form rejects is a tool error with the pointer and keyword, and is never sent", async () => {
    const tools = await addressTools([`${server.url}/page`, `${server.url}/feedback`], { cache: new Map() });
    expect(Object.keys(tools)).toEqual(["page", "feedback"]);
    const model = new MockLanguageModelV4({
      doGenerate: [
        call("feedback", { rating: 7, topic: "other" }, "c1"),
        call("feedback", { rating: 4, topic: "documentation", comment: "Clear." }, "c2"),
        say("Done."),
      ],
    });
    const posts = () => server.seen.filter((line) => line === "POST /feedback").length;
    const before = posts();
    const result = await generateText({ model, tools, stopWhen: isStepCount(4), prompt: "Rate the docs 4 stars." });
    expect(result.text).toBe("Done.");
    const [first, second] = result.steps;
    const error = first!.content.find((part) => part.type === "tool-error");
    expect(error).toMatchObject({ toolName: "feedback", toolCallId: "c1" });
    expect(String((error as { error: Error }).error.message)).toContain(
      "Not sent, nothing was done: the form rejects it at /properties/rating/maximum (maximum)",
    );
    expect(second!.content.find((part) => part.type === "tool-result")).toMatchObject({
      toolCallId: "c2",
      output: { received: true, rating: 4 },
    });
    expect(posts()).toBe(before + 1);
    // The model was given the form as the tool's input schema, and the error as the call's result.
    const offered = model.doGenerateCalls[0]!.tools!.find((t) => t.name === "feedback") as { inputSchema: unknown };
    expect((offered.inputSchema as { properties: object }).properties).toHaveProperty("rating");
    const told = JSON.stringify(model.doGenerateCalls[1]!.prompt.at(-1));
    expect(told).toContain("/properties/rating/maximum (maximum)");
  });

  it("X2 a form changed between arrival and act (412) is fetched again; the model is told so, and its next call lands", async () => {
    const changing = await serveExampleBehind(olderFormFirst("/feedback"));
    try {
      const feedback = await addressTool(`${changing.url}/feedback`, { cache: new Map() });
      const model = new MockLanguageModelV4({
        doGenerate: [
          call("feedback", { rating: 5, topic: "other" }, "c1"),
          call("feedback", { rating: 5, topic: "other" }, "c2"),
          say("Sent."),
        ],
      });
      const result = await generateText({ model, tools: { feedback }, stopWhen: isStepCount(4), prompt: "5 stars" });
      const error = result.steps[0]!.content.find((part) => part.type === "tool-error") as { error: Error };
      expect(error.error.message).toContain("The address's form changed since it was read (412 Precondition Failed)");
      expect(result.steps[1]!.content.find((part) => part.type === "tool-result")).toMatchObject({
        output: { received: true, rating: 5 },
      });
      expect(changing.seen.filter((line) => line === "GET /feedback")).toHaveLength(2);
      // The second step already offered the form the address now publishes.
      const second = model.doGenerateCalls[1]!.tools![0] as { description?: string };
      expect(second.description).not.toContain("an older version");
    } finally {
      await changing.close();
    }
  });

  it("strict where the provider's profile allows it: for openai the projection (optional comment required and nullable) goes strict, and the model's null is read as absent", async () => {
    const feedback = await addressTool(`${server.url}/feedback`, { actor: "openai", cache: new Map() });
    const model = new MockLanguageModelV4({
      doGenerate: [call("feedback", { rating: 3, topic: "other", comment: null }, "c1"), say("ok")],
    });
    const result = await generateText({ model, tools: { feedback }, stopWhen: isStepCount(3), prompt: "3 stars" });
    const offered = model.doGenerateCalls[0]!.tools![0] as { strict?: boolean; inputSchema: { required: string[] } };
    expect(offered.strict).toBe(true);
    expect(offered.inputSchema.required).toEqual(["rating", "topic", "comment"]);
    expect(result.steps[0]!.content.find((part) => part.type === "tool-result")).toMatchObject({
      output: { received: true, rating: 3 },
    });
    const plain = await addressTool(`${server.url}/feedback`, { cache: new Map() });
    expect((plain as { strict?: boolean }).strict).toBeUndefined();
  });
});
