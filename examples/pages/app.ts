/**
 * The example application: every form in `forms/` served as a GPT address at `/<name>` (the
 * page address, `forms/page.json`, at `/page`; `forms/feedback.json` at `/feedback`;
 * `forms/render.json` at `/render`, whose act takes seconds and is offered as a run when the
 * entry gives the app a run store (docs/runs.md); …), the stored pages for people at `/pages/:id`, a plain index at `/`, the counters at `/metrics`
 * (with a token), and every address again as an MCP tool at `/mcp` (the same form, validator
 * and act behind both doors). Every runtime entry serves this app with its own
 * {@link PageStore}. The example's own routes and its 404s count against the client's arrival
 * budget as the doors' GETs do; an error in them is a 500 with no body (docs/operations.md).
 *
 * @module
 */

import type { Context } from "hono";
import { Hono } from "hono";
import { ActDeclined } from "../../src/address/act.ts";
import { type AddressOptions, address } from "../../src/address/address.ts";
import { discovery } from "../../src/address/discovery.ts";
import type { CompiledForm } from "../../src/address/form.ts";
import type { RateLimit } from "../../src/address/rate-limit.ts";
import { type McpOptions, mcp } from "../../src/mcp/mcp.ts";
import type { AnyMcpAddress, McpAddress } from "../../src/mcp/tools.ts";
import type { RunStore } from "../../src/run/run.ts";
import type { Act as FeedbackAct } from "./generated/feedback.js";
import { forms } from "./generated/forms.js";
import { form, type Act as PageAct } from "./generated/page.js";
import type { Act as RenderAct } from "./generated/render.js";
import { type Operations, operations } from "./limits.ts";
import { metricsAnswer } from "./metrics.ts";
import { ownRoutes } from "./own-routes.ts";
import { reservedPathReason } from "./paths.ts";
import { originOf, publicOrigin } from "./public-origin.ts";
import { type PageDocument, renderPage } from "./render.ts";
import {
  DEFAULT_RENDER_SETTINGS,
  RenderCounters,
  type RenderSettings,
  renderDocument,
  renderSettings,
} from "./render-document.ts";
import { PageQuotaExceeded, type PageStore, PageTooLarge } from "./store.ts";

/** What a published page's act answers (R1). */
export interface Published {
  /** The page's id, a random UUID. */
  readonly id: string;
  /** Absolute URL of the page for people. */
  readonly url: string;
}

/** What the render address's act answers (R1): the document, published as a page. */
export interface Rendered extends Published {
  /** The document's number of pages, as the act asked. */
  readonly pages: number;
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
 * app gives it an act (README, "Add an address").
 */
export interface Received {
  readonly received: true;
}

/** JSON Schema of {@link Published}, the page tool's `outputSchema`. */
const PUBLISHED_SCHEMA = {
  type: "object",
  required: ["id", "url"],
  properties: { id: { type: "string" }, url: { type: "string" } },
} as const;

/** JSON Schema of {@link Rendered}, the render tool's `outputSchema`. */
const RENDERED_SCHEMA = {
  type: "object",
  required: ["id", "url", "pages"],
  properties: { id: { type: "string" }, url: { type: "string" }, pages: { type: "integer" } },
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
  /**
   * The token `/metrics` asks for (`Authorization: Bearer <token>`, `METRICS_TOKEN`), or a
   * function giving it per request (from `c.env` on Workers). Without one, `/metrics` is 404.
   */
  readonly metricsToken?: string | ((c: Context) => string | undefined);
  /**
   * The origin of the URLs the app answers with (the act's `url`, the text index;
   * `PUBLIC_ORIGIN`, read by `publicOrigin()`), or a function giving it per request. Without
   * one they are built from the request's URL, that is from its `Host` field as the client
   * wrote it.
   */
  readonly publicOrigin?: string | ((c: Context) => string | undefined);
  /**
   * Where the render address keeps its runs (docs/runs.md), or a function giving the store per
   * request (on Workers, from `c.env`). With one, an act of `/render` sent with `Prefer:
   * respond-async` is answered 202 with its run URL, on both doors; without one, every act is
   * answered when its document is done.
   */
  readonly runs?: RunStore | ((c: Context) => RunStore);
  /** How the render address works (`RENDER_PAGE_MS`). Default {@link DEFAULT_RENDER_SETTINGS}. */
  readonly render?: RenderSettings;
  /** Counts the renderings for `/metrics`. Default: counters of the app's own. */
  readonly renders?: RenderCounters;
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
 * The options every entry reads from its settings, by `setting(name)`: `METRICS_TOKEN`,
 * `PUBLIC_ORIGIN`, `MCP_ALLOWED_HOSTS` and `RENDER_PAGE_MS`.
 *
 * @throws {RangeError} for a `PUBLIC_ORIGIN` that is not an origin or a `RENDER_PAGE_MS` that is
 *   no time, naming it.
 */
export function exampleSettings(
  setting: (name: string) => string | undefined,
): Pick<ExampleOptions, "metricsToken" | "publicOrigin" | "mcp" | "render"> {
  return {
    metricsToken: setting("METRICS_TOKEN"),
    publicOrigin: publicOrigin(setting("PUBLIC_ORIGIN")),
    mcp: { allowedHosts: mcpAllowedHosts(setting("MCP_ALLOWED_HOSTS")) },
    render: renderSettings(setting),
  };
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
  const ops = options.ops ?? operations();
  const { rateLimit } = options;
  const configured = (value: string | ((c: Context) => string | undefined) | undefined, c: Context) =>
    typeof value === "function" ? value(c) : value;
  const originFor = (c: Context) => originOf(c, configured(options.publicOrigin, c));
  const renders = options.renders ?? new RenderCounters();
  const renderAs = options.render ?? DEFAULT_RENDER_SETTINGS;
  ownRoutes(app, {
    store,
    rateLimit,
    onLog: ops.onLog,
    originFor,
    metrics: (c) => metricsAnswer(c, [ops.counters, renders], configured(options.metricsToken, c)),
  });

  /**
   * Publishes `page` in the page store under a new id.
   *
   * @throws {ActDeclined} 400 for a request whose URL cannot be parsed, 413 for a page too
   *   large, 503 with `Retry-After` when the store holds its quota.
   */
  async function publish(c: Context, page: PageDocument): Promise<Published> {
    const origin = originFor(c);
    if (origin === null) throw new ActDeclined(400, { message: "the request's URL (its Host) cannot be parsed" });
    const id = crypto.randomUUID();
    try {
      await store(c).put(id, renderPage(page));
    } catch (error) {
      if (error instanceof PageTooLarge) throw new ActDeclined(413, { message: error.message, cause: error });
      if (error instanceof PageQuotaExceeded) {
        throw new ActDeclined(503, {
          retryAfterSeconds: error.retryAfterSeconds,
          message: error.message,
          cause: error,
        });
      }
      throw error;
    }
    return { id, url: `${origin}/pages/${id}` };
  }

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
      act: (page, { c }) => publish(c, page),
    }),
    serve<FeedbackAct>({
      form: forms.feedback,
      gptType: "feedback",
      outputSchema: FEEDBACK_RECEIVED_SCHEMA,
      act: (feedback): FeedbackReceived => ({ received: true, rating: feedback.rating }),
    }),
    serve<RenderAct>({
      form: forms.render,
      gptType: "render",
      outputSchema: RENDERED_SCHEMA,
      act: (value, context): Promise<Rendered> =>
        renders.count(context.signal, async () => {
          const document = await renderDocument(value, context, renderAs);
          return { ...(await publish(context.c, document)), pages: value.pages };
        }),
      ...(options.runs === undefined ? {} : { runs: { store: options.runs } }),
    }),
  ];
  // Every other form in forms/ on its own path: served, checked and acknowledged, no more.
  for (const [name, other] of Object.entries(forms) as [string, CompiledForm][]) {
    if (name === "page" || name === "feedback" || name === "render") continue;
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
  // addresses above (src/address/discovery.ts), on the same origin as the act's URLs.
  app.route(
    "/",
    discovery({
      addresses: tools.map((tool) => ({ path: `/${tool.form.name}`, form: tool.form })),
      name: "gpt-address example",
      description:
        "The example addresses of gpt-address: publish a page of rich text, render a long document (an act that takes seconds), or leave feedback.",
      mcp: "/mcp",
      origin: originFor,
    }),
  );

  return app;
}
