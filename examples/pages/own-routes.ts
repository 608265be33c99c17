/**
 * The example server's own routes, beside its doors: the index at `/`, the stored pages at
 * `/pages/:id`, the counters at `/metrics` (`./metrics.ts`), the 404 of any other path, and the
 * answer to an error. Each request to them counts against the client's arrival budget as a
 * door's GET does (429 with `Retry-After` past it), a cached copy is revalidated by its `ETag`
 * (304), a body sent to them is never read, and an error is a 500 with no body: no stack, no
 * path.
 *
 * @module
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import type { ActLogEntry } from "../../src/address/act-log.ts";
import { admitRate, emitLog } from "../../src/address/admission.ts";
import { matchesIfNoneMatch } from "../../src/address/conditional.ts";
import { NO_SCRIPT_POLICY_FIELD } from "../../src/address/content-security-policy.ts";
import type { CompiledForm } from "../../src/address/form.ts";
import { prefersHtml } from "../../src/address/negotiate.ts";
import type { RateLimit } from "../../src/address/rate-limit.ts";
import { leavesBodyUnread } from "../../src/address/verification.ts";
import { forms } from "./generated/forms.js";
import { type IndexEntry, renderIndex } from "./index-page.ts";
import type { PageStore } from "./store.ts";

/** Ids are `crypto.randomUUID()` values; anything else is not a page. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What the own routes need of the app. */
export interface OwnRoutesOptions {
  readonly store: (c: Context) => PageStore;
  readonly rateLimit: RateLimit | undefined;
  readonly onLog: (entry: ActLogEntry) => void;
  /** The origin of the URLs in the text index; `null` when the request's cannot be parsed. */
  readonly originFor: (c: Context) => string | null;
  /** Answers `/metrics`. */
  readonly metrics: (c: Context) => Response | Promise<Response>;
}

/** Registers the own routes on `app`, before its doors. */
export function ownRoutes(app: Hono, options: OwnRoutesOptions): void {
  const { store, rateLimit, onLog, originFor } = options;
  // The routes other than the doors never read a body: one sent to them (a GET of the index
  // with 4 GiB declared, a POST to a path that is not there) is discarded and closes the
  // connection as the doors' own refusals do, or Node would read all of it after the answer.
  // Only on those routes: the doors (a form's path, /mcp) decide for themselves, and a
  // middleware on every path cost their GETs about a tenth of workerd's throughput.
  const unreadBodies: MiddlewareHandler = async function unreadBodies(c, next) {
    await next();
    if (leavesBodyUnread(c.req.raw, c.env)) c.res.headers.set("Connection", "close");
  };
  for (const path of ["/", "/metrics", "/pages/*"]) app.use(path, unreadBodies);

  /**
   * Counts the request against the client's arrival budget: `null` when it may go on, else
   * the 429, logged under `name` (`index`, `pages`, `metrics`, `not-found`).
   */
  const counted = new WeakSet<Request>();
  async function overBudget(c: Context, name: string): Promise<Response | null> {
    // Once per request: a POST to / passes the index's budget, then is a 404.
    if (counted.has(c.req.raw)) return null;
    counted.add(c.req.raw);
    const started = Date.now();
    const limited = admitRate(c, "arrival", rateLimit, name);
    const refused = limited === null ? null : await limited;
    if (refused === null || refused.status !== 429) return null;
    const request = c.req.raw;
    const { method } = request;
    const actor = request.headers.get("gpt-actor");
    emitLog(onLog, {
      started,
      address: name,
      door: "http",
      method,
      status: 429,
      code: refused.code,
      bytes: null,
      actor,
    });
    return new Response(null, {
      status: 429,
      headers: { "Retry-After": String(refused.retryAfterSeconds), "Content-Length": "0", "Cache-Control": "no-store" },
    });
  }
  const budget = (name: string): MiddlewareHandler =>
    async function arrivalBudget(c, next) {
      const refused = await overBudget(c, name);
      if (refused !== null) return refused;
      await next();
    };
  app.use("/", budget("index"));
  app.use("/pages/*", budget("pages"));
  app.use("/metrics", budget("metrics"));
  app.use("/.well-known/*", budget("discovery"));
  app.use("/llms.txt", budget("discovery"));

  app.notFound(async function notFound(c) {
    const answer = (await overBudget(c, "not-found")) ?? c.text("404 Not Found", 404);
    if (leavesBodyUnread(c.req.raw, c.env)) answer.headers.set("Connection", "close");
    return answer;
  });
  app.onError(function fault(error, c) {
    console.error("gpt-address example: a request failed", error);
    const headers: Record<string, string> = { "Content-Length": "0", "Cache-Control": "no-store" };
    if (leavesBodyUnread(c.req.raw, c.env)) headers.Connection = "close";
    return new Response(null, { status: 500, headers });
  });

  const index = renderIndex(Object.values(forms as Record<string, CompiledForm>).map(indexEntry));
  app.get("/", async function listing(c) {
    const html = prefersHtml(c.req.header("accept") ?? null);
    let body = index;
    if (!html) {
      const origin = originFor(c);
      if (origin === null) return new Response(null, { status: 400, headers: { "Content-Length": "0" } });
      body = textIndex(origin);
    }
    const headers: Record<string, string> = html
      ? {
          "Content-Type": "text/html; charset=utf-8",
          "Content-Security-Policy": NO_SCRIPT_POLICY_FIELD,
          "X-Content-Type-Options": "nosniff",
        }
      : { "Content-Type": "text/plain; charset=UTF-8" };
    headers.Vary = "Accept";
    headers.ETag = await etagOf(body);
    if (matchesIfNoneMatch(c.req.header("if-none-match") ?? null, headers.ETag)) {
      return new Response(null, { status: 304, headers: { ETag: headers.ETag, Vary: "Accept" } });
    }
    return new Response(body, { headers });
  });

  app.get("/metrics", (c) => options.metrics(c));

  app.get("/pages/:id", async function storedPage(c) {
    const id = c.req.param("id");
    const html = UUID.test(id) ? await store(c).get(id) : null;
    if (html === null) return c.text("No page here.\n", 404);
    // A page never changes under its id (each act stores a new one), so the id is its tag.
    const cached = { ETag: `"${id}"`, "Cache-Control": "public, max-age=3600" };
    if (matchesIfNoneMatch(c.req.header("if-none-match") ?? null, cached.ETag)) {
      return new Response(null, { status: 304, headers: cached });
    }
    return new Response(html, {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": NO_SCRIPT_POLICY_FIELD,
        "X-Content-Type-Options": "nosniff",
        ...cached,
      },
    });
  });
}

/** The index for programs: each address's URL at `origin` and what to do there. */
function textIndex(origin: string): string {
  const lines = Object.keys(forms).map((name) => {
    const what =
      name === "page"
        ? "publishes a page of rich text. GET it for the form; POST a page to publish it."
        : "GET it for the form; POST an act that validates against it.";
    return `${origin}/${name}\n  ${what}\n`;
  });
  const tools = `${origin}/mcp\n  the same addresses as MCP tools (Streamable HTTP).\n`;
  return `GPT addresses on this server:\n\n${lines.join("\n")}\n${tools}`;
}

/** Tags of the index's texts, the last 8 (the HTML one, the text one for a few origins). */
const etags = new Map<string, Promise<string>>();

/** A strong entity-tag of `text`: its SHA-256 in base64url, quoted. */
function etagOf(text: string): Promise<string> {
  let tag = etags.get(text);
  if (tag === undefined) {
    tag = crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then((digest) => {
      const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
      return `"${base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}"`;
    });
    if (etags.size >= 8) etags.delete(etags.keys().next().value!);
    etags.set(text, tag);
  }
  return tag;
}

/** The index line of a form: its path, and `s.title` and `s.description` from its arrival. */
function indexEntry(form: CompiledForm): IndexEntry {
  const { s } = JSON.parse(form.arrival) as { s: { title?: unknown; description?: unknown } };
  return {
    path: `/${form.name}`,
    title: typeof s.title === "string" ? s.title : form.name,
    ...(typeof s.description === "string" ? { description: s.description } : {}),
  };
}
