/**
 * Loopback servers for the client tests: the example app in-process on Node, and a
 * deliberately broken address whose parser is `JSON.parse` (Hono's `c.req.json()`), which
 * `check` must fail. Every server listens on 127.0.0.1, port 0.
 */
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createExampleApp } from "../../../examples/pages/app.ts";
import { SqlitePageStore } from "../../../examples/pages/stores/sqlite.ts";
import { compileValidator } from "../../../src/client/form-validator.ts";

export const root = join(import.meta.dirname, "../../..");

/** A running server. */
export interface Served {
  /** Base URL without a trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `app` on 127.0.0.1 at an ephemeral port. */
export function serveApp(app: { fetch: (request: Request) => Response | Promise<Response> }): Promise<Served> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** The example addresses (`/page`, `/feedback`), pages kept in memory. */
export function serveExample(): Promise<Served> {
  const store = new SqlitePageStore(new DatabaseSync(":memory:"));
  return serveApp(createExampleApp(() => store));
}

/** The page form file, as published. */
export const pageFile = JSON.parse(readFileSync(join(root, "forms/page.json"), "utf8")) as {
  p: string;
  m: { role: string; content: string }[];
  s: Record<string, unknown>;
};

/** What the broken address has acted on (every 200 it answered). */
export interface BrokenAddress extends Served {
  readonly acted: unknown[];
}

/**
 * The page form served by an address that parses with `JSON.parse` (through `c.req.json()`,
 * which also decodes invalid UTF-8 to U+FFFD and drops a byte order mark) and reads bodies of
 * any size; it validates with the right validator and answers 204 on failure, like the real
 * thing. Everything else about it is correct, so `check` must name exactly the parser's faults.
 */
export async function serveBrokenAddress(): Promise<BrokenAddress> {
  const validator = await compileValidator(pageFile.s);
  const acted: unknown[] = [];
  const app = new Hono();
  app.get("/page", (c) => c.json(pageFile));
  // The same address with one more fault each, for `check`'s other points.
  app.get("/needs-header", (c) =>
    c.req.header("accept") === "application/json" ? c.json(pageFile) : c.body("send Accept: application/json", 406),
  );
  app.get("/text-plain", (c) => c.text(JSON.stringify(pageFile)));
  // Every act rate limited: nothing about the parser can be decided.
  app.get("/limited", (c) => c.json(pageFile));
  app.post("/limited", (c) => c.body(null, 429, { "retry-after": "30" }));
  app.get("/actor-gate", (c) => c.json(pageFile));
  app.post("/actor-gate", async (c) => {
    // GPT-Actor used as a gate (H1): a self-declared admin skips validation.
    if (c.req.header("gpt-actor") === "admin") return c.json({ id: "admin" });
    return c.body(null, 204);
  });
  app.post("/page", async (c) => {
    let value: unknown;
    try {
      value = await c.req.json();
    } catch {
      return c.body(null, 204);
    }
    if (validator.check(value) !== null) return c.body(null, 204);
    acted.push(value);
    return c.json({ id: String(acted.length) });
  });
  const served = await serveApp(app);
  return { ...served, acted };
}

/** A POST the recording example received. */
export interface ReceivedAct {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bytes: Uint8Array;
}

/** The example addresses behind a recorder of every POST's exact bytes and header fields. */
export async function serveRecordingExample(): Promise<Served & { readonly received: ReceivedAct[] }> {
  const store = new SqlitePageStore(new DatabaseSync(":memory:"));
  const example = createExampleApp(() => store);
  const received: ReceivedAct[] = [];
  const app = new Hono();
  app.all("*", async (c) => {
    if (c.req.method !== "POST") return example.fetch(c.req.raw);
    const bytes = new Uint8Array(await c.req.raw.arrayBuffer());
    received.push({ path: new URL(c.req.url).pathname, headers: Object.fromEntries(c.req.raw.headers), bytes });
    return example.fetch(new Request(c.req.raw.url, { method: "POST", headers: c.req.raw.headers, body: bytes }));
  });
  const served = await serveApp(app);
  return { ...served, received };
}

/** A request the fake model API received. */
export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly json: Record<string, unknown>;
}

/**
 * A loopback fake of a model API: answers each request with the next of `answers` (a fixture
 * file from `__fixtures__/` and a status), recording what was asked.
 */
export async function startFakeApi(
  answers: readonly { fixture: string; status?: number }[],
): Promise<Served & { readonly requests: FakeRequest[] }> {
  const requests: FakeRequest[] = [];
  const app = new Hono();
  app.all("*", async (c) => {
    const text = await c.req.text();
    requests.push({
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      headers: Object.fromEntries(c.req.raw.headers),
      json: text === "" ? {} : JSON.parse(text),
    });
    const answer = answers[Math.min(requests.length - 1, answers.length - 1)]!;
    const body = readFileSync(join(import.meta.dirname, "__fixtures__", answer.fixture), "utf8");
    return c.body(body, (answer.status ?? 200) as 200, { "content-type": "application/json" });
  });
  const served = await serveApp(app);
  return { ...served, requests };
}
