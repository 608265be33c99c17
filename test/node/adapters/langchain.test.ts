/**
 * gpt-address/langchain driven by LangChain itself: each model turn is LangChain's own fake chat
 * model (`FakeStreamingChatModel` from `@langchain/core/utils/testing`, its tool calls scripted),
 * bound to the address tools with `bindTools`, and each tool call is run through the tool's
 * `invoke`, as an agent loop does, against the example addresses served on loopback in Node.
 */
import { AIMessage, AIMessageChunk, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressToolError, addressTool, addressTools, type GptAddressTool } from "../../../src/langchain/index.ts";
import { olderFormFirst, type Served, serveExampleBehind } from "../client/servers.ts";

type Call = { name: string; args: Record<string, unknown>; id: string };

/**
 * An agent loop: each turn one fake model (scripted tool calls, or none to stop) bound to
 * `tools`; every tool call the model makes is invoked. Returns the conversation and what each
 * turn's model was bound with.
 */
async function runTurns(tools: GptAddressTool[], turns: Call[][]) {
  const messages: BaseMessage[] = [new HumanMessage("Rate the docs.")];
  const bound: unknown[] = [];
  for (const calls of [...turns, []]) {
    const model = new FakeStreamingChatModel({
      chunks: [new AIMessageChunk({ content: calls.length === 0 ? "Done." : "", tool_calls: calls })],
      responses: [new AIMessage("Done.")],
    });
    const runnable = model.bindTools(tools);
    bound.push((runnable as unknown as { config: { tools: unknown } }).config.tools);
    const reply = await runnable.invoke(messages);
    messages.push(reply);
    for (const call of reply.tool_calls ?? []) {
      const tool = tools.find((t) => t.name === call.name)!;
      messages.push(await tool.invoke({ ...call, type: "tool_call" }));
    }
  }
  return { messages, bound };
}

const toolMessages = (messages: BaseMessage[]) => messages.filter((m): m is ToolMessage => m instanceof ToolMessage);

describe("gpt-address/langchain with LangChain's fake chat model", () => {
  let server: Served & { seen: string[] };
  beforeAll(async () => {
    server = await serveExampleBehind((request, forward) => forward(request));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("R1 a tool call acts on the address (200 JSON as the ToolMessage); a call the form rejects is a ToolMessage with status error naming the pointer and keyword, never sent", async () => {
    const tools = await addressTools([`${server.url}/page`, `${server.url}/feedback`], { cache: new Map() });
    expect(tools.map((t) => t.name)).toEqual(["page", "feedback"]);
    const posts = () => server.seen.filter((line) => line === "POST /feedback").length;
    const before = posts();
    const { messages, bound } = await runTurns(tools, [
      [{ name: "feedback", args: { rating: 7, topic: "other" }, id: "c1" }],
      [{ name: "feedback", args: { rating: 4, topic: "documentation" }, id: "c2" }],
    ]);
    const [bad, good] = toolMessages(messages);
    expect(bad).toMatchObject({ status: "error", tool_call_id: "c1", name: "feedback" });
    expect(bad!.content).toContain(
      "Not sent, nothing was done: the form rejects it at /properties/rating/maximum (maximum)",
    );
    expect(good).toMatchObject({ status: "success", tool_call_id: "c2" });
    expect(JSON.parse(good!.content as string)).toEqual({ received: true, rating: 4 });
    expect(posts()).toBe(before + 1);
    // bindTools handed the model the form itself as the function's parameters.
    const offered = (bound[0] as { function: { name: string; parameters: { properties: object } } }[]).find(
      (t) => t.function.name === "feedback",
    );
    expect(offered!.function.parameters.properties).toHaveProperty("rating");
    expect(messages.at(-1)!.content).toBe("Done.");
  });

  it("X2 a form changed between arrival and act (412) is fetched again: a tool error tells the model, and the next call lands", async () => {
    const changing = await serveExampleBehind(olderFormFirst("/feedback"));
    try {
      const feedback = await addressTool(`${changing.url}/feedback`, { cache: new Map() });
      expect(feedback.description).toContain("an older version of this form");
      const { messages } = await runTurns(
        [feedback],
        [
          [{ name: "feedback", args: { rating: 5, topic: "other" }, id: "c1" }],
          [{ name: "feedback", args: { rating: 5, topic: "other" }, id: "c2" }],
        ],
      );
      const [changed, landed] = toolMessages(messages);
      expect(changed).toMatchObject({ status: "error", tool_call_id: "c1" });
      expect(changed!.content).toContain("The address's form changed since it was read (412 Precondition Failed)");
      expect(JSON.parse(landed!.content as string)).toEqual({ received: true, rating: 5 });
      expect(feedback.description).not.toContain("an older version");
      expect(changing.seen.filter((line) => line === "GET /feedback")).toHaveLength(2);
    } finally {
      await changing.close();
    }
  });

  it("invoked with bare arguments the form rejects (no tool call to answer), it throws AddressToolError invalid naming the pointer and keyword, with or without a projection, and sends nothing", async () => {
    const posts = () => server.seen.filter((line) => line === "POST /feedback").length;
    const before = posts();
    // Without an actor LangChain's own validator has the full form, and its error names nothing.
    for (const options of [{}, { actor: "anthropic" as const }]) {
      const feedback = await addressTool(`${server.url}/feedback`, { cache: new Map(), ...options });
      const thrown = await feedback.invoke({ rating: 9, topic: "other" }).catch((error: unknown) => error);
      expect(thrown).toBeInstanceOf(AddressToolError);
      expect(thrown).toMatchObject({ code: "invalid", failure: { keyword: "maximum" } });
      expect((thrown as Error).message).toBe(
        "Not sent, nothing was done: the form rejects it at /properties/rating/maximum (maximum). Call the tool again with a value the form accepts.",
      );
    }
    expect(posts()).toBe(before);
  });

  it("R2 an act the address refuses (204) is a tool error that says nothing was done; invoked without a tool call, the failure is thrown", async () => {
    const refusing = await serveExampleBehind(async (request, forward) =>
      request.method === "POST" ? new Response(null, { status: 204 }) : forward(request),
    );
    try {
      const feedback = await addressTool(`${refusing.url}/feedback`, { cache: new Map() });
      const call = { name: "feedback", args: { rating: 3, topic: "other" }, id: "c9", type: "tool_call" as const };
      const reply = (await feedback.invoke(call)) as ToolMessage;
      expect(reply).toMatchObject({ status: "error", tool_call_id: "c9" });
      expect(reply.content).toMatch(/^The address refused the act \(204 No Content\): nothing was done/);
      await expect(feedback.invoke({ rating: 3, topic: "other" })).rejects.toMatchObject({
        name: "AddressToolError",
        code: "refused",
        message: expect.stringContaining("204 No Content"),
      });
    } finally {
      await refusing.close();
    }
  });
});
