/**
 * The example as an operator runs it, on each runtime, over real HTTP (issue 15, acceptance):
 * its shipped rate limits answer bursts with 429 and `Retry-After` (distinct from 204), a stale
 * `If-Match` gets 412 and nothing is acted on, every act and rejection writes one JSON log line
 * with no body content, and `/metrics` counts them for the token only. Limits are set low
 * (`RATE_LIMIT=3,5`) so a burst is short; on workerd they are the `[[ratelimits]]` bindings of
 * wrangler.toml. The example's own routes (`/metrics`, `/pages/…`, 404s) spend the same arrival
 * budget as the form's GETs (issue 31), and the act's `url` is at `PUBLIC_ORIGIN`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch, type Running, type RuntimeName } from "./harness.ts";

const MARKER = "Zq7-never-logged";
const page = JSON.stringify({ title: MARKER, blocks: [{ type: "paragraph", spans: [{ text: "Hello." }] }] });
const json = { "content-type": "application/json" };
const TOKEN = "s3cret-metrics-token";
const ORIGIN = "https://gpt.example.com";

/** The JSON log lines a server wrote (one per act, rejection and refusal). */
function logLines(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith('{"time":'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

for (const name of ["node", "workerd", "bun", "deno"] as RuntimeName[]) {
  describe(`${name}: the example's limits, pin, log and counters`, { timeout: 60_000 }, () => {
    let server: Running;
    let failure: unknown;
    const url = (path: string) => {
      if (failure !== undefined) throw failure;
      return server.url + path;
    };

    beforeAll(async () => {
      try {
        server = await launch(name, { RATE_LIMIT: "3,5", METRICS_TOKEN: TOKEN, PUBLIC_ORIGIN: ORIGIN });
      } catch (error) {
        failure = error;
      }
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("S4 X2 a burst of acts gets 429 with Retry-After after the limit; a wrong value is 204 and a stale If-Match 412 before it; nothing of the body is logged", async () => {
      const send = (body: string, headers: Record<string, string> = {}) =>
        fetch(url("/page"), { method: "POST", body, headers: { ...json, ...headers } });
      const accepted = await send(page, { "gpt-actor": "model-x", host: "evil.example" });
      const wrong = await send(`${page}{}`);
      const stale = await send(page, { "if-match": '"an-older-form"' });
      // identity: Miniflare's entry gzips even an empty body for a client that accepts gzip.
      const limited = await send(page, { "accept-encoding": "identity" });
      expect([accepted.status, wrong.status, stale.status, limited.status]).toEqual([200, 204, 412, 429]);
      expect(await stale.text()).toBe("");
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await limited.text()).toBe("");
      expect(limited.headers.get("content-length")).toBe("0"); // not a chunked empty body
      // The act's url is at PUBLIC_ORIGIN, not at the Host the client sent.
      const { id, url: pageUrl } = (await accepted.json()) as { id: string; url: string };
      expect(pageUrl).toBe(`${ORIGIN}/pages/${id}`);

      // The counters only with the token (401 without); only the first act was acted on: one
      // 200 in the counters, and the 412 stored nothing.
      expect((await fetch(url("/metrics"), { headers: { "accept-encoding": "identity" } })).status).toBe(401);
      const metrics = await (await fetch(url("/metrics"), { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      expect(metrics).toContain('gpt_address_requests_total{address="page",door="http",status="200",code="none"} 1');
      expect(metrics).toContain(
        'gpt_address_requests_total{address="page",door="http",status="412",code="precondition-failed"} 1',
      );

      // Arrivals have their own budget, 5 a minute, which the two reads of /metrics spent too
      // (the launcher's readiness check, a preflight, spends none); a stored page and a 404 are
      // refused as the form's GET is, once it is spent.
      const gets = [];
      for (const path of ["/nothing", `/pages/${id}`, "/page", `/pages/${id}`, "/nothing", "/page"]) {
        gets.push((await fetch(url(path), { headers: { "accept-encoding": "identity" } })).status);
      }
      expect(gets).toEqual([404, 200, 200, 429, 429, 429]);

      // One JSON line per act, rejection and refusal, none holding the body.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const lines = logLines(server.output());
      expect(lines.map((line) => [line.method, line.status, line.code])).toEqual([
        ["POST", 200, null],
        ["POST", 204, "json-syntax:trailing-bytes"],
        ["POST", 412, "precondition-failed"],
        ["POST", 429, "rate-limited"],
        ["GET", 429, "rate-limited"],
        ["GET", 429, "rate-limited"],
        ["GET", 429, "rate-limited"],
      ]);
      expect(lines.slice(-3).map((line) => line.address)).toEqual(["pages", "not-found", "page"]);
      expect(lines[0]).toMatchObject({ address: "page", door: "http", actor: "model-x", count: 1 });
      expect(server.output()).not.toContain(MARKER);
    });
  });
}
