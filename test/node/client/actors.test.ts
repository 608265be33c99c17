/**
 * Contract tests of each SDK actor against a loopback fake of its API, replaying responses
 * recorded from the API's documented shapes (`__fixtures__/<actor>-<case>.json`): the request
 * carries the projected form in that API's own field, the response is parsed, and the act
 * POSTs exactly the bytes the model produced to the example address (C1), which answers 200.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actWithModel } from "../../../src/client/act.ts";
import { createAnthropicClient } from "../../../src/client/actors/anthropic.ts";
import { createGoogleClient } from "../../../src/client/actors/google.ts";
import { createOllamaClient } from "../../../src/client/actors/ollama.ts";
import { createOpenAIClient } from "../../../src/client/actors/openai.ts";
import { ActorSetupError, ModelError } from "../../../src/client/model.ts";
import { profiles } from "../../../src/client/profiles.ts";
import { projectForm } from "../../../src/client/projection.ts";
import { pageFile, type ReceivedAct, type Served, serveRecordingExample, startFakeApi } from "./servers.ts";

const fixtureText = (name: string): string => {
  const fixture = JSON.parse(readFileSync(join(import.meta.dirname, "__fixtures__", name), "utf8"));
  return (
    fixture.choices?.[0]?.message.content ??
    fixture.content?.[0]?.text ??
    fixture.candidates?.[0]?.content.parts[0].text ??
    fixture.message.content
  );
};
const PROMPT = "Publish a short page with a heading and a link.";

describe("model actors against loopback fakes of their APIs", () => {
  let example: Served & { received: ReceivedAct[] };
  let pageUrl: string;
  beforeAll(async () => {
    example = await serveRecordingExample();
    pageUrl = `${example.url}/page`;
  });
  afterAll(async () => {
    await example?.close();
  });
  const lastPost = () => example.received.at(-1)!;

  it("C1 openai --base-url: the form reaches the API as a strict json_schema (projected), and the act lands with the model's exact bytes", async () => {
    const fake = await startFakeApi([{ fixture: "openai-page.json" }]);
    try {
      const client = await createOpenAIClient({
        model: "gpt-5-mini",
        baseURL: `${fake.url}/v1`,
        env: {},
        maxRetries: 0,
      });
      const result = await actWithModel(pageUrl, client, { prompt: PROMPT, profile: profiles.openai });
      expect(fake.requests).toHaveLength(1);
      const request = fake.requests[0]!;
      expect(request.path).toBe("/v1/chat/completions");
      const format = request.json.response_format as { type: string; json_schema: Record<string, unknown> };
      expect(format.type).toBe("json_schema");
      expect(format.json_schema.strict).toBe(true);
      expect(format.json_schema.name).toBe("page");
      expect(format.json_schema.schema).toEqual(projectForm(pageFile.s, profiles.openai).schema);
      expect(JSON.stringify(format.json_schema.schema)).not.toMatch(/"uniqueItems"/);
      const messages = request.json.messages as { role: string; content: string }[];
      expect(messages[0]).toEqual({ role: "system", content: pageFile.p });
      expect(messages.slice(1, -1)).toEqual(pageFile.m);
      expect(messages.at(-1)).toEqual({ role: "user", content: PROMPT });
      expect(result.answer?.status).toBe(200);
      expect(result.answer?.json).toMatchObject({ id: expect.any(String), url: expect.any(String) });
      expect(new TextDecoder().decode(lastPost().bytes)).toBe(fixtureText("openai-page.json"));
      expect(lastPost().headers["content-type"]).toBe("application/json");
      expect(lastPost().headers["gpt-actor"]).toBe("openai gpt-5-mini; via=gpt-address");
      expect(result.warnings.some((w) => w.keyword === "uniqueItems" && w.type === "dropped")).toBe(true);
    } finally {
      await fake.close();
    }
  });

  it("C1 anthropic: the projected form goes in output_config.format, the text block is the act", async () => {
    const fake = await startFakeApi([{ fixture: "anthropic-page.json" }]);
    try {
      const client = await createAnthropicClient({
        model: "claude-sonnet-4-6",
        baseURL: fake.url,
        apiKey: "test",
        maxRetries: 0,
      });
      const result = await actWithModel(pageUrl, client, { prompt: PROMPT, profile: profiles.anthropic });
      const request = fake.requests[0]!;
      expect(request.path).toBe("/v1/messages");
      // SDK 1.10 sends the key as a bearer token (older releases used X-Api-Key).
      expect(request.headers["x-api-key"] ?? request.headers.authorization).toMatch(/^(Bearer )?test$/);
      expect(request.json.output_config).toEqual({
        format: { type: "json_schema", schema: projectForm(pageFile.s, profiles.anthropic).schema },
      });
      expect(request.json.system).toBe(pageFile.p);
      expect((request.json.messages as unknown[]).at(-1)).toEqual({ role: "user", content: PROMPT });
      expect(JSON.stringify(request.json.output_config)).not.toMatch(/"(maxLength|maxItems|minimum)"/);
      expect(result.answer?.status).toBe(200);
      expect(new TextDecoder().decode(lastPost().bytes)).toBe(fixtureText("anthropic-page.json"));
    } finally {
      await fake.close();
    }
  });

  it("C1 google: the projected form goes in generationConfig.responseJsonSchema with responseMimeType application/json", async () => {
    const fake = await startFakeApi([{ fixture: "google-page.json" }]);
    try {
      const client = await createGoogleClient({
        model: "gemini-3-flash",
        baseURL: fake.url,
        env: { GEMINI_API_KEY: "test" },
      });
      const result = await actWithModel(pageUrl, client, { prompt: PROMPT, profile: profiles.google });
      const request = fake.requests[0]!;
      expect(request.path).toMatch(/\/models\/gemini-3-flash:generateContent$/);
      expect(request.headers["x-goog-api-key"]).toBe("test");
      const config = request.json.generationConfig as Record<string, unknown>;
      expect(config.responseMimeType).toBe("application/json");
      expect(config.responseJsonSchema).toEqual(projectForm(pageFile.s, profiles.google).schema);
      expect(JSON.stringify(config.responseJsonSchema)).not.toContain('"const"');
      expect(request.json.systemInstruction).toMatchObject({ parts: [{ text: pageFile.p }] });
      const contents = request.json.contents as { role: string; parts: { text: string }[] }[];
      expect(contents.map((c) => c.role)).toEqual(["user", "model", "user"]);
      expect(result.answer?.status).toBe(200);
      expect(new TextDecoder().decode(lastPost().bytes)).toBe(fixtureText("google-page.json"));
    } finally {
      await fake.close();
    }
  });

  it("C1 ollama: the projected form goes in format, stream off", async () => {
    const fake = await startFakeApi([{ fixture: "ollama-page.json" }]);
    try {
      const client = await createOllamaClient({ model: "llama3.2", host: fake.url });
      const result = await actWithModel(pageUrl, client, { prompt: PROMPT, profile: profiles.ollama });
      const request = fake.requests[0]!;
      expect(request.path).toBe("/api/chat");
      expect(request.json.stream).toBe(false);
      expect(request.json.format).toEqual(projectForm(pageFile.s, profiles.ollama).schema);
      expect((request.json.messages as { role: string }[]).map((m) => m.role)).toEqual([
        "system",
        "user",
        "assistant",
        "user",
      ]);
      expect(result.answer?.status).toBe(200);
      expect(new TextDecoder().decode(lastPost().bytes)).toBe(fixtureText("ollama-page.json"));
    } finally {
      await fake.close();
    }
  });

  it("local retry: a value the form rejects is not sent; the model is told the pointer and keyword and its next value is sent", async () => {
    const fake = await startFakeApi([{ fixture: "openai-long-title.json" }, { fixture: "openai-page.json" }]);
    const before = example.received.length;
    try {
      const client = await createOpenAIClient({ model: "m", baseURL: `${fake.url}/v1`, env: {}, maxRetries: 0 });
      const result = await actWithModel(pageUrl, client, { prompt: PROMPT, profile: profiles.openai, retries: 1 });
      expect(result.attempts).toHaveLength(2);
      expect(result.attempts[0]!.failure).toMatchObject({
        stage: "form",
        pointer: "/properties/title/maxLength",
        keyword: "maxLength",
      });
      const retry = fake.requests[1]!.json.messages as { role: string; content: string }[];
      expect(retry.at(-2)).toEqual({ role: "assistant", content: fixtureText("openai-long-title.json") });
      expect(retry.at(-1)!.content).toContain("/properties/title/maxLength (maxLength)");
      expect(example.received.length).toBe(before + 1);
      expect(new TextDecoder().decode(lastPost().bytes)).toBe(fixtureText("openai-page.json"));
      expect(result.answer?.status).toBe(200);
    } finally {
      await fake.close();
    }
  });

  it("local retry: out of retries, nothing reaches the address; with force the last value is sent and refused (204)", async () => {
    const fake = await startFakeApi([{ fixture: "openai-http-link.json" }]);
    const before = example.received.length;
    try {
      const client = await createOpenAIClient({ model: "m", baseURL: `${fake.url}/v1`, env: {}, maxRetries: 0 });
      const held = await actWithModel(pageUrl, client, { prompt: PROMPT, profile: profiles.openai, retries: 1 });
      expect(held.attempts).toHaveLength(2);
      expect(held.answer).toBeUndefined();
      expect(example.received.length).toBe(before);
      const forced = await actWithModel(pageUrl, client, {
        prompt: PROMPT,
        profile: profiles.openai,
        retries: 0,
        force: true,
      });
      expect(forced.answer?.kind).toBe("refused");
      expect(example.received.length).toBe(before + 1);
    } finally {
      await fake.close();
    }
  });

  it("the fakes refuse, as the APIs do, a schema the actor's published rules refuse: the feedback form as published gets 400 from OpenAI strict and Anthropic strict, its projection is taken", async () => {
    const feedbackUrl = `${example.url}/feedback`;
    const openai = await startFakeApi([{ fixture: "openai-feedback-null-comment.json" }]);
    const anthropic = await startFakeApi([{ fixture: "anthropic-feedback.json" }]);
    try {
      const gpt = await createOpenAIClient({ model: "m", baseURL: `${openai.url}/v1`, env: {}, maxRetries: 0 });
      const claude = await createAnthropicClient({ model: "m", baseURL: anthropic.url, apiKey: "k", maxRetries: 0 });
      // No profile: the form goes as published, which both refuse (every property required; minimum, maxLength).
      const asPublished = await actWithModel(feedbackUrl, gpt, { prompt: PROMPT }).catch((e) => e);
      expect(asPublished).toMatchObject({ provider: "openai", status: 400, code: "invalid_json_schema" });
      expect(openai.refused[0]).toMatch(/every property must be required/);
      const unprojected = await actWithModel(feedbackUrl, claude, { prompt: PROMPT }).catch((e) => e);
      expect(unprojected).toMatchObject({ provider: "anthropic", status: 400 });
      expect(anthropic.refused[0]).toMatch(/minimum/);
      const viaOpenAI = await actWithModel(feedbackUrl, gpt, { prompt: PROMPT, profile: profiles.openai });
      const viaAnthropic = await actWithModel(feedbackUrl, claude, { prompt: PROMPT, profile: profiles.anthropic });
      expect([viaOpenAI.answer?.status, viaAnthropic.answer?.status]).toEqual([200, 200]);
      expect([openai.refused.length, anthropic.refused.length]).toEqual([1, 1]);
    } finally {
      await openai.close();
      await anthropic.close();
    }
  });

  it("openai: an optional property goes required and nullable; the model's null is read back as absent before the local check, and the act lands without it", async () => {
    const fake = await startFakeApi([{ fixture: "openai-feedback-null-comment.json" }]);
    try {
      const client = await createOpenAIClient({ model: "m", baseURL: `${fake.url}/v1`, env: {}, maxRetries: 0 });
      const result = await actWithModel(`${example.url}/feedback`, client, {
        prompt: PROMPT,
        profile: profiles.openai,
      });
      const format = fake.requests[0]!.json.response_format as { json_schema: { schema: Record<string, unknown> } };
      const sent = format.json_schema.schema as { required: string[]; properties: Record<string, unknown> };
      expect(sent.required).toEqual(["rating", "topic", "comment"]);
      expect(sent.properties.comment).toEqual({ type: ["string", "null"], minLength: 1, maxLength: 1999 });
      expect(result.attempts[0]!.failure).toBeNull();
      expect(result.answer).toMatchObject({ status: 200, json: { received: true, rating: 4 } });
      expect(JSON.parse(new TextDecoder().decode(lastPost().bytes))).toEqual({ rating: 4, topic: "documentation" });
    } finally {
      await fake.close();
    }
  });

  it("anthropic: the bounds it cannot take are dropped from its projection and enforced locally; the out-of-range rating is retried with the pointer and keyword, never sent", async () => {
    const fake = await startFakeApi([
      { fixture: "anthropic-feedback-out-of-range.json" },
      { fixture: "anthropic-feedback.json" },
    ]);
    const before = example.received.length;
    try {
      const client = await createAnthropicClient({ model: "m", baseURL: fake.url, apiKey: "k", maxRetries: 0 });
      const result = await actWithModel(`${example.url}/feedback`, client, {
        prompt: PROMPT,
        profile: profiles.anthropic,
        retries: 1,
      });
      const sent = JSON.stringify((fake.requests[0]!.json.output_config as { format: unknown }).format);
      expect(sent).not.toMatch(/"(minimum|maximum|minLength|maxLength)"/);
      expect(result.attempts[0]!.failure).toMatchObject({ pointer: "/properties/rating/maximum", keyword: "maximum" });
      const retry = fake.requests[1]!.json.messages as { content: string }[];
      expect(retry.at(-1)!.content).toContain("/properties/rating/maximum (maximum)");
      expect(example.received.length).toBe(before + 1);
      expect(result.answer).toMatchObject({ status: 200, json: { rating: 5 } });
    } finally {
      await fake.close();
    }
  });

  it("a missing key is a clear error before any request; with --base-url no key is needed", async () => {
    const fake = await startFakeApi([{ fixture: "openai-page.json" }]);
    try {
      await expect(createOpenAIClient({ model: "m", env: {} })).rejects.toThrow(ActorSetupError);
      await expect(createOpenAIClient({ model: "m", env: {} })).rejects.toThrow(/OPENAI_API_KEY/);
      await expect(createAnthropicClient({ model: "m", env: {} })).rejects.toThrow(/ANTHROPIC_API_KEY/);
      await expect(createGoogleClient({ model: "m", env: {} })).rejects.toThrow(/GEMINI_API_KEY or GOOGLE_API_KEY/);
      await expect(createOpenAIClient({ model: "", env: { OPENAI_API_KEY: "k" } })).rejects.toThrow(/--model/);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await fake.close();
    }
  });

  it("provider errors become ModelError with the status, the structured code and retryable from them (429 rate limit yes, 429 quota no, 529 overloaded yes)", async () => {
    const cases = [
      { fixture: "openai-rate-limit.json", status: 429, code: "rate_limit_exceeded", retryable: true },
      { fixture: "openai-insufficient-quota.json", status: 429, code: "insufficient_quota", retryable: false },
    ];
    for (const c of cases) {
      const fake = await startFakeApi([{ fixture: c.fixture, status: c.status }]);
      try {
        const client = await createOpenAIClient({ model: "m", baseURL: `${fake.url}/v1`, env: {}, maxRetries: 0 });
        const error = await actWithModel(pageUrl, client, { prompt: PROMPT, profile: profiles.openai }).catch((e) => e);
        expect(error).toBeInstanceOf(ModelError);
        expect(error).toMatchObject({ provider: "openai", status: c.status, code: c.code, retryable: c.retryable });
      } finally {
        await fake.close();
      }
    }
    const fake = await startFakeApi([{ fixture: "anthropic-overloaded.json", status: 529 }]);
    try {
      const client = await createAnthropicClient({ model: "m", baseURL: fake.url, apiKey: "k", maxRetries: 0 });
      const error = await actWithModel(pageUrl, client, { prompt: PROMPT, profile: profiles.anthropic }).catch(
        (e) => e,
      );
      expect(error).toMatchObject({ provider: "anthropic", status: 529, code: "overloaded_error", retryable: true });
    } finally {
      await fake.close();
    }
  });
});
