/**
 * The wire-behaviour suite: every requirement of DESIGN.md that a black box can see, run over
 * real HTTP on loopback against one runtime serving the example addresses. Each
 * `test/runtimes/<runtime>.test.ts` calls {@link wireSuite} once.
 *
 * Every rejected body is paired with an accepted control that differs in that one respect;
 * from outside, a rejection is only a 204 (R2), so the pairing is what shows the cause.
 *
 * Runs (docs/runs.md) are seen through the render address, whose act takes
 * {@link RENDER_PAGE_MS} a page here, in the run store each entry gives it: the whole life cycle
 * of a run (202, polls, completed with the act's result; a cancel that the act obeys; expiry;
 * no run for an invalid act; nothing changed for a client that does not ask for one). That the
 * act saw its signal abort is read from the app's own `/metrics` (the renderings `stopped`, and
 * none left running), and through the protocol: the run's progress never moves again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Run } from "../../src/run/index.ts";
import * as bodies from "./bodies.ts";
import { type FakeUpstash, startFakeUpstash } from "./fake-upstash.ts";
import { launch, type Running, type RuntimeName, root } from "./harness.ts";
import { exchange, postHead, statuses, upload } from "./raw-http.ts";
import { slowClientSuite } from "./slow-clients.ts";

/** The page address's path and its body limit (the address's default, DESIGN.md §6). */
const PAGE = "/page";
const MAX_BYTES = 1024 * 1024;

/** The render address (forms/render.json), the example's act that takes seconds. */
const RENDER = "/render";
/** What one page of a rendered document takes in the suite's servers, in ms (`RENDER_PAGE_MS`). */
const RENDER_PAGE_MS = 50;
/** How long the suite's servers keep a run, in s (`RUNS_TTL_SECONDS`). */
const RUNS_TTL_SECONDS = 5;
/** The suite's `METRICS_TOKEN`: `/metrics` tells the renderings running and stopped. */
const METRICS_TOKEN = "wire-suite-metrics";
/** A run URL as `Location` gives it: under the address, 128 random bits in base64url. */
const RUN_PATH = /^\/render\/runs\/[A-Za-z0-9_-]{22}$/;

/** The arrival documents as the form files state them. */
const pageFile: unknown = JSON.parse(readFileSync(join(root, "forms/page.json"), "utf8"));
const feedbackFile: unknown = JSON.parse(readFileSync(join(root, "forms/feedback.json"), "utf8"));

export function wireSuite(name: RuntimeName): void {
  // Each test makes a few loopback requests; a hung response fails it in 30 s, not 120.
  describe(`${name}: the example addresses over HTTP`, { timeout: 30_000 }, () => {
    let server: Running;
    let upstash: FakeUpstash | undefined;
    // A runtime that cannot start (a missing binary, a crash) fails every test with the reason,
    // rather than leaving them reported as skipped.
    let failure: unknown;
    const url = (path: string) => {
      if (failure !== undefined) throw failure;
      return server.url + path;
    };
    const act = (body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }) =>
      fetch(url(PAGE), { method: "POST", body, headers });

    beforeAll(async () => {
      let env: Record<string, string> = {
        RENDER_PAGE_MS: String(RENDER_PAGE_MS),
        RUNS_TTL_SECONDS: String(RUNS_TTL_SECONDS),
        METRICS_TOKEN,
      };
      if (name === "vercel") {
        upstash = await startFakeUpstash();
        env = { ...env, UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token };
      }
      try {
        server = await launch(name, env);
      } catch (error) {
        failure = error;
      }
    });

    afterAll(async () => {
      await server?.stop();
      await upstash?.close();
    });

    /** Asserts a silent rejection: 204, no content, nothing that names a reason. */
    async function expectRejected(response: Response) {
      expect(response.status).toBe(204);
      expect(await response.text()).toBe("");
      expect(response.headers.get("content-type")).toBeNull();
    }

    /** Asserts an accepted act: 200 JSON `{id, url}`. */
    async function expectAccepted(response: Response): Promise<{ id: string; url: string }> {
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
      const answer = (await response.json()) as { id: string; url: string };
      expect(typeof answer.id).toBe("string");
      expect(typeof answer.url).toBe("string");
      return answer;
    }

    describe("arrival", () => {
      it("A1 A2 GET with no header answers 200 application/json {p, m, s}, the form file as written", async () => {
        const response = await fetch(url(PAGE));
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
        const arrival = (await response.json()) as { p: unknown; m: { role: unknown; content: unknown }[]; s: unknown };
        expect(typeof arrival.p).toBe("string");
        expect(Array.isArray(arrival.m)).toBe(true);
        for (const message of arrival.m) {
          expect(typeof message.role).toBe("string");
          expect(typeof message.content).toBe("string");
        }
        expect(typeof arrival.s).toBe("object");
        expect(arrival).toEqual(pageFile);
      });

      it("A5 answers every GET with the same bytes, whatever came before or the cookies sent, and sets no cookie", async () => {
        const first = await fetch(url(PAGE));
        const bytes = await first.arrayBuffer();
        await act(bodies.validPage);
        const later = await fetch(url(PAGE), { headers: { cookie: "session=abc", "gpt-actor": "someone" } });
        expect(Buffer.from(await later.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
        expect(first.headers.get("set-cookie")).toBeNull();
        expect(later.headers.get("set-cookie")).toBeNull();
        expect(later.headers.get("etag")).toBe(first.headers.get("etag"));
      });

      it("A6 gives the page for people to Accept: text/html, and the JSON form otherwise, with Vary: Accept", async () => {
        const html = await fetch(url(PAGE), { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
        expect(html.status).toBe(200);
        expect(html.headers.get("content-type")).toMatch(/^text\/html\b/);
        expect(await html.text()).toMatch(/<html/i);
        expect(html.headers.get("vary")).toMatch(/\baccept\b/i);
        for (const accept of [
          "application/json",
          "*/*",
          "text/*",
          "text/html;q=0",
          "application/json, text/html;q=0.5",
        ]) {
          const json = await fetch(url(PAGE), { headers: { accept } });
          expect(json.headers.get("content-type"), accept).toMatch(/^application\/json\b/);
          expect(json.headers.get("vary"), accept).toMatch(/\baccept\b/i);
          expect(await json.json(), accept).toEqual(pageFile);
        }
      });
    });

    describe("A4 GPT-Type", () => {
      it("A4 the page address names its kind in GPT-Type on GET, HEAD and 304, advisory only", async () => {
        const get = await fetch(url(PAGE));
        expect(get.headers.get("gpt-type")).toBe("page");
        const head = await fetch(url(PAGE), { method: "HEAD" });
        expect(head.headers.get("gpt-type")).toBe("page");
        const notModified = await fetch(url(PAGE), { headers: { "if-none-match": get.headers.get("etag")! } });
        expect(notModified.headers.get("gpt-type")).toBe("page");
        expect((get.headers.get("access-control-expose-headers") ?? "").toLowerCase()).toContain("gpt-type");
      });
    });

    describe("S4 caching of the form", () => {
      it("S4 the JSON form carries a strong ETag and a shared-cache Cache-Control with stale-while-revalidate", async () => {
        const response = await fetch(url(PAGE));
        expect(response.headers.get("etag")).toMatch(/^"[^"]+"$/);
        const cacheControl = response.headers.get("cache-control") ?? "";
        expect(cacheControl).toMatch(/\bpublic\b/);
        expect(cacheControl).toMatch(/\bmax-age=\d+/);
        expect(cacheControl).toMatch(/\bstale-while-revalidate=\d+/);
      });

      it("S4 the page for people has its own ETag and is not shared-cacheable", async () => {
        const json = await fetch(url(PAGE));
        const html = await fetch(url(PAGE), { headers: { accept: "text/html" } });
        expect(html.headers.get("etag")).toMatch(/^"[^"]+"$/);
        expect(html.headers.get("etag")).not.toBe(json.headers.get("etag"));
        expect(html.headers.get("cache-control")).toMatch(/\bprivate\b/);
      });

      it("S4 If-None-Match with the current ETag gets 304 and no content; any other tag gets the full form", async () => {
        const etag = (await fetch(url(PAGE))).headers.get("etag")!;
        for (const field of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
          const response = await fetch(url(PAGE), { headers: { "if-none-match": field } });
          expect(response.status, field).toBe(304);
          expect(await response.text()).toBe("");
          expect(response.headers.get("etag")).toBe(etag);
          expect(response.headers.get("vary")).toMatch(/\baccept\b/i);
        }
        const control = await fetch(url(PAGE), { headers: { "if-none-match": '"other"' } });
        expect(control.status).toBe(200);
        expect(await control.json()).toEqual(pageFile);
      });

      it("S4 the page's ETag revalidates the page, not the JSON form", async () => {
        const htmlEtag = (await fetch(url(PAGE), { headers: { accept: "text/html" } })).headers.get("etag")!;
        const html = await fetch(url(PAGE), { headers: { accept: "text/html", "if-none-match": htmlEtag } });
        expect(html.status).toBe(304);
        const json = await fetch(url(PAGE), { headers: { "if-none-match": htmlEtag } });
        expect(json.status).toBe(200);
      });

      it("S4 HEAD answers with GET's status and headers and no content", async () => {
        for (const accept of ["application/json", "text/html"]) {
          const get = await fetch(url(PAGE), { headers: { accept } });
          const getBytes = (await get.arrayBuffer()).byteLength;
          const head = await fetch(url(PAGE), { method: "HEAD", headers: { accept } });
          expect(head.status).toBe(200);
          expect(await head.text()).toBe("");
          for (const field of ["content-type", "etag", "cache-control", "vary"]) {
            expect(head.headers.get(field), `${accept} ${field}`).toBe(get.headers.get(field));
          }
          const length = head.headers.get("content-length");
          if (length !== null) expect(Number(length)).toBe(getBytes);
          const conditional = await fetch(url(PAGE), {
            method: "HEAD",
            headers: { accept, "if-none-match": get.headers.get("etag")! },
          });
          expect(conditional.status).toBe(304);
        }
      });
    });

    describe("CORS and methods", () => {
      it("answers the CORS preflight for POST with Content-Type, for any origin", async () => {
        const response = await fetch(url(PAGE), {
          method: "OPTIONS",
          headers: {
            origin: "https://actor.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type, gpt-actor",
          },
        });
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(300);
        expect(response.headers.get("access-control-allow-origin")).toBe("*");
        const methods = (response.headers.get("access-control-allow-methods") ?? "").toUpperCase();
        for (const method of ["GET", "HEAD", "POST"]) expect(methods).toContain(method);
        expect((response.headers.get("access-control-allow-headers") ?? "").toLowerCase()).toContain("content-type");
        expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      });

      it("lets browser actors read the form and the act's answer (Access-Control-Allow-Origin: *)", async () => {
        const get = await fetch(url(PAGE), { headers: { origin: "https://actor.example" } });
        expect(get.headers.get("access-control-allow-origin")).toBe("*");
        const post = await act(bodies.validPage, {
          "content-type": "application/json",
          origin: "https://actor.example",
        });
        await expectAccepted(post);
        expect(post.headers.get("access-control-allow-origin")).toBe("*");
      });

      it("answers other methods with 405 and an Allow field", async () => {
        for (const method of ["PUT", "DELETE", "PATCH"]) {
          // identity: Miniflare's entry gzips even an empty body for a client that accepts gzip.
          const headers = { "accept-encoding": "identity" };
          const response = await fetch(url(PAGE), { method, body: bodies.validPage, headers });
          expect(response.status, method).toBe(405);
          const allow = (response.headers.get("allow") ?? "").toUpperCase();
          for (const allowed of ["GET", "HEAD", "POST"]) expect(allow, method).toContain(allowed);
          expect(response.headers.get("content-length"), method).toBe("0");
          expect(await response.text(), method).toBe("");
        }
      });

      it("X2 an act whose If-Match names another form gets 412 with an empty body framed by Content-Length: 0", async () => {
        const response = await fetch(url(PAGE), {
          method: "POST",
          body: bodies.validPage,
          headers: { "content-type": "application/json", "if-match": '"another-form"', "accept-encoding": "identity" },
        });
        expect(response.status).toBe(412);
        expect(response.headers.get("content-length")).toBe("0");
        expect(response.headers.get("transfer-encoding")).toBeNull();
        expect(await response.text()).toBe("");
      });
    });

    describe("per-address endpoints: every form in forms/ on its own path, from one server", () => {
      it("A1 V3 /feedback publishes forms/feedback.json, with its own ETag, and enforces that form, not the page's", async () => {
        const page = await fetch(url(PAGE));
        const feedback = await fetch(url("/feedback"));
        expect(feedback.status).toBe(200);
        expect(await feedback.json()).toEqual(feedbackFile);
        expect(feedback.headers.get("etag")).toMatch(/^"[^"]+"$/);
        expect(feedback.headers.get("etag")).not.toBe(page.headers.get("etag"));
        const send = (body: string) =>
          fetch(url("/feedback"), { method: "POST", body, headers: { "content-type": "application/json" } });
        const accepted = await send(`{"rating": 4, "topic": "page-address", "comment": "Publishing took one POST."}`);
        expect(accepted.status).toBe(200);
        expect(accepted.headers.get("content-type")).toMatch(/^application\/json\b/);
        expect(await accepted.json()).toMatchObject({ received: true, rating: 4 });
        await expectRejected(
          await send(`{"rating": 6, "topic": "page-address", "comment": "Publishing took one POST."}`),
        );
        await expectRejected(await send(bodies.validPage));
        await expectRejected(await act(`{"rating": 4, "topic": "page-address"}`));
      });
    });

    describe("the act", () => {
      it("R1 a valid act gets 200 JSON {id, url}, and the url shows the stored page to people, escaped", async () => {
        const { id, url: pageUrl } = await expectAccepted(await act(bodies.validPage));
        expect(new URL(pageUrl).origin).toBe(url(""));
        expect(new URL(pageUrl).pathname).toBe(`/pages/${id}`);
        const page = await fetch(pageUrl);
        expect(page.status).toBe(200);
        expect(page.headers.get("content-type")).toMatch(/^text\/html\b/);
        const html = await page.text();
        expect(html).toContain("Notes from the édge — ünïcode &amp; &lt;tags&gt;");
        expect(html).toContain("first 🌍");
        expect(html).not.toContain("<script>alert(1)</script>");
        expect(html).toContain("&lt;script&gt;");
        // The Upstash store puts a page by one script, within its quota (examples/pages/stores/upstash.ts).
        if (upstash) expect(upstash.commands).toContain("EVAL");
      });

      it("R2 a body the form rejects gets 204 with no content and no hint, whatever it violates", async () => {
        for (const body of [bodies.unknownMember, bodies.httpLink, bodies.headingLevel4, "{}", "[]", "null"]) {
          await expectRejected(await act(body));
        }
        await expectAccepted(await act(bodies.validPage));
      });

      it("V2 bytes after the value are rejected; trailing whitespace is not", async () => {
        await expectRejected(await act(bodies.trailingValue));
        await expectAccepted(await act(bodies.trailingWhitespace));
      });

      it("V2 a duplicate member name is rejected at the top and deep down, also when spelled with an escape", async () => {
        await expectRejected(await act(bodies.duplicateTitle));
        await expectRejected(await act(bodies.duplicateDeep));
        await expectAccepted(await act(bodies.validPage));
      });

      it(`V1 a body of exactly ${MAX_BYTES} bytes is read; one byte more is rejected`, async () => {
        await expectAccepted(await act(bodies.padded(MAX_BYTES)));
        await expectRejected(await act(bodies.padded(MAX_BYTES + 1)));
      });

      it("V1 an oversize body without Content-Length (chunked) is rejected; the same page chunked is accepted", async () => {
        const chunked = (bytes: Uint8Array) =>
          fetch(url(PAGE), {
            method: "POST",
            body: new ReadableStream<Uint8Array>({
              start(controller) {
                for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.subarray(i, i + 65_536));
                controller.close();
              },
            }),
            headers: { "content-type": "application/json" },
            duplex: "half",
          } as RequestInit);
        await expectRejected(await chunked(bodies.padded(MAX_BYTES + 1)));
        await expectAccepted(await chunked(bodies.padded(MAX_BYTES)));
      });

      // Not on workerd: its own server closes after an answer with `Connection: close` while the
      // upload still arrives, and the reset can lose the answer (3 EPIPE in 20 under load, none
      // alone); deployed Workers have Cloudflare's front in between (docs/operations.md).
      it.skipIf(name === "workerd")(
        "RFC 9112 §9.6 a client still uploading an oversize body (2 MiB, with Content-Length and chunked) reads its 204, not a reset",
        async () => {
          // node:http's client stops at the first write error (EPIPE, ECONNRESET): it sees the
          // answer only if the server let the upload finish or the answer came first.
          const headers = { "content-type": "application/json" };
          const seen: (number | string)[] = [];
          for (let i = 0; i < 10; i++)
            for (const framing of ["content-length", "chunked"] as const)
              seen.push((await upload(url(PAGE), "POST", 2 * MAX_BYTES, framing, { headers })).status);
          expect(seen).toEqual(new Array(20).fill(204));
        },
      );

      it("RFC 9110 §10.1.1 Expect: 100-continue: an oversize Content-Length is refused (on Node without inviting the body); a valid body is acted on", async () => {
        const { port } = new URL(url(PAGE));
        const oversize = await exchange(
          Number(port),
          [{ delayMs: 0, bytes: postHead(PAGE, [`Content-Length: ${2 * MAX_BYTES}`, "Expect: 100-continue"]) }],
          "wait",
          3_000,
        );
        expect(statuses(oversize.received).at(-1)).toBe(204);
        // The Node entry leaves the interim answer to the address (`serve` of gpt-address/node, src/node/index.ts).
        if (name === "node") expect(statuses(oversize.received)).toEqual([204]);
        const page = new TextEncoder().encode(bodies.validPage);
        const valid = await exchange(
          Number(port),
          [
            { delayMs: 0, bytes: postHead(PAGE, [`Content-Length: ${page.byteLength}`, "Expect: 100-continue"]) },
            { delayMs: 200, bytes: page },
          ],
          "wait",
          1_000,
        );
        expect(statuses(valid.received).at(-1)).toBe(200);
        if (name === "node") expect(statuses(valid.received)).toEqual([100, 200]);
      });

      it("the media type is not a gate: the same valid body is accepted as text/plain or with no Content-Type", async () => {
        await expectAccepted(await act(bodies.validPage, { "content-type": "text/plain" }));
        await expectAccepted(await act(new TextEncoder().encode(bodies.validPage), {}));
        await expectRejected(await act(bodies.unknownMember, { "content-type": "text/plain" }));
      });

      it("a body with a Content-Encoding other than identity is rejected; identity is accepted", async () => {
        await expectRejected(
          await act(bodies.validPage, { "content-type": "application/json", "content-encoding": "gzip" }),
        );
        await expectAccepted(
          await act(bodies.validPage, { "content-type": "application/json", "content-encoding": "identity" }),
        );
      });

      it("H1 GPT-Actor never gates: the same bodies get the same answers with and without it", async () => {
        for (const actor of ["", "claude-x; via=api", "admin"]) {
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (actor !== "") headers["gpt-actor"] = actor;
          await expectAccepted(await act(bodies.validPage, headers));
          await expectRejected(await act(bodies.unknownMember, headers));
        }
      });
    });

    describe("runs: the render address (docs/runs.md)", () => {
      const render = (body: string, headers: Record<string, string> = {}) =>
        fetch(url(RENDER), { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
      const document = (pages: number, title = `A document of ${pages} pages`) => JSON.stringify({ title, pages });
      const asyncly = { prefer: "respond-async" };
      const readRun = async (location: string) => {
        const response = await fetch(url(location));
        expect(response.status, location).toBe(200);
        expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
        expect(response.headers.get("cache-control")).toBe("no-store");
        return (await response.json()) as Run;
      };
      /** Reads the run at `location` until `done`, every 20 ms for at most `ms`; every state seen, in order. */
      const pollRun = async (location: string, done: (run: Run) => boolean, ms = 10_000) => {
        const seen: Run[] = [];
        const deadline = Date.now() + ms;
        for (;;) {
          const run = await readRun(location);
          seen.push(run);
          if (done(run)) return seen;
          if (Date.now() > deadline) throw new Error(`the run at ${location} is still ${JSON.stringify(run)}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      /** The renderings the server counts (`/metrics`): running now, and ended each way. */
      const renders = async () => {
        const response = await fetch(url("/metrics"), { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        expect(response.status).toBe(200);
        const text = await response.text();
        const value = (series: string) => {
          const line = text.split("\n").find((l) => l.startsWith(`${series} `));
          if (line === undefined) throw new Error(`/metrics has no ${series}:\n${text}`);
          return Number(line.slice(series.length + 1));
        };
        const total = (outcome: string) => value(`gpt_address_example_renders_total{outcome="${outcome}"}`);
        return {
          running: value("gpt_address_example_renders_running"),
          completed: total("completed"),
          stopped: total("stopped"),
          failed: total("failed"),
        };
      };
      /** Starts a run: 202 with its URL; returns the URL and the run as the 202 gave it. */
      const started = async (response: Response) => {
        expect(response.status).toBe(202);
        const location = response.headers.get("location") ?? "";
        expect(location).toMatch(RUN_PATH);
        expect(response.headers.get("preference-applied")).toBe("respond-async");
        expect(response.headers.get("retry-after")).toBe("1");
        expect(response.headers.get("cache-control")).toBe("no-store");
        const run = (await response.json()) as Run;
        expect(run).toMatchObject({ status: "working", pollIntervalMs: 1000, ttlMs: RUNS_TTL_SECONDS * 1000 });
        expect(location.endsWith(`/${run.taskId}`)).toBe(true);
        return { location, run };
      };

      it("202 with the run's URL, polled through its progress to completed with the act's result", async () => {
        const before = await renders();
        const { location, run } = await started(await render(document(8), asyncly));
        const seen = await pollRun(location, (state) => state.status !== "working");
        const done = seen.at(-1)!;
        expect(done).toMatchObject({ taskId: run.taskId, status: "completed", createdAt: run.createdAt });
        const result = done.result as { id: string; url: string; pages: number };
        expect(result).toEqual({ id: expect.any(String), url: expect.any(String), pages: 8 });
        expect(new URL(result.url).pathname).toBe(`/pages/${result.id}`);
        // The act's progress, page by page, as the polls saw it: rising, and never past 1.
        const working = seen.filter((state) => state.status === "working" && state.statusMessage !== undefined);
        expect(working.length).toBeGreaterThan(0);
        for (const state of working) expect(state.statusMessage).toMatch(/^rendered page [1-8] of 8$/);
        const fractions = working.map((state) => state.progress!);
        expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
        for (const fraction of fractions) expect(fraction).toBeLessThanOrEqual(1);
        // The result is the act's: the document is published, all 8 pages of it.
        const page = await fetch(url(new URL(result.url).pathname));
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("Page 8 of 8");
        // The completed run reads the same again, and a DELETE leaves it completed.
        expect(await readRun(location)).toEqual(done);
        const late = await fetch(url(location), { method: "DELETE" });
        expect(late.status).toBe(200);
        expect(await late.json()).toEqual(done);
        const after = await renders();
        expect(after.completed - before.completed).toBe(1);
        expect(after.running).toBe(before.running);
      });

      it("without Prefer nothing changes: 200 with the result once the document is done, no run", async () => {
        const sent = Date.now();
        const response = await render(document(4));
        expect(response.status).toBe(200);
        expect(Date.now() - sent).toBeGreaterThanOrEqual(4 * RENDER_PAGE_MS - 10);
        expect(response.headers.get("location")).toBeNull();
        expect(response.headers.get("preference-applied")).toBeNull();
        expect(await response.json()).toEqual({ id: expect.any(String), url: expect.any(String), pages: 4 });
      });

      it("Prefer: respond-async, wait=N that the act finishes within: the 200 it would have had, no run", async () => {
        const response = await render(document(2), { prefer: "respond-async, wait=5" });
        expect(response.status).toBe(200);
        expect(response.headers.get("location")).toBeNull();
        expect(response.headers.get("preference-applied")).toBeNull();
        expect(await response.json()).toEqual({ id: expect.any(String), url: expect.any(String), pages: 2 });
      });

      it("DELETE cancels a working run: cancelled, the act stops at once (it ran, and ends as stopped), and its progress never moves again", async () => {
        const before = await renders();
        const { location } = await started(await render(document(40), asyncly));
        // The act is under way: a page done, and the rendering counted as running.
        await pollRun(location, (state) => state.statusMessage !== undefined);
        expect((await renders()).running).toBe(before.running + 1);
        const cancel = await fetch(url(location), { method: "DELETE" });
        expect(cancel.status).toBe(200);
        expect(cancel.headers.get("cache-control")).toBe("no-store");
        const cancelled = (await cancel.json()) as Run;
        expect(cancelled).toMatchObject({ status: "cancelled" });
        expect(cancelled.result).toBeUndefined();
        // The act saw its signal: it ended as stopped (not completed), long before its 40 pages (2 s).
        const deadline = Date.now() + 1_500;
        let after = await renders();
        while (after.stopped === before.stopped && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          after = await renders();
        }
        expect(after.stopped - before.stopped).toBe(1);
        expect(after.running).toBe(before.running);
        expect(after.completed).toBe(before.completed);
        // Nothing moves the run again: over more pages than the act had left to write, and after a second DELETE.
        await new Promise((resolve) => setTimeout(resolve, 10 * RENDER_PAGE_MS));
        expect(await readRun(location)).toEqual(cancelled);
        const again = await fetch(url(location), { method: "DELETE" });
        expect(again.status).toBe(200);
        expect(await again.json()).toEqual(cancelled);
        expect(await renders()).toEqual(after);
      });

      it("an expired run, an unknown one and a malformed id are 404 with no body, to GET and to DELETE", async () => {
        const { location, run } = await started(await render(document(1), asyncly));
        await pollRun(location, (state) => state.status === "completed");
        const unknown = `${RENDER}/runs/${"A".repeat(22)}`;
        for (const path of [unknown, `${RENDER}/runs/not-a-run`, `${RENDER}/runs/${run.taskId}x`]) {
          for (const method of ["GET", "DELETE"]) {
            const response = await fetch(url(path), { method, headers: { "accept-encoding": "identity" } });
            expect(response.status, `${method} ${path}`).toBe(404);
            expect(await response.text()).toBe("");
          }
        }
        // Past its TTL the run is gone.
        await new Promise((resolve) =>
          setTimeout(resolve, Date.parse(run.createdAt) + RUNS_TTL_SECONDS * 1000 + 250 - Date.now()),
        );
        for (const method of ["GET", "DELETE"]) {
          const response = await fetch(url(location), { method, headers: { "accept-encoding": "identity" } });
          expect(response.status, method).toBe(404);
          expect(await response.text()).toBe("");
        }
      });

      it("an invalid act asking for a run is 204 and makes none: nothing renders, and its Idempotency-Key stays free", async () => {
        const before = await renders();
        const key = `"wire-${name}-${Date.now()}"`;
        const headers = { ...asyncly, "idempotency-key": key };
        for (const body of ['{"title": "x", "pages": 41}', '{"title": "x"}', '{"title": "x", "pages": 2, "more": 1}']) {
          const response = await render(body, headers);
          expect(response.status, body).toBe(204);
          expect(response.headers.get("location")).toBeNull();
          expect(await response.text()).toBe("");
        }
        expect(await renders()).toEqual(before);
        // Control: a valid act with the same key and preference gets its run (not 422: no key was kept).
        const { location } = await started(await render(document(1), headers));
        await pollRun(location, (state) => state.status === "completed");
      });

      it("Idempotency-Key: the same act again gets the same run; other bytes under the key get 422", async () => {
        const headers = { ...asyncly, "idempotency-key": `"wire-same-${name}-${Date.now()}"` };
        const first = await started(await render(document(10), headers));
        const second = await render(document(10), headers);
        expect(second.status).toBe(202);
        expect(second.headers.get("location")).toBe(first.location);
        await second.body?.cancel();
        const other = await render(document(4), headers);
        expect(other.status).toBe(422);
        await other.body?.cancel();
        await pollRun(first.location, (state) => state.status === "completed");
      });

      it("CORS: the preflight allows Prefer and Idempotency-Key, and a browser reads the 202's Location", async () => {
        const preflight = await fetch(url(RENDER), {
          method: "OPTIONS",
          headers: {
            origin: "https://actor.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type, prefer, idempotency-key",
          },
        });
        expect(preflight.status).toBeLessThan(300);
        const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").toLowerCase();
        for (const field of ["prefer", "idempotency-key"]) expect(allowed).toContain(field);
        const response = await render(document(1), { ...asyncly, origin: "https://actor.example" });
        const { location } = await started(response);
        const exposed = (response.headers.get("access-control-expose-headers") ?? "").toLowerCase();
        for (const field of ["location", "preference-applied", "retry-after"]) expect(exposed).toContain(field);
        await pollRun(location, (state) => state.status === "completed");
      });
    });

    slowClientSuite(name, () => url(""));
  });
}
