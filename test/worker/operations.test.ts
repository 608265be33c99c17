/**
 * Operating an address in public (issue 15), inside workerd: rate limits (429 with
 * `Retry-After`, never 204; the Workers Rate Limiting binding), form pinning with `If-Match`
 * (412, X2), the log hook (one entry per act, rejection and refusal; never body content) and
 * the counters. Every refusal is paired with an accepted control.
 */
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { forms } from "../../examples/pages/generated/forms.js";
import { form } from "../../examples/pages/generated/page.js";
import { ActDeclined } from "../../src/address/act.ts";
import { ActCounters, type ActLogEntry, formatActLog, sanitizeActor } from "../../src/address/act-log.ts";
import { type AddressOptions, address } from "../../src/address/address.ts";
import { satisfiesIfMatch } from "../../src/address/precondition.ts";
import {
  forwardedClient,
  type RateLimit,
  type RateLimiter,
  rateLimitKey,
  workersRateLimiter,
} from "../../src/address/rate-limit.ts";
import { mcp } from "../../src/mcp/mcp.ts";
import { capturingErrors } from "./harness.ts";

/** A page act; its title is a marker that must never reach a log entry. */
const MARKER = "Zq7-secret-title";
const page = JSON.stringify({ title: MARKER, blocks: [{ type: "paragraph", spans: [{ text: "Hi." }] }] });

/** A limiter allowing `n` requests per key (a test double of a library limiter), recording keys. */
function counting(n: number, retryAfterSeconds = 7): RateLimiter & { keys: string[] } {
  const used = new Map<string, number>();
  const keys: string[] = [];
  return {
    keys,
    limit(key) {
      keys.push(key);
      const count = (used.get(key) ?? 0) + 1;
      used.set(key, count);
      return { allowed: count <= n, retryAfterSeconds };
    },
  };
}

/** An address at /page with the given options, whose acts and log entries are recorded. */
function serve(options: Partial<AddressOptions<unknown>> = {}) {
  const acts: unknown[] = [];
  const entries: ActLogEntry[] = [];
  const app = new Hono();
  app.route(
    "/page",
    address<unknown>({
      form: form as AddressOptions<unknown>["form"],
      act: (value) => {
        acts.push(value);
        return { n: acts.length };
      },
      onLog: (entry) => entries.push(entry),
      ...options,
    }),
  );
  const send = (init: RequestInit & { headers?: Record<string, string> } = {}, environment: object = {}) =>
    Promise.resolve(app.fetch(new Request("http://address.test/page", init), environment));
  const act = (headers: Record<string, string> = {}, body = page, environment: object = {}) =>
    send({ method: "POST", body, headers: { "content-type": "application/json", ...headers } }, environment);
  return { send, act, acts, entries };
}

/** Which client an address's peer is, for these tests: a header only the test harness sets. */
const peer = (c: { req: { header(name: string): string | undefined } }) => c.req.header("x-test-peer");

describe("S4 rate limits: 429 with Retry-After, distinct from 204", () => {
  it("S4 acts over the client's limit get 429 with Retry-After and no body, and are not acted on; the first ones pass", async () => {
    const limiter = counting(2);
    const s = serve({ rateLimit: { act: limiter, clientAddress: peer } });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await s.act({ "x-test-peer": "192.0.2.1" }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429, 429]);
    expect(answers[2]!.headers.get("retry-after")).toBe("7");
    expect(answers[2]!.headers.get("access-control-expose-headers")).toContain("Retry-After");
    expect(await answers[2]!.text()).toBe("");
    expect(s.acts).toHaveLength(2);
    // Another client still has its own budget (control).
    expect((await s.act({ "x-test-peer": "192.0.2.2" })).status).toBe(200);
  });

  it("R2 S4 a wrong value within the limit is 204, the same value over the limit is 429: the actor can tell them apart", async () => {
    const s = serve({ rateLimit: { act: counting(1), clientAddress: peer } });
    expect((await s.act({ "x-test-peer": "a" }, "{}")).status).toBe(204);
    expect((await s.act({ "x-test-peer": "a" }, "{}")).status).toBe(429);
  });

  it("S4 arrivals have their own limit: GET over it gets 429, acts of the same client still pass", async () => {
    const s = serve({ rateLimit: { arrival: counting(1, 3), clientAddress: peer } });
    const headers = { "x-test-peer": "c" };
    expect((await s.send({ headers })).status).toBe(200);
    const limited = await s.send({ headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect((await s.act(headers)).status).toBe(200);
    expect((await s.send({ headers: { "x-test-peer": "d" } })).status).toBe(200);
  });

  it("S4 without rateLimit nothing is limited (control)", async () => {
    const s = serve();
    for (let i = 0; i < 5; i++) expect((await s.act()).status).toBe(200);
  });

  it("S4 X-Forwarded-For, X-Real-IP and Forwarded never choose the key unless the peer is a trusted proxy", async () => {
    const limiter = counting(100);
    const s = serve({ rateLimit: { act: limiter, clientAddress: peer } });
    const spoof = { "x-forwarded-for": "198.51.100.9", "x-real-ip": "198.51.100.9", forwarded: "for=198.51.100.9" };
    await s.act({ "x-test-peer": "203.0.113.5", ...spoof });
    expect(limiter.keys).toEqual(["203.0.113.5"]);
    const trusting = counting(100);
    const behindProxy = serve({
      rateLimit: { act: trusting, clientAddress: peer, trustedProxies: ["10.0.0.1"] },
    });
    await behindProxy.act({ "x-test-peer": "10.0.0.1", "x-forwarded-for": "6.6.6.6, 198.51.100.9" });
    await behindProxy.act({ "x-test-peer": "203.0.113.5", "x-forwarded-for": "198.51.100.9" });
    expect(trusting.keys).toEqual(["198.51.100.9", "203.0.113.5"]);
  });

  it("S4 forwardedClient takes the right-most hop that is not a trusted proxy", () => {
    expect(forwardedClient("1.1.1.1, 2.2.2.2, 10.0.0.2", ["10.0.0.1", "10.0.0.2"])).toBe("2.2.2.2");
    expect(forwardedClient("10.0.0.2", ["10.0.0.2"])).toBe("10.0.0.2");
    expect(forwardedClient(null, ["10.0.0.2"])).toBeNull();
    expect(forwardedClient(" , ", ["10.0.0.2"])).toBeNull();
  });

  it("S4 a request with no known peer address is keyed 'unknown'; a key function overrides the address", async () => {
    const limiter = counting(100);
    const s = serve({ rateLimit: { act: limiter } });
    await s.act();
    const byKey: RateLimit = { act: limiter, clientAddress: peer, key: (c) => c.req.header("x-api-key") ?? "none" };
    await serve({ rateLimit: byKey }).act({ "x-api-key": "k1", "x-test-peer": "e" });
    expect(limiter.keys).toEqual(["unknown", "k1"]);
    expect(rateLimitKey({ req: { raw: new Request("http://x/") } } as never, { clientAddress: () => "" })).toBe(
      "unknown",
    );
  });

  it("S4 a limiter that throws lets the request through and is logged, never a 5xx", async () => {
    const broken: RateLimiter = {
      limit() {
        throw new Error("store down");
      },
    };
    const s = serve({ rateLimit: { act: broken, arrival: broken, clientAddress: peer } });
    const errors = await capturingErrors(async () => {
      expect((await s.act()).status).toBe(200);
      expect((await s.send()).status).toBe(200);
    });
    expect(errors.join("\n")).toContain("rate limiter");
  });

  it("S4 the Workers Rate Limiting binding ([[ratelimits]] in wrangler.toml) limits acts by key, 429 with its period as Retry-After", async () => {
    const s = serve({ rateLimit: { act: workersRateLimiter("ACT_LIMITER", 60), clientAddress: peer } });
    const client = { "x-test-peer": `binding-${crypto.randomUUID()}` };
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await s.act(client, "{}", env)).status);
    // wrangler.toml: limit = 60, period = 60; the first 60 are verified (204, invalid), then 429.
    expect(statuses.slice(0, 60).every((status) => status === 204)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 429]);
    const limited = await s.act(client, page, env);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(s.acts).toHaveLength(0);
    expect((await s.act({ "x-test-peer": `binding-${crypto.randomUUID()}` }, page, env)).status).toBe(200);
  });
});

describe("X2 form pinning: If-Match with the arrival's ETag", () => {
  it("X2 an act whose If-Match names another form gets 412, no body, and nothing is acted on", async () => {
    const s = serve();
    const stale = await s.act({ "if-match": '"an-older-form"' });
    expect(stale.status).toBe(412);
    expect(await stale.text()).toBe("");
    expect(s.acts).toHaveLength(0);
  });

  it("X2 the current ETag (JSON arrival or page), a list holding it, or * is acted on; no If-Match is acted on (controls)", async () => {
    const s = serve();
    const etag = (await s.send()).headers.get("etag")!;
    expect(etag).toBe(form.etag);
    for (const ifMatch of [etag, form.pageEtag, `"old", ${etag}`, "*"]) {
      expect((await s.act({ "if-match": ifMatch })).status, ifMatch).toBe(200);
    }
    expect((await s.act()).status).toBe(200);
    expect(s.acts).toHaveLength(5);
  });

  it("X2 a weak tag never matches (strong comparison), and a malformed field matches nothing", async () => {
    const s = serve();
    expect((await s.act({ "if-match": `W/${form.etag}` })).status).toBe(412);
    expect((await s.act({ "if-match": form.etag.slice(1) })).status).toBe(412);
    expect(s.acts).toHaveLength(0);
    expect(satisfiesIfMatch(null, [form.etag])).toBe(true);
    expect(satisfiesIfMatch(` ${form.etag} `, [form.etag])).toBe(true);
    expect(satisfiesIfMatch('"a" "b"', ['"a"'])).toBe(false);
    expect(satisfiesIfMatch(",", [form.etag])).toBe(false);
  });

  it("X2 an empty If-Match is read as absent (workerd drops the empty field, Node keeps it): the act goes on", async () => {
    const s = serve();
    for (const ifMatch of ["", " ", "\t"]) expect((await s.act({ "if-match": ifMatch })).status).toBe(200);
    expect(s.acts).toHaveLength(3);
    expect(satisfiesIfMatch("", [form.etag])).toBe(true);
    expect(satisfiesIfMatch(" \t ", [form.etag])).toBe(true);
  });

  it("X2 the 412 comes before the body is read: a stale pin on an invalid body is still 412, not 204", async () => {
    const s = serve();
    expect((await s.act({ "if-match": '"old"' }, "{")).status).toBe(412);
    expect((await s.act({}, "{")).status).toBe(204);
  });

  it("X2 the preflight lets browser actors send If-Match", async () => {
    const s = serve();
    const preflight = await s.send({ method: "OPTIONS" });
    expect(preflight.headers.get("access-control-allow-headers")).toContain("If-Match");
  });
});

describe("what the operator sees: one log entry per act and per rejection, never the body", () => {
  it("logs a valid act (200, code null, bytes read) and each kind of rejection with its stable code", async () => {
    const s = serve({ rateLimit: { act: counting(6), clientAddress: peer }, maxBytes: 4096 });
    const headers = { "x-test-peer": "f", "gpt-actor": "model-x" };
    await s.act(headers);
    await s.act(headers, page.replace('"blocks"', '"title": "again", "blocks"'));
    await s.act(headers, page.replace("Hi.", "x".repeat(5000)));
    await s.act({ ...headers, "content-encoding": "gzip" });
    await s.act({ ...headers, "if-match": '"old"' });
    await s.act(headers, page.replace('"blocks"', '"extra": 1, "blocks"'));
    await s.act(headers);
    expect(s.entries.map((e) => [e.status, e.code])).toEqual([
      [200, null],
      [204, "json-syntax:duplicate-name"],
      [204, "content-too-large"],
      [204, "content-encoding"],
      [412, "precondition-failed"],
      [204, "schema"],
      [429, "rate-limited"],
    ]);
    const [accepted] = s.entries;
    expect(accepted).toMatchObject({ address: "page", door: "http", method: "POST", actor: "model-x" });
    expect(accepted!.bytes).toBe(new TextEncoder().encode(page).byteLength);
    expect(Date.parse(accepted!.time)).not.toBeNaN();
    expect(accepted!.durationMs).toBeGreaterThanOrEqual(0);
    expect(s.entries[4]!.bytes).toBeNull();
    for (const entry of s.entries) {
      const line = formatActLog(entry);
      expect(line).not.toContain(MARKER);
      expect(line).not.toContain("Hi.");
      expect(line).not.toContain("\n");
    }
  });

  it("logs a fault as 500 with code fault, and a rate-limited arrival; a plain arrival is not logged", async () => {
    const s = serve({
      act: () => {
        throw new Error("boom");
      },
      rateLimit: { arrival: counting(1), clientAddress: peer },
    });
    await capturingErrors(async () => {
      expect((await s.act()).status).toBe(500);
    });
    await s.send();
    await s.send();
    expect(s.entries.map((e) => [e.method, e.status, e.code])).toEqual([
      ["POST", 500, "fault"],
      ["GET", 429, "rate-limited"],
    ]);
  });

  it("logs a method the address does not answer as 405 method-not-allowed (the MCP door's code), body unread", async () => {
    const s = serve();
    const answers = [
      await s.send({ method: "PUT", body: page, headers: { "gpt-actor": "model-x" } }),
      await s.send({ method: "DELETE" }),
    ];
    expect(answers.map((a) => [a.status, a.headers.get("allow")])).toEqual([
      [405, "GET, HEAD, POST, OPTIONS"],
      [405, "GET, HEAD, POST, OPTIONS"],
    ]);
    expect(s.entries.map((e) => [e.door, e.address, e.method, e.status, e.code, e.bytes, e.actor])).toEqual([
      ["http", "page", "PUT", 405, "method-not-allowed", null, "model-x"],
      ["http", "page", "DELETE", 405, "method-not-allowed", null, null],
    ]);
    // The preflight is answered, not refused: no entry.
    await s.send({ method: "OPTIONS" });
    expect(s.entries).toHaveLength(2);
  });

  it("an onLog hook that throws never changes the answer", async () => {
    const s = serve({
      onLog: () => {
        throw new Error("log sink down");
      },
    });
    const errors = await capturingErrors(async () => {
      expect((await s.act()).status).toBe(200);
      expect((await s.act({}, "{}")).status).toBe(204);
    });
    expect(errors.join("\n")).toContain("onLog");
  });

  it("H1 GPT-Actor is kept printable and short: control characters and line breaks become ?, long values are cut", () => {
    expect(sanitizeActor(null)).toBeNull();
    expect(sanitizeActor("model-x/1.0")).toBe("model-x/1.0");
    expect(sanitizeActor('evil\r\n{"status":200}\u0000é')).toBe('evil??{"status":200}??');
    const long = sanitizeActor("a".repeat(500))!;
    expect(long).toBe(`${"a".repeat(64)}…`);
  });

  it("counters count entries by address, door, status and code, in the Prometheus text format", () => {
    const counters = new ActCounters();
    const entry = (status: number, code: ActLogEntry["code"]): ActLogEntry => ({
      time: new Date(0).toISOString(),
      address: 'pa"ge',
      door: "http",
      method: "POST",
      status,
      code,
      bytes: null,
      durationMs: 1,
      actor: null,
    });
    expect(counters.record(entry(200, null))).toBe(1);
    expect(counters.record(entry(200, null))).toBe(2);
    expect(counters.record(entry(204, "schema"))).toBe(1);
    expect(counters.count('pa"ge', "http", 200, null)).toBe(2);
    expect(counters.count('pa"ge', "mcp", 200, null)).toBe(0);
    expect(counters.prometheus()).toBe(
      [
        "# HELP gpt_address_requests_total Requests to GPT addresses by address, door, status and reason code.",
        "# TYPE gpt_address_requests_total counter",
        'gpt_address_requests_total{address="pa\\"ge",door="http",status="200",code="none"} 2',
        'gpt_address_requests_total{address="pa\\"ge",door="http",status="204",code="schema"} 1',
        "",
      ].join("\n"),
    );
  });
});

describe("an act its handler declines (ActDeclined): its status, never 204 or 500", () => {
  it("R1 503 with Retry-After, 413 and 400 with no body, logged as declined, never reported to onReject; control: the same act performed", async () => {
    const rejections: unknown[] = [];
    for (const [declined, retryAfter] of [
      [new ActDeclined(503, { retryAfterSeconds: 29.2 }), "30"],
      [new ActDeclined(413), null],
      [new ActDeclined(400), null],
    ] as const) {
      const s = serve({
        act: () => {
          throw declined;
        },
        onReject: (rejection) => rejections.push(rejection),
      });
      const answer = await s.act({ "accept-encoding": "identity" });
      expect(answer.status).toBe(declined.status);
      expect(answer.headers.get("retry-after")).toBe(retryAfter);
      expect(answer.headers.get("content-length")).toBe("0");
      expect(await answer.text()).toBe("");
      expect(s.entries.map((e) => [e.status, e.code])).toEqual([[declined.status, "declined"]]);
    }
    expect(rejections).toEqual([]);
    const control = serve();
    expect((await control.act()).status).toBe(200);
  });
});

describe("the example's settings", () => {
  it("RATE_LIMIT: unset is the default, off is none, <acts>,<arrivals> per minute; anything else names the setting", async () => {
    const { DEFAULT_RATE_LIMIT, rateLimitSetting, trustedProxies } = await import("../../examples/pages/limits.ts");
    expect(rateLimitSetting(undefined)).toEqual(DEFAULT_RATE_LIMIT);
    expect(DEFAULT_RATE_LIMIT).toEqual({ actsPerMinute: 60, arrivalsPerMinute: 600 });
    expect(rateLimitSetting("off")).toBeNull();
    expect(rateLimitSetting("3,5")).toEqual({ actsPerMinute: 3, arrivalsPerMinute: 5 });
    for (const bad of ["on", "3", "0,5", "-1,5", "3,5,7"]) expect(() => rateLimitSetting(bad)).toThrow(/RATE_LIMIT/);
    expect(trustedProxies(" 10.0.0.1, ,10.0.0.2 ")).toEqual(["10.0.0.1", "10.0.0.2"]);
    expect(trustedProxies(undefined)).toEqual([]);
  });

  it("the example's log writes one JSON line per entry with its running count", async () => {
    const { operations } = await import("../../examples/pages/limits.ts");
    const lines: string[] = [];
    const ops = operations((line) => lines.push(line));
    const s = serve({ onLog: ops.onLog });
    await s.act();
    await s.act();
    await s.act({}, "{}");
    expect(lines.map((line) => (JSON.parse(line) as { count: number; status: number }).count)).toEqual([1, 2, 1]);
    expect(ops.counters.count("page", "http", 200, null)).toBe(2);
  });
});

describe("the MCP door uses the same limits, pin and log", () => {
  const feedback = '{"rating": 4, "topic": "other", "comment": "Zq7-secret-comment"}';

  function mcpDoor(options: Parameters<typeof mcp>[1] = {}) {
    const acts: unknown[] = [];
    const entries: ActLogEntry[] = [];
    const app = new Hono();
    app.all(
      "/mcp",
      mcp(
        [
          {
            form: forms.feedback,
            act: (value: unknown) => {
              acts.push(value);
              return { received: true };
            },
          },
        ],
        { onLog: (entry) => entries.push(entry), ...options },
      ),
    );
    let id = 0;
    const call = (args: string, headers: Record<string, string> = {}) =>
      Promise.resolve(
        app.fetch(
          new Request("http://127.0.0.1/mcp", {
            method: "POST",
            body: `{"jsonrpc":"2.0","id":${++id},"method":"tools/call","params":{"name":"feedback","arguments":${args}}}`,
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          }),
        ),
      );
    const send = (init: RequestInit & { headers?: Record<string, string> }) =>
      Promise.resolve(app.fetch(new Request("http://127.0.0.1/mcp", init)));
    return { call, send, acts, entries };
  }

  it("S4 a tool call over the act limit gets 429 with Retry-After and a JSON-RPC error, and is not acted on", async () => {
    const d = mcpDoor({ rateLimit: { act: counting(1, 9), clientAddress: peer } });
    const first = await d.call(feedback, { "x-test-peer": "m" });
    expect(first.status).toBe(200);
    const limited = await d.call(feedback, { "x-test-peer": "m" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("9");
    expect(((await limited.json()) as { error: { message: string } }).error.message).toMatch(/Too many/);
    expect(d.acts).toHaveLength(1);
    expect((await d.call(feedback, { "x-test-peer": "n" })).status).toBe(200);
  });

  it("S4 every MCP message counts as an arrival, before it is read", async () => {
    const d = mcpDoor({ rateLimit: { arrival: counting(1), clientAddress: peer } });
    expect((await d.call(feedback, { "x-test-peer": "o" })).status).toBe(200);
    expect((await d.call(feedback, { "x-test-peer": "o" })).status).toBe(429);
  });

  it("X2 a tool call whose If-Match names another form gets 412; the current ETag is acted on (control)", async () => {
    const d = mcpDoor();
    expect((await d.call(feedback, { "if-match": '"old"' })).status).toBe(412);
    expect(d.acts).toHaveLength(0);
    expect((await d.call(feedback, { "if-match": forms.feedback.etag })).status).toBe(200);
    expect(d.acts).toHaveLength(1);
  });

  it("logs each tool call with door mcp, the tool's form as address, and the rejection code; never the arguments", async () => {
    const d = mcpDoor({ rateLimit: { act: counting(2), clientAddress: peer } });
    const headers = { "x-test-peer": "p", "gpt-actor": "agent\t1" };
    await d.call(feedback, headers);
    await d.call('{"rating": 9, "topic": "other"}', headers);
    await d.call(feedback, headers);
    expect(d.entries.map((e) => [e.door, e.address, e.status, e.code])).toEqual([
      ["mcp", "feedback", 200, null],
      ["mcp", "feedback", 200, "schema"],
      ["mcp", "feedback", 429, "rate-limited"],
    ]);
    expect(d.entries[0]!.actor).toBe("agent?1");
    for (const entry of d.entries) expect(formatActLog(entry)).not.toContain("Zq7-secret-comment");
  });

  it("logs a tools/call answered -32602 (no tool call: arguments not an object, or null) as invalid-params, and a throwing act as fault; neither as performed", async () => {
    const d = mcpDoor();
    for (const args of ["[4]", "null"]) {
      const answer = await d.call(args);
      expect(((await answer.json()) as { error?: { code: number } }).error?.code).toBe(-32602);
    }
    expect(d.acts).toHaveLength(0);
    const app = new Hono();
    const entries: ActLogEntry[] = [];
    app.all(
      "/mcp",
      mcp(
        [
          {
            form: forms.feedback,
            act: () => {
              throw new Error("the store is down");
            },
          },
        ],
        { onLog: (entry) => entries.push(entry) },
      ),
    );
    const errors: unknown[] = [];
    const { console: realConsole } = globalThis;
    const spy = { ...realConsole, error: (...args: unknown[]) => errors.push(args) };
    globalThis.console = spy as Console;
    let failed: Response;
    try {
      failed = await app.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"feedback","arguments":${feedback}}}`,
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        }),
      );
    } finally {
      globalThis.console = realConsole;
    }
    expect(((await failed.json()) as { result: { isError: boolean } }).result.isError).toBe(true);
    expect(errors).toHaveLength(1);
    expect([...d.entries, ...entries].map((e) => [e.door, e.address, e.status, e.code])).toEqual([
      ["mcp", "feedback", 200, "invalid-params"],
      ["mcp", "feedback", 200, "invalid-params"],
      ["mcp", "feedback", 200, "fault"],
    ]);
  });

  it("a tool whose act declines (ActDeclined) answers a tool result with isError that says when to retry, logged as declined, with no console error", async () => {
    const app = new Hono();
    const entries: ActLogEntry[] = [];
    app.all(
      "/mcp",
      mcp(
        [
          {
            form: forms.feedback,
            act: () => {
              throw new ActDeclined(503, { retryAfterSeconds: 42 });
            },
          },
        ],
        { onLog: (entry) => entries.push(entry) },
      ),
    );
    let response: Response | undefined;
    const errors = await capturingErrors(async () => {
      response = await app.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"feedback","arguments":${feedback}}}`,
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        }),
      );
    });
    const answer = (await response!.json()) as { result: { isError: boolean; content: { text: string }[] } };
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]!.text).toMatch(/Try again in 42 s\./);
    expect(errors).toHaveLength(0);
    expect(entries.map((e) => [e.status, e.code])).toEqual([[200, "declined"]]);
  });

  it("logs each message-level refusal under the endpoint's name with a stable code (400, 403, 405, 406, 415)", async () => {
    const d = mcpDoor();
    const json = { "content-type": "application/json", accept: "application/json" };
    const post = (body: string, headers: Record<string, string> = json) => d.send({ method: "POST", body, headers });
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const answers = [
      await post(ping, { "content-type": "text/plain" }),
      await post(ping, { "content-type": "application/json", accept: "text/html" }),
      await d.send({ method: "GET" }),
      await d.send({ method: "DELETE" }),
      await post(`[${ping}]`),
      await post('{"jsonrpc":"1.0","id":1,"method":"ping"}'),
      await post(ping, { ...json, "mcp-protocol-version": "1999-01-01" }),
      await post(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "server/discover",
          params: {
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
              "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
            },
          },
        }),
        { ...json, "mcp-protocol-version": "2026-07-28", "mcp-method": "ping" },
      ),
      await post(ping, { ...json, origin: "https://elsewhere.example" }),
      await d.send({ method: "POST", body: ping, headers: { ...json, host: "evil.example" } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([415, 406, 405, 405, 400, 400, 400, 400, 403, 403]);
    expect(d.entries.map((e) => [e.door, e.address, e.method, e.status, e.code])).toEqual([
      ["mcp", "gpt-address", "POST", 415, "content-type"],
      ["mcp", "gpt-address", "POST", 406, "accept"],
      ["mcp", "gpt-address", "GET", 405, "method-not-allowed"],
      ["mcp", "gpt-address", "DELETE", 405, "method-not-allowed"],
      ["mcp", "gpt-address", "POST", 400, "batch"],
      ["mcp", "gpt-address", "POST", 400, "invalid-request"],
      ["mcp", "gpt-address", "POST", 400, "protocol-version"],
      ["mcp", "gpt-address", "POST", 400, "header-mismatch"],
      ["mcp", "gpt-address", "POST", 403, "origin-not-allowed"],
      ["mcp", "gpt-address", "POST", 403, "host-not-allowed"],
    ]);
    // The bytes of a message read whole; none for one refused before its body was read.
    expect(d.entries.map((e) => e.bytes)).toEqual([
      null,
      null,
      null,
      null,
      ping.length + 2,
      40,
      ping.length,
      expect.any(Number),
      null,
      null,
    ]);
  });

  it("every empty answer but 204 says Content-Length: 0 (202, 405, and a fault's 500), and the fault is logged", async () => {
    const faulty = mcpDoor({
      rateLimit: {
        get arrival(): never {
          throw new Error("a stage that throws");
        },
      },
    });
    const errors = await capturingErrors(async () => {
      const fault = await faulty.call("{}");
      expect(fault.status).toBe(500);
      expect(fault.headers.get("content-length")).toBe("0");
      expect(await fault.text()).toBe("");
    });
    expect(errors.map(([message]) => message)).toEqual(["gpt-address: the MCP endpoint threw"]);
    expect(faulty.entries.map((e) => [e.status, e.code])).toEqual([[500, "fault"]]);
    const d = mcpDoor();
    const notification = await d.send({
      method: "POST",
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      headers: { "content-type": "application/json" },
    });
    expect(notification.status).toBe(202);
    expect(notification.headers.get("content-length")).toBe("0");
    const get = await d.send({ method: "GET", headers: { origin: "http://127.0.0.1" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("content-length")).toBe("0");
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
    expect(get.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1");
  });
});
