/**
 * gpt-address/openai-agents driven by the OpenAI Agents SDK itself: a `Runner` whose OpenAI
 * provider talks to a loopback fake of the Responses API (recorded answers, and the API's own
 * refusal of a strict tool schema its published rules refuse), with the example addresses served
 * on loopback in Node. No network.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, OpenAIProvider, RunContext, Runner, tool } from "@openai/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressTool } from "../../../src/openai-agents/index.ts";
import { olderFormFirst, root, type Served, serveExampleBehind, startFakeApi } from "../client/servers.ts";

const feedbackForm = (JSON.parse(readFileSync(join(root, "forms/feedback.json"), "utf8")) as { s: unknown }).s;

type Item = { type: string; call_id?: string; output?: unknown };

/** A runner whose model is the fake Responses API at `url`. */
const runnerFor = (url: string) =>
  new Runner({
    modelProvider: new OpenAIProvider({ apiKey: "test", baseURL: `${url}/v1`, useResponses: true }),
    tracingDisabled: true,
  });
const outputOf = (input: unknown, callId: string) =>
  String((input as Item[]).find((item) => item.type === "function_call_output" && item.call_id === callId)?.output);

describe("gpt-address/openai-agents with the Agents SDK and a loopback Responses API", () => {
  let server: Served & { seen: string[] };
  beforeAll(async () => {
    server = await serveExampleBehind((request, forward) => forward(request));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("R1 strict chosen by the form: the projection goes strict and the fake API takes it; the tool call acts (200), a call the form rejects comes back as a tool error with the pointer and keyword", async () => {
    const fake = await startFakeApi([
      { fixture: "openai-responses-feedback-out-of-range.json" },
      { fixture: "openai-responses-feedback.json" },
      { fixture: "openai-responses-done.json" },
    ]);
    try {
      const feedback = await addressTool(`${server.url}/feedback`, { cache: new Map() });
      const agent = new Agent({ name: "reviewer", model: "gpt-5-mini", tools: [feedback] });
      const posts = () => server.seen.filter((line) => line === "POST /feedback").length;
      const before = posts();
      const result = await runnerFor(fake.url).run(agent, "Rate the docs 4 stars.");
      expect(result.finalOutput).toBe("Done.");
      expect(fake.refused).toEqual([]);
      const [first, second, third] = fake.requests;
      expect(first!.path).toBe("/v1/responses");
      const tool = (first!.json.tools as { name: string; strict: boolean; parameters: { required: string[] } }[])[0]!;
      expect(tool).toMatchObject({ name: "feedback", strict: true });
      expect(tool.parameters.required).toEqual(["rating", "topic", "comment"]);
      expect(outputOf(second!.json.input, "call_bad")).toContain(
        "Not sent, nothing was done: the form rejects it at /properties/rating/maximum (maximum)",
      );
      expect(JSON.parse(outputOf(third!.json.input, "call_good"))).toEqual({ received: true, rating: 4 });
      expect(posts()).toBe(before + 1);
    } finally {
      await fake.close();
    }
  });

  it("arguments that are not JSON (a model that is not held to the schema can send them) are a tool output saying nothing was sent and what to send, not that the tool failed", async () => {
    const feedback = await addressTool(`${server.url}/feedback`, { cache: new Map() });
    const posts = () => server.seen.filter((line) => line === "POST /feedback").length;
    const before = posts();
    // As the SDK calls a function tool: the run's context and the arguments' text.
    const output = await feedback.invoke(new RunContext({}), '{"rating": 4, "topic": "other"');
    expect(output).toBe(
      "Not sent, nothing was done: the arguments are not JSON. Call the tool again with a JSON object the form accepts.",
    );
    expect(await feedback.invoke(new RunContext({}), '{"rating": 4, "topic": "other"}')).toBe(
      '{"received":true,"rating":4}',
    );
    expect(posts()).toBe(before + 1);
  });

  it("a strict tool whose schema OpenAI's rules refuse is refused by the fake API as by the real one (400): the form as published, forced strict", async () => {
    const fake = await startFakeApi([{ fixture: "openai-responses-done.json" }]);
    try {
      const asPublished = await addressTool(`${server.url}/feedback`, { cache: new Map() });
      expect(asPublished.strict).toBe(true);
      // A tool made by hand with the form as published, marked strict as a careless caller would.
      const forced = tool({
        name: "feedback",
        description: "as published",
        parameters: feedbackForm as never,
        strict: false,
        execute: () => "",
      });
      (forced as { strict: boolean }).strict = true;
      const agent = new Agent({ name: "reviewer", model: "gpt-5-mini", tools: [forced] });
      await expect(runnerFor(fake.url).run(agent, "Rate it.")).rejects.toThrow(/every property must be required/);
      expect(fake.refused).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });

  it("X2 a form changed between arrival and act (412) is fetched again; the model is told so, and its next call lands", async () => {
    const changing = await serveExampleBehind(olderFormFirst("/feedback"));
    const fake = await startFakeApi([
      { fixture: "openai-responses-feedback.json" },
      { fixture: "openai-responses-feedback-again.json" },
      { fixture: "openai-responses-done.json" },
    ]);
    try {
      const feedback = await addressTool(`${changing.url}/feedback`, { cache: new Map() });
      const agent = new Agent({ name: "reviewer", model: "gpt-5-mini", tools: [feedback] });
      const result = await runnerFor(fake.url).run(agent, "Rate the docs 4 stars.");
      expect(result.finalOutput).toBe("Done.");
      expect(outputOf(fake.requests[1]!.json.input, "call_good")).toContain(
        "The address's form changed since it was read (412 Precondition Failed)",
      );
      expect(JSON.parse(outputOf(fake.requests[2]!.json.input, "call_again"))).toEqual({ received: true, rating: 4 });
      expect(changing.seen.filter((line) => line === "GET /feedback")).toHaveLength(2);
      expect(changing.seen.filter((line) => line === "POST /feedback")).toHaveLength(2);
    } finally {
      await fake.close();
      await changing.close();
    }
  });
});
