/**
 * The tool adapters follow an act's run (docs/runs.md), each driven by its own framework: the AI
 * SDK's `generateText` with its test model, LangChain's tool `invoke` with a tool call, the
 * OpenAI Agents SDK's `FunctionTool.invoke`. The address on loopback is the project's own
 * `address()` with runs (test/node/client/render-address.ts): a 202 is followed to `completed` and
 * its result is the tool's; the framework's abort DELETEs the run; a run that fails is a tool error.
 */
import { RunContext } from "@openai/agents";
import { generateText, isStepCount } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { addressTool as aiTool } from "../../../src/ai/index.ts";
import { contactAddress } from "../../../src/client/address-tool.ts";
import { addressTool as langchainTool } from "../../../src/langchain/index.ts";
import { addressTool as agentsTool } from "../../../src/openai-agents/index.ts";
import { type RenderAddress, type RenderAddressOptions, serveRenderAddress } from "../client/render-address.ts";

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};
const call = (input: unknown, id: string): GenerateResult => ({
  content: [{ type: "tool-call", toolCallId: id, toolName: "render", input: JSON.stringify(input) }],
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

let server: RenderAddress | undefined;
const serve = async (options: RenderAddressOptions = {}) => {
  server = await serveRenderAddress({ stepMs: 100, pollIntervalMs: 250, retryAfter: null, ...options });
  return server;
};
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const runReads = (address: RenderAddress) =>
  address.seen.filter((r) => r.method === "GET" && r.path.includes("/runs/"));

describe("the tool adapters follow a run", () => {
  it("AI SDK: generateText's tool call asks for a run (respondAsync) and gets the run's result as the tool result", async () => {
    const address = await serve();
    const render = await aiTool(address.address, { cache: new Map(), respondAsync: { wait: 0 } });
    const model = new MockLanguageModelV4({ doGenerate: [call({ title: "Q3", pages: 4 }, "c1"), say("Done.")] });
    const result = await generateText({ model, tools: { render }, stopWhen: isStepCount(3), prompt: "Render Q3" });
    const output = result.steps[0]!.toolResults[0]!;
    expect(output.output).toEqual({ title: "Q3", pages: 4, rendered: true });
    expect(address.seen.find((r) => r.method === "POST")!.headers.prefer).toBe("respond-async, wait=0");
    expect(runReads(address).length).toBeGreaterThanOrEqual(1);
  });

  it("AI SDK: generateText's abortSignal DELETEs the run and its act sees the abort", async () => {
    const address = await serve({ stepMs: 200 });
    const render = await aiTool(address.address, { cache: new Map(), respondAsync: true });
    const model = new MockLanguageModelV4({ doGenerate: [call({ title: "Long", pages: 60 }, "c1"), say("Done.")] });
    const controller = new AbortController();
    const started = generateText({
      model,
      tools: { render },
      stopWhen: isStepCount(3),
      prompt: "Render",
      abortSignal: controller.signal,
    });
    await expect.poll(() => runReads(address).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    controller.abort();
    await expect(started).rejects.toThrow();
    await expect.poll(() => address.seen.filter((r) => r.method === "DELETE").length).toBe(1);
    await expect.poll(() => address.aborted).toHaveLength(1);
  });

  it("LangChain: a tool call without asking still follows the address's 202; the ToolMessage carries the result", async () => {
    const address = await serve({ alwaysAsync: true });
    const render = await langchainTool(address.address, { cache: new Map() });
    const message = await render.invoke({
      type: "tool_call",
      id: "call_1",
      name: "render",
      args: { title: "Q4", pages: 3 },
    });
    expect(JSON.parse(String(message.content))).toEqual({ title: "Q4", pages: 3, rendered: true });
    expect(address.seen.find((r) => r.method === "POST")!.headers.prefer).toBeUndefined();
    expect(runReads(address).length).toBeGreaterThanOrEqual(1);
  });

  it("OpenAI Agents: the function tool follows the run; a run given up after runTimeoutMs is a tool error for the model", async () => {
    const address = await serve({ stepMs: 150 });
    const render = await agentsTool(address.address, { cache: new Map(), respondAsync: true });
    const output = await render.invoke(new RunContext(), JSON.stringify({ title: "A", pages: 3 }));
    expect(JSON.parse(String(output))).toEqual({ title: "A", pages: 3, rendered: true });
    const impatient = await agentsTool(address.address, { cache: new Map(), respondAsync: true, runTimeoutMs: 600 });
    const refused = await impatient.invoke(new RunContext(), JSON.stringify({ title: "B", pages: 60 }));
    expect(String(refused)).toMatch(/ran longer than 0.6 seconds and was cancelled/);
    expect(address.seen.filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  it("the core: a run that fails is a `failed` tool error; progress reaches onProgress; Idempotency-Key is sent quoted", async () => {
    const address = await serve();
    const tool = await contactAddress(address.address, { cache: new Map(), respondAsync: true });
    const fractions: number[] = [];
    const result = await tool.act(
      { title: "P", pages: 4 },
      { idempotencyKey: "call_7", onProgress: (run) => run.progress !== undefined && fractions.push(run.progress) },
    );
    expect(result).toEqual({ title: "P", pages: 4, rendered: true });
    expect(fractions.length).toBeGreaterThanOrEqual(1);
    expect(address.seen.find((r) => r.method === "POST")!.headers["idempotency-key"]).toBe('"call_7"');
    await expect(tool.act({ title: "fail", pages: 3 })).rejects.toMatchObject({
      code: "failed",
      message: expect.stringMatching(/ran in the background, but it failed/),
    });
    // The same key with other bytes: the address refuses it (422), which is a `failed` tool error.
    await expect(tool.act({ title: "Q", pages: 1 }, { idempotencyKey: "call_7" })).rejects.toMatchObject({
      code: "failed",
    });
  });
});
