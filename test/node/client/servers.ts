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
import { getProfile } from "../../../src/lint/actors/index.ts";
import { actorRows } from "../../../src/lint/actors/table.ts";

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

/** A schema a request hands to the model's constrained decoder, and where. */
interface SentSchema {
  readonly field: string;
  readonly schema: unknown;
}

type Fields = Record<string, unknown>;
const asFields = (value: unknown): Fields => (typeof value === "object" && value !== null ? (value as Fields) : {});

/**
 * The schemas of a request that the API compiles into a grammar, and the linter profile whose
 * published rules it applies to them: OpenAI's strict `response_format`, `text.format` and
 * function tools (Chat Completions and Responses), Anthropic's `output_config.format` and strict
 * tools, Gemini's `responseJsonSchema`, Ollama's `format`. A non-strict schema is not judged (the
 * API takes any).
 */
export function sentSchemas(path: string, json: Fields): { profile: string; schemas: SentSchema[] } | undefined {
  const schemas: SentSchema[] = [];
  if (path.endsWith("/chat/completions") || path.endsWith("/responses")) {
    const format = asFields(json.response_format);
    const chatSchema = asFields(format.json_schema);
    if (chatSchema.strict === true) schemas.push({ field: "response_format", schema: chatSchema.schema });
    const textFormat = asFields(asFields(json.text).format);
    if (textFormat.strict === true) schemas.push({ field: "text.format", schema: textFormat.schema });
    for (const [i, tool] of (Array.isArray(json.tools) ? json.tools : []).entries()) {
      const fn = asFields(asFields(tool).function ?? tool);
      if (fn.strict === true) schemas.push({ field: `tools[${i}]`, schema: fn.parameters });
    }
    return { profile: "openai-strict", schemas };
  }
  if (path.endsWith("/v1/messages")) {
    const format = asFields(asFields(json.output_config).format);
    if (format.schema !== undefined) schemas.push({ field: "output_config.format.schema", schema: format.schema });
    for (const [i, tool] of (Array.isArray(json.tools) ? json.tools : []).entries()) {
      if (asFields(tool).strict === true)
        schemas.push({ field: `tools.${i}.input_schema`, schema: asFields(tool).input_schema });
    }
    return { profile: "anthropic-strict", schemas };
  }
  if (path.endsWith(":generateContent")) {
    const config = asFields(json.generationConfig);
    if (config.responseJsonSchema !== undefined) {
      schemas.push({ field: "generationConfig.responseJsonSchema", schema: config.responseJsonSchema });
    }
    return { profile: "gemini-json-schema", schemas };
  }
  if (path === "/api/chat" || path === "/api/generate") {
    if (typeof json.format === "object" && json.format !== null) schemas.push({ field: "format", schema: json.format });
    return { profile: "ollama", schemas };
  }
  return undefined;
}

/**
 * The reason the actor's published rules refuse one of the request's schemas (its linter
 * profile's verdict "rejected"), or `undefined` when it takes them all.
 */
export function refusal(path: string, json: Fields): string | undefined {
  const sent = sentSchemas(path, json);
  if (sent === undefined) return undefined;
  const profile = getProfile(sent.profile);
  for (const { field, schema } of sent.schemas) {
    const [row] = actorRows([profile], schema);
    if (row?.verdict === "rejected") return `Invalid schema in ${field}: ${row.rejected.join("; ")}`;
  }
  return undefined;
}

/** The 400 each API answers for a schema it refuses, in that API's own error shape. */
function refusalBody(path: string, message: string): unknown {
  if (path.endsWith("/v1/messages")) {
    return { type: "error", error: { type: "invalid_request_error", message } };
  }
  if (path.endsWith(":generateContent")) return { error: { code: 400, message, status: "INVALID_ARGUMENT" } };
  if (path.startsWith("/api/")) return { error: message };
  return { error: { message, type: "invalid_request_error", param: null, code: "invalid_json_schema" } };
}

/**
 * A loopback fake of a model API: answers each request with the next of `answers` (a fixture
 * file from `__fixtures__/` and a status), recording what was asked. Like the real API, it first
 * refuses (400, in the API's error shape) a request whose schema the actor's published rules
 * refuse: the linter profile of that API judges every schema the request hands to the decoder.
 */
export async function startFakeApi(
  answers: readonly { fixture: string; status?: number }[],
): Promise<Served & { readonly requests: FakeRequest[]; readonly refused: string[] }> {
  const requests: FakeRequest[] = [];
  const refused: string[] = [];
  const app = new Hono();
  app.all("*", async (c) => {
    const text = await c.req.text();
    const path = new URL(c.req.url).pathname;
    const json = text === "" ? {} : JSON.parse(text);
    requests.push({ method: c.req.method, path, headers: Object.fromEntries(c.req.raw.headers), json });
    const reason = refusal(path, json);
    if (reason !== undefined) {
      refused.push(reason);
      return c.json(refusalBody(path, reason), 400);
    }
    const answer = answers[Math.min(requests.length - refused.length - 1, answers.length - 1)]!;
    const body = readFileSync(join(import.meta.dirname, "__fixtures__", answer.fixture), "utf8");
    return c.body(body, (answer.status ?? 200) as 200, { "content-type": "application/json" });
  });
  const served = await serveApp(app);
  return { ...served, requests, refused };
}

/** What a {@link serveExampleBehind} hook may do with a request before the example sees it. */
export type Hook = (request: Request, forward: (request: Request) => Promise<Response>) => Promise<Response>;

/**
 * The example addresses behind `hook`, which sees each request first and may answer it itself
 * (an older form, a 429) or forward it; every request is counted by method and path.
 */
export async function serveExampleBehind(hook: Hook): Promise<Served & { readonly seen: string[] }> {
  const store = new SqlitePageStore(new DatabaseSync(":memory:"));
  const example = createExampleApp(() => store);
  const seen: string[] = [];
  const forward = async (request: Request) => example.fetch(request);
  const served = await serveApp({
    fetch: (request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      return hook(request, forward);
    },
  });
  return { ...served, seen };
}

/**
 * A hook that serves the first arrival of `path` as an older version of its form (another `p`
 * and entity-tag `"older"`), then the current one: an act written against the first is pinned
 * to a form the address no longer serves, and the address answers it 412.
 */
export function olderFormFirst(path: string): Hook {
  let served = false;
  return async (request, forward) => {
    const response = await forward(request);
    if (served || request.method !== "GET" || new URL(request.url).pathname !== path) return response;
    served = true;
    const document = (await response.json()) as { p: string };
    const older = { ...document, p: `${document.p} (an older version of this form)` };
    return new Response(JSON.stringify(older), {
      headers: { "content-type": "application/json", etag: '"older"', "cache-control": "no-cache" },
    });
  };
}
