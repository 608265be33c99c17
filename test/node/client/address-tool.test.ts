/**
 * The tool adapters' one core (`src/client/address-tool.ts`) against the example addresses on
 * loopback: the arrival at contact and its cache, the local check, `If-Match`, and each answer
 * (200, 204, 412, 429) as a result or a tool error for the model.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AddressToolError, contactAddress } from "../../../src/client/address-tool.ts";
import { canGenerateCode, chooseValidator } from "../../../src/client/choose-validator.ts";
import { compileValidator } from "../../../src/client/form-validator.ts";
import { portableValidator } from "../../../src/client/portable-validator.ts";
import { olderFormFirst, pageFile, root, type Served, serveExampleBehind } from "./servers.ts";

const feedbackFile = JSON.parse(readFileSync(join(root, "forms/feedback.json"), "utf8")) as {
  s: Record<string, unknown>;
};
const pageExample = JSON.parse(pageFile.m.find((m) => m.role === "assistant")!.content) as Record<string, unknown>;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable(),
    (e: AddressToolError) => e,
  );

describe("the tool core", () => {
  let server: Served & { seen: string[] };
  /** Each POST's If-Match and body, as the address received them. */
  const posts: { ifMatch: string | null; body: string }[] = [];
  /** Answers the next POSTs with these (status, Retry-After) before the example sees them. */
  const limits: { status: number; retryAfter?: string }[] = [];
  beforeAll(async () => {
    server = await serveExampleBehind(async (request, forward) => {
      if (request.method !== "POST") return forward(request);
      const body = await request.text();
      posts.push({ ifMatch: request.headers.get("if-match"), body });
      const limit = limits.shift();
      if (limit !== undefined) {
        return new Response(null, {
          status: limit.status,
          headers: limit.retryAfter === undefined ? {} : { "retry-after": limit.retryAfter },
        });
      }
      return forward(new Request(request.url, { method: "POST", headers: request.headers, body }));
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("R1 contact: the form becomes the tool (name from its title, p as the description, the form as parameters); the act POSTs with If-Match and returns the 200 JSON", async () => {
    const tool = await contactAddress(`${server.url}/feedback`, { cache: new Map() });
    expect(tool.name).toBe("feedback");
    expect(tool.description).toContain("This address collects feedback");
    expect(tool.parameters).toEqual(feedbackFile.s);
    expect([tool.strict, tool.validator]).toEqual([false, "compiled"]);
    expect(await tool.act({ rating: 5, topic: "other" })).toEqual({ received: true, rating: 5 });
    expect(posts.at(-1)!.ifMatch).toMatch(/^"[^"]+"$/);
    expect(JSON.parse(posts.at(-1)!.body)).toEqual({ rating: 5, topic: "other" });
  });

  it("a value the form rejects is not sent: the tool error names the pointer and keyword", async () => {
    const tool = await contactAddress(`${server.url}/feedback`, { cache: new Map() });
    const before = posts.length;
    const error = await failure(tool.act({ rating: 7, topic: "other" }));
    expect(error).toMatchObject({
      code: "invalid",
      failure: { pointer: "/properties/rating/maximum", keyword: "maximum" },
    });
    expect(error.message).toContain(
      "Not sent, nothing was done: the form rejects it at /properties/rating/maximum (maximum)",
    );
    expect(posts.length).toBe(before);
  });

  it("actor openai: the projection (comment required and nullable) is strict; the model's null is read back as absent", async () => {
    const tool = await contactAddress(`${server.url}/feedback`, { actor: "openai", cache: new Map() });
    expect(tool.strict).toBe(true);
    expect((tool.parameters as { required: string[] }).required).toEqual(["rating", "topic", "comment"]);
    expect(await tool.act({ rating: 3, topic: "documentation", comment: null })).toEqual({ received: true, rating: 3 });
    expect(JSON.parse(posts.at(-1)!.body)).toEqual({ rating: 3, topic: "documentation" });
    const asPublished = await contactAddress(`${server.url}/page`, { actor: "anthropic", cache: new Map() });
    expect(asPublished.strict).toBe(true);
    expect(JSON.stringify(asPublished.parameters)).not.toMatch(/"(maxLength|maxItems|minimum)"/);
  });

  it("R2 204: the address refused the act, and the tool error says nothing was done", async () => {
    const tool = await contactAddress(`${server.url}/feedback`, {
      cache: new Map(),
      validator: () => ({ check: () => null }),
    });
    const error = await failure(tool.act({ rating: 9, topic: "other" }));
    expect(error).toMatchObject({ code: "refused", status: 204 });
    expect(error.message).toMatch(/^The address refused the act \(204 No Content\): nothing was done/);
  });

  it("X2 412: a form changed between arrival and act is fetched again, and the model is told it changed and given the form", async () => {
    const changing = await serveExampleBehind(olderFormFirst("/feedback"));
    try {
      const tool = await contactAddress(`${changing.url}/feedback`, { cache: new Map() });
      expect(tool.description).toContain("an older version of this form");
      const error = await failure(tool.act({ rating: 4, topic: "other" }));
      expect(error).toMatchObject({ code: "form-changed", status: 412 });
      expect(error.message).toContain("The address's form changed since it was read (412 Precondition Failed)");
      expect(error.message).toContain(JSON.stringify(feedbackFile.s));
      expect(tool.description).not.toContain("an older version");
      expect(changing.seen.filter((line) => line === "GET /feedback")).toHaveLength(2);
      expect(await tool.act({ rating: 4, topic: "other" })).toEqual({ received: true, rating: 4 });
    } finally {
      await changing.close();
    }
  });

  it("429: Retry-After is waited once, then the act is sent again; a second 429, or a wait above the bound, is a tool error", async () => {
    const tool = await contactAddress(`${server.url}/feedback`, { cache: new Map(), maxRetryAfterSeconds: 2 });
    limits.push({ status: 429, retryAfter: "1" });
    const started = Date.now();
    expect(await tool.act({ rating: 2, topic: "other" })).toEqual({ received: true, rating: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    limits.push({ status: 429, retryAfter: "0" }, { status: 429, retryAfter: "30" });
    const twice = await failure(tool.act({ rating: 2, topic: "other" }));
    expect(twice).toMatchObject({ code: "rate-limited", status: 429 });
    expect(twice.message).toContain("still rate limiting acts (429); nothing was done. Try again in 30 seconds.");
    limits.push({ status: 429, retryAfter: "60" });
    const before = posts.length;
    const tooLong = await failure(tool.act({ rating: 2, topic: "other" }));
    expect(tooLong.message).toContain("Try again in 60 seconds.");
    expect(posts.length).toBe(before + 1);
  });

  it("S4 the arrival is cached by its Cache-Control (max-age 300): a second contact sends no GET; a stale one revalidates with If-None-Match", async () => {
    const cache = new Map();
    const gets = () => server.seen.filter((line) => line === "GET /page").length;
    const before = gets();
    await contactAddress(`${server.url}/page`, { cache });
    await contactAddress(`${server.url}/page`, { cache });
    expect(gets()).toBe(before + 1);
    const entry = cache.get(`${server.url}/page`);
    cache.set(`${server.url}/page`, { ...entry, staleAt: 0 });
    const revalidated = await contactAddress(`${server.url}/page`, { cache });
    expect(gets()).toBe(before + 2);
    expect(cache.get(`${server.url}/page`).staleAt).toBeGreaterThan(Date.now() + 200_000);
    expect(revalidated.name).toBe("page");
  });

  it("V3 without eval, the portable validator reports the failures the compiled one does (pointer and keyword)", async () => {
    const cases: [Record<string, unknown>, unknown][] = [
      [pageFile.s, { ...pageExample, title: "x".repeat(500) }],
      [pageFile.s, { ...pageExample, blocks: [{ type: "heading", level: 7, spans: [{ text: "x" }] }] }],
      [pageFile.s, { ...pageExample, extra: 1 }],
      [feedbackFile.s, { rating: 7, topic: "other" }],
      [feedbackFile.s, { rating: 1, topic: "nope" }],
      [feedbackFile.s, { topic: "other" }],
    ];
    for (const [schema, value] of cases) {
      const compiled = (await compileValidator(schema)).check(value);
      expect(compiled).not.toBeNull();
      expect(portableValidator(schema).check(value), JSON.stringify(value).slice(0, 80)).toEqual(compiled);
    }
    expect(portableValidator(feedbackFile.s).check({ rating: 1, topic: "other" })).toBeNull();
    const tool = await contactAddress(`${server.url}/feedback`, { cache: new Map(), validator: "portable" });
    expect(tool.validator).toBe("portable");
    expect(tool.check({ rating: 0, topic: "other" })).toMatchObject({ pointer: "/properties/rating/minimum" });
  });

  it("V3 where code cannot be generated from text (Workers forbid new Function), auto picks the portable validator without trying the compiled one", async () => {
    expect(canGenerateCode()).toBe(true);
    expect((await chooseValidator(feedbackFile.s, "auto")).kind).toBe("compiled");
    const original = globalThis.Function;
    globalThis.Function = new Proxy(original, {
      construct() {
        throw new EvalError("Code generation from strings disallowed for this context");
      },
    });
    try {
      expect(canGenerateCode()).toBe(false);
      const chosen = await chooseValidator(feedbackFile.s, "auto");
      expect(chosen.kind).toBe("portable");
      expect(chosen.validator.check({ rating: 9, topic: "other" })).toEqual({
        pointer: "/properties/rating/maximum",
        keyword: "maximum",
      });
    } finally {
      globalThis.Function = original;
    }
  });
});
