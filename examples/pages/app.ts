/**
 * The example application: every form in `forms/` served as a GPT address at `/<name>` (the
 * page address, `forms/page.json`, at `/page`; `forms/feedback.json` at `/feedback`; …), the
 * stored pages for people at `/pages/:id`, a plain index at `/`, and every address again as an
 * MCP tool at `/mcp` (the same form, validator and act behind both doors). Every runtime entry
 * serves this app with its own {@link PageStore}.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { type AddressOptions, address } from "../../src/address/address.ts";
import { NO_SCRIPT_POLICY_FIELD } from "../../src/address/content-security-policy.ts";
import { discovery } from "../../src/address/discovery.ts";
import type { CompiledForm } from "../../src/address/form.ts";
import { prefersHtml } from "../../src/address/negotiate.ts";
import type { RateLimit } from "../../src/address/rate-limit.ts";
import { leavesBodyUnread } from "../../src/address/verification.ts";
import { type McpOptions, mcp } from "../../src/mcp/mcp.ts";
import type { AnyMcpAddress, McpAddress } from "../../src/mcp/tools.ts";
import type { Act as FeedbackAct } from "./generated/feedback.js";
import { forms } from "./generated/forms.js";
import { form, type Act as PageAct } from "./generated/page.js";
import { type IndexEntry, renderIndex } from "./index-page.ts";
import { type Operations, operations } from "./limits.ts";
import { reservedPathReason } from "./paths.ts";
import { renderPage } from "./render.ts";
import type { PageStore } from "./store.ts";

/** What a published page's act answers (R1). */
export interface Published {
  /** The page's id, a random UUID. */
  readonly id: string;
  /** Absolute URL of the page for people. */
  readonly url: string;
}

/** What the feedback address's act answers (R1): the act is acknowledged, nothing is stored. */
export interface FeedbackReceived {
  readonly received: true;
  /** The rating the act gave, 1 to 5. */
  readonly rating: number;
}

/**
 * What an address without an act of its own answers (R1): a form dropped into `forms/` is
 * served at `/<name>` and its valid acts are acknowledged, and nothing else happens, until the
 * app gives it an act (docs/contributing.md, "Adding an address to the example server").
 */
export interface Received {
  readonly received: true;
}

/** Ids are `crypto.randomUUID()` values; anything else is not a page. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** JSON Schema of {@link Published}, the page tool's `outputSchema`. */
const PUBLISHED_SCHEMA = {
  type: "object",
  required: ["id", "url"],
  properties: { id: { type: "string" }, url: { type: "string" } },
} as const;

/** JSON Schema of {@link FeedbackReceived}, the feedback tool's `outputSchema`. */
const FEEDBACK_RECEIVED_SCHEMA = {
  type: "object",
  required: ["received", "rating"],
  properties: { received: { const: true }, rating: { type: "integer" } },
} as const;

/** Options of {@link createExampleApp}. */
export interface ExampleOptions {
  /** Options of the MCP endpoint at `/mcp` (DNS-rebinding protection: loopback hosts by default). */
  readonly mcp?: McpOptions;
  /** The runtime's rate limits, shared by every address and both doors (docs/operations.md). None when absent. */
  readonly rateLimit?: RateLimit;
  /** Where log lines go and the counters they feed. Default: JSON lines on `console.log`. */
  readonly ops?: Operations;
  /** Whether `/metrics` serves the counters (Prometheus text), or a test per request. Default off. */
  readonly metrics?: boolean | ((c: Context) => boolean);
}

/**
 * Reads the `MCP_ALLOWED_HOSTS` setting: the host names a deployed example answers `/mcp` for
 * (comma-separated, `gpt.example.com,www.gpt.example.com`), as `McpOptions.allowedHosts`.
 * Unset or empty: `undefined`, the door's default (loopback names only), right for a server
 * on loopback; a public deployment must name its hosts or its `/mcp` answers 403.
 */
export function mcpAllowedHosts(value: string | undefined): string[] | undefined {
  const hosts = (value ?? "")
    .split(",")
    .map((host) => host.trim())
    .filter((host) => host !== "");
  return hosts.length === 0 ? undefined : hosts;
}

/**
 * Creates the example app.
 *
 * @param store - gives the page store for a request (for Workers KV, from `c.env`).
 * @param options - {@link ExampleOptions}.
 * @returns the Hono app; its `fetch` is the whole server.
 * @example
 * ```ts
 * export default createExampleApp((c) => new WorkersKvPageStore(c.env.PAGES));
 * ```
 */
export function createExampleApp(store: (c: Context) => PageStore, options: ExampleOptions = {}): Hono {
  const app = new Hono();
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
  app.notFound(function notFound(c) {
    const answer = c.text("404 Not Found", 404);
    if (leavesBodyUnread(c.req.raw, c.env)) answer.headers.set("Connection", "close");
    return answer;
  });
  const index = renderIndex(Object.values(forms as Record<string, CompiledForm>).map(indexEntry));
  const ops = options.ops ?? operations();
  const { rateLimit } = options;

  app.get("/", function listing(c) {
    if (prefersHtml(c.req.header("accept") ?? null)) {
      return new Response(index, {
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Content-Security-Policy": NO_SCRIPT_POLICY_FIELD,
          "X-Content-Type-Options": "nosniff",
          Vary: "Accept",
        },
      });
    }
    const lines = Object.keys(forms).map((name) => {
      const here = new URL(`/${name}`, c.req.url).href;
      const what =
        name === "page"
          ? "publishes a page of rich text. GET it for the form; POST a page to publish it."
          : "GET it for the form; POST an act that validates against it.";
      return `${here}\n  ${what}\n`;
    });
    const tools = `${new URL("/mcp", c.req.url).href}\n  the same addresses as MCP tools (Streamable HTTP).\n\nFor agents: ${new URL("/.well-known/api-catalog", c.req.url).href} (RFC 9727), ${new URL("/llms.txt", c.req.url).href}.\n`;
    c.header("Vary", "Accept");
    return c.text(`GPT addresses on this server:\n\n${lines.join("\n")}\n${tools}`);
  });

  // Each address once: its options serve the HTTP door at /<name>, and are its tool at /mcp.
  function serve<Act>(options: AddressOptions<Act> & McpAddress<Act>): AnyMcpAddress {
    const reserved = reservedPathReason(options.form.name);
    if (reserved !== null) throw new Error(`createExampleApp(): the form "${options.form.name}": ${reserved}`);
    app.route(`/${options.form.name}`, address({ rateLimit, onLog: ops.onLog, ...options }));
    return options;
  }
  const tools = [
    serve<PageAct>({
      form,
      gptType: "page",
      outputSchema: PUBLISHED_SCHEMA,
      async act(page, { c }): Promise<Published> {
        const id = crypto.randomUUID();
        await store(c).put(id, renderPage(page));
        return { id, url: new URL(`/pages/${id}`, c.req.url).href };
      },
    }),
    serve<FeedbackAct>({
      form: forms.feedback,
      gptType: "feedback",
      outputSchema: FEEDBACK_RECEIVED_SCHEMA,
      act: (feedback): FeedbackReceived => ({ received: true, rating: feedback.rating }),
    }),
  ];
  // Every other form in forms/ on its own path: served, checked and acknowledged, no more.
  for (const [name, other] of Object.entries(forms) as [string, CompiledForm][]) {
    if (name === "page" || name === "feedback") continue;
    tools.push(serve({ form: other, gptType: name, act: (): Received => ({ received: true }) }));
  }
  app.all(
    "/mcp",
    mcp(tools, {
      name: "gpt-address-example",
      title: "gpt-address example",
      instructions:
        "Each tool is a GPT address of this server. Call it with arguments that validate against its inputSchema: arguments that do not are refused and nothing is done.",
      // The same budget per client as the HTTP door, and the same log.
      rateLimit,
      onLog: ops.onLog,
      ...options.mcp,
    }),
  );

  // For agents: an RFC 9727 catalog, llms.txt and an MCP server card, listing exactly the
  // addresses above (src/address/discovery.ts).
  app.route(
    "/",
    discovery({
      addresses: tools.map((tool) => ({ path: `/${tool.form.name}`, form: tool.form })),
      name: "gpt-address example",
      description: "The example addresses of gpt-address: publish a page of rich text, or leave feedback.",
      mcp: "/mcp",
    }),
  );

  const metrics = options.metrics ?? false;
  if (metrics !== false) {
    app.get("/metrics", function counters(c) {
      if (metrics !== true && !metrics(c)) return c.text("Not Found", 404);
      return c.text(ops.counters.prometheus(), 200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" });
    });
  }

  app.get("/pages/:id", async function storedPage(c) {
    const id = c.req.param("id");
    const html = UUID.test(id) ? await store(c).get(id) : null;
    if (html === null) return c.text("No page here.\n", 404);
    return new Response(html, {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": NO_SCRIPT_POLICY_FIELD,
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "public, max-age=3600",
      },
    });
  });

  return app;
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
