/**
 * The example worker end to end inside workerd (wrangler.toml's `main`, Workers KV local):
 * the page address at /page, stored pages at /pages/:id, the index at /.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createExampleApp } from "../../examples/pages/app.ts";
import { form } from "../../examples/pages/generated/page.js";
import { WorkersKvPageStore } from "../../examples/pages/stores/workers-kv.ts";
import { invalid, valid } from "./fixtures.ts";

const BASE = "https://pages.example";
const fetchWorker = (path: string, init?: RequestInit) => exports.default.fetch(new Request(BASE + path, init));
const publish = (body: string, headers: Record<string, string> = { "Content-Type": "application/json" }) =>
  fetchWorker("/page", { method: "POST", body, headers });

describe("the example page address", () => {
  it("A1 A2 GET /page with no headers returns {p, m, s} as application/json", async () => {
    const response = await fetchWorker("/page");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const arrival = (await response.json()) as { p: string; m: unknown[]; s: Record<string, unknown> };
    expect(arrival.p).toMatch(/publishes a page/);
    expect(arrival.m.length).toBeGreaterThanOrEqual(2);
    expect(arrival.s.type).toBe("object");
  });

  it("A4 the example address names its kind in GPT-Type", async () => {
    expect((await fetchWorker("/page")).headers.get("gpt-type")).toBe("page");
  });

  it("A6 a browser gets the page for people", async () => {
    const response = await fetchWorker("/page", { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe(form.page);
  });

  it("R1 POSTing a fixture answers 200 {id, url}; the url shows the stored page to people", async () => {
    const response = await publish(valid["valid-release-notes.json"]);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const published = (await response.json()) as { id: string; url: string };
    expect(Object.keys(published).sort()).toEqual(["id", "url"]);
    expect(published.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(published.url).toBe(`${BASE}/pages/${published.id}`);

    const page = await exports.default.fetch(published.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain("<title>Release notes — Lumen 2.4 “Aurora” 🚀</title>");
    expect(html).toContain(
      '<a href="https://docs.lumen.example/migrate/2.4?from=2.3#options" rel="nofollow noopener noreferrer ugc">migration guide</a>',
    );
    expect(html).toContain("<code>--watch</code>");
    expect(html).toContain("<s>");
    // The page is really in Workers KV.
    expect(await env.PAGES.get(`page:${published.id}`)).toBe(html);
  });

  it("V1 the worker's fetch handler is wrapped in runtimeFetch: an act's body, framed by workerd, is read by one arrayBuffer() call, never by a reader", async () => {
    const reader = ReadableStreamBYOBReader.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const originals = { arrayBuffer: Request.prototype.arrayBuffer, readAtLeast: reader.readAtLeast! };
    const calls: string[] = [];
    Request.prototype.arrayBuffer = function (this: Request) {
      calls.push("arrayBuffer");
      return originals.arrayBuffer.call(this);
    };
    reader.readAtLeast = function (this: unknown, ...args: unknown[]) {
      calls.push("readAtLeast");
      return originals.readAtLeast.apply(this, args);
    };
    try {
      const response = await publish(valid["valid-release-notes.json"]);
      expect(response.status).toBe(200);
    } finally {
      Request.prototype.arrayBuffer = originals.arrayBuffer;
      reader.readAtLeast = originals.readAtLeast;
    }
    expect(calls).toEqual(["arrayBuffer"]);
  });

  it("R1 each act publishes a new page", async () => {
    const a = (await (await publish(valid["valid-compact.json"])).json()) as { id: string };
    const b = (await (await publish(valid["valid-compact.json"])).json()) as { id: string };
    expect(a.id).not.toBe(b.id);
  });

  for (const name of Object.keys(invalid) as (keyof typeof invalid)[]) {
    it(`R2 ${name} gets 204 with no body and publishes nothing`, async () => {
      const before = (await env.PAGES.list()).keys.length;
      const response = await publish(invalid[name]);
      expect(response.status).toBe(204);
      expect(await response.text()).toBe("");
      expect((await env.PAGES.list()).keys.length).toBe(before);
    });
  }

  it("V1 an oversize body gets 204", async () => {
    const response = await publish(valid["valid-recipe.json"] + " ".repeat(1_048_576));
    expect(response.status).toBe(204);
  });

  it("a stored page that does not exist is 404; a non-UUID id is 404", async () => {
    expect((await fetchWorker(`/pages/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await fetchWorker("/pages/..%2Fpage")).status).toBe(404);
  });

  it("the index lists the address with its absolute URL", async () => {
    const response = await fetchWorker("/");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`${BASE}/page`);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("vary")).toBe("Accept");
  });

  it("A6 a browser gets the index as HTML: each address by its s.title, with its s.description, language set, no script", async () => {
    const response = await fetchWorker("/", { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).not.toContain("script-src");
    expect(response.headers.get("vary")).toBe("Accept");
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<li><a href="/page">page</a>: A page of rich text to publish on the web:');
    expect(html).toContain('<li><a href="/feedback">feedback</a>: Feedback on the gpt-address example server:');
    expect(html).not.toMatch(/<script/i);
  });
});

describe("the example in public (issue 31), in workerd with Workers KV", () => {
  it("publishing past the quota gets 503 with Retry-After and no body; the pages in KV stay under the quota", async () => {
    const prefix = `quota-${crypto.randomUUID()}:`;
    const body = valid["valid-compact.json"];
    const first = await publish(body);
    const size = new TextEncoder().encode(
      await (await exports.default.fetch(((await first.json()) as { url: string }).url)).text(),
    ).byteLength;
    const limits = { maxPageBytes: 4 * size, ttlSeconds: 3_600, quotaBytes: 3 * size + 10 };
    const store = new WorkersKvPageStore(env.PAGES, prefix, limits);
    const app = createExampleApp(() => store, { publicOrigin: "https://gpt.example.com" });
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 5; i++) {
      const answer = await app.fetch(new Request(`${BASE}/page`, { method: "POST", body }), env);
      statuses.push(answer.status);
      if (answer.status === 503) refused = answer;
      else await answer.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 503, 503]);
    expect(await refused!.text()).toBe("");
    const retryAfter = Number(refused!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    const { keys } = await env.PAGES.list({ prefix });
    const stored = keys.reduce((sum, key) => sum + (key.metadata as { bytes: number }).bytes, 0);
    expect(keys).toHaveLength(3);
    expect(stored).toBeLessThanOrEqual(limits.quotaBytes);
  });

  it("the act's url is at PUBLIC_ORIGIN whatever the request's host", async () => {
    const app = createExampleApp(() => new WorkersKvPageStore(env.PAGES, `origin-${crypto.randomUUID()}:`), {
      publicOrigin: "https://gpt.example.com",
    });
    const answer = await app.fetch(
      new Request("https://evil.example/page", { method: "POST", body: valid["valid-compact.json"] }),
      env,
    );
    const { id, url } = (await answer.json()) as { id: string; url: string };
    expect(url).toBe(`https://gpt.example.com/pages/${id}`);
  });

  it("/metrics of the worker: 404 without METRICS_TOKEN; with it, 401 without the token and the counters with it", async () => {
    const metrics = (headers: Record<string, string> = {}) => fetchWorker("/metrics", { headers });
    expect((await metrics()).status).toBe(404);
    const { default: worker } = await import("../../examples/pages/worker.ts");
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    const withToken = { ...env, METRICS_TOKEN: "s3cret-metrics-token" };
    const ask = (headers: Record<string, string>) =>
      worker.fetch(new Request(`${BASE}/metrics`, { headers }), withToken, ctx);
    const refused = await ask({});
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect((await ask({ authorization: "Bearer wrong" })).status).toBe(401);
    const counted = await ask({ authorization: "Bearer s3cret-metrics-token" });
    expect(counted.status).toBe(200);
    expect(await counted.text()).toContain("# TYPE gpt_address_requests_total counter");
  });

  it("a stored page revalidates by its ETag (304, no body)", async () => {
    const { url } = (await (await publish(valid["valid-compact.json"])).json()) as { url: string };
    const page = await exports.default.fetch(url);
    const etag = page.headers.get("etag")!;
    await page.arrayBuffer();
    const cached = await exports.default.fetch(url, { headers: { "if-none-match": etag } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe("");
  });
});
