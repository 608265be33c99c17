/**
 * Discovery: the documents by which an agent finds a site's addresses without being told their
 * URLs, made from the same compiled forms the addresses serve (so they list exactly those):
 *
 * - `GET /.well-known/api-catalog`: an RFC 9727 API catalog, a linkset (RFC 9264,
 *   `application/linkset+json`) whose context is the catalog and whose `item` links are the
 *   addresses (`type: application/json`, the form's title) and, when there is one, the MCP door;
 * - `GET /llms.txt` (llmstxt.org): the same list in Markdown for a language model;
 * - `GET /.well-known/mcp/server-card.json`, with an MCP door: a server card in the shape of the
 *   MCP registry's `server.json` (`name`, `description`, `version`, `remotes` with the door's
 *   Streamable HTTP URL). Server cards are a draft (SEP-2127) whose path is still disputed; the
 *   catalog links the card too, so a client that starts from RFC 9727 finds it wherever it is.
 *
 * URLs are absolute, on `origin` when one is configured and on the request's own origin
 * otherwise (then the `Host` a client sent decides them: set `origin` on a public server).
 * Every document carries a strong `ETag` (a 304 for a matching `If-None-Match`),
 * `Cache-Control` and `Access-Control-Allow-Origin: *`.
 *
 * @module
 */
import { type Context, Hono } from "hono";
import { DEFAULT_CACHE_CONTROL } from "./arrival.ts";
import { matchesIfNoneMatch } from "./conditional.ts";
import type { CompiledForm } from "./form.ts";

/** One address a site serves: its path (`/page`) and its form. */
export interface DiscoveryAddress {
  readonly path: string;
  // biome-ignore lint/suspicious/noExplicitAny: any form, whatever its act type
  readonly form: CompiledForm<any>;
}

/** Options of {@link discovery}. */
export interface DiscoveryOptions {
  /** The addresses, in the order listed. */
  readonly addresses: ReadonlyArray<DiscoveryAddress>;
  /** The site's name (llms.txt's title; the card's `title`). Default `GPT addresses`. */
  readonly name?: string;
  /** One sentence on what the site offers (llms.txt's summary; the card's `description`). */
  readonly description?: string;
  /** The path of the site's MCP door (`mcp()`), to list and to describe in a server card. */
  readonly mcp?: string;
  /**
   * The public origin (`https://example.com`), or a function of the request's context giving it
   * (`null` or `undefined`: the request's own); default: the origin of each request.
   */
  readonly origin?: string | ((c: Context) => string | null | undefined);
  /** The server card's `version`. Default `1.0.0`. */
  readonly version?: string;
}

/** What a catalog says of one address, from its form. */
export interface DiscoveredAddress {
  readonly path: string;
  /** `s.title`, else the form's name. */
  readonly title: string;
  /** `s.description`, when the form has one. */
  readonly description?: string;
}

/** Title and description of each address, read from its arrival document once. */
export function describeAddresses(addresses: ReadonlyArray<DiscoveryAddress>): DiscoveredAddress[] {
  return addresses.map(({ path, form }) => {
    const { s } = JSON.parse(form.arrival) as { s?: { title?: unknown; description?: unknown } };
    const title = typeof s?.title === "string" && s.title !== "" ? s.title : form.name;
    const description = typeof s?.description === "string" && s.description !== "" ? s.description : undefined;
    return description === undefined ? { path, title } : { path, title, description };
  });
}

/** RFC 9727 §2: the well-known URI of an API catalog. */
export const API_CATALOG_PATH = "/.well-known/api-catalog";
/** llmstxt.org: the file at the root. */
export const LLMS_TXT_PATH = "/llms.txt";
/** The server card's path as SEP-2127 drafts named it. */
export const SERVER_CARD_PATH = "/.well-known/mcp/server-card.json";

/** The catalog (RFC 9264 §4.2 JSON linkset): one context, the catalog, with an `item` per API. */
export function apiCatalog(origin: string, addresses: ReadonlyArray<DiscoveredAddress>, mcp?: string): unknown {
  const item: Record<string, string>[] = addresses.map((address) => ({
    href: `${origin}${address.path}`,
    type: "application/json",
    title: address.title,
  }));
  if (mcp !== undefined) {
    item.push({
      href: `${origin}${mcp}`,
      type: "application/json",
      title: "MCP (Streamable HTTP): every address as a tool",
    });
    item.push({ href: `${origin}${SERVER_CARD_PATH}`, type: "application/json", title: "MCP server card" });
  }
  return { linkset: [{ anchor: `${origin}${API_CATALOG_PATH}`, item }] };
}

/** Markdown without the characters that would end a link text or start markup in one line. */
const inline = (text: string) => text.replace(/[\r\n]+/g, " ").replace(/[[\]]/g, "");

/** llms.txt: a title, a summary, then the addresses as a Markdown list of links. */
export function llmsTxt(
  origin: string,
  addresses: ReadonlyArray<DiscoveredAddress>,
  options: Pick<DiscoveryOptions, "name" | "description" | "mcp">,
): string {
  const lines = [
    `# ${inline(options.name ?? "GPT addresses")}`,
    "",
    `> ${inline(options.description ?? "GPT addresses: GET one for its form {p, m, s}, then POST one JSON value that s accepts.")}`,
    "",
    "Each address answers GET with a JSON object {p, m, s}: p says what it is, m holds example messages, s is the JSON Schema of what it accepts. POST one JSON value that s accepts (200 with JSON); any other body gets 204 with no content.",
    "",
    "## Addresses",
    "",
    ...addresses.map(
      (address) =>
        `- [${inline(address.title)}](${origin}${address.path})${address.description === undefined ? "" : `: ${inline(address.description)}`}`,
    ),
  ];
  if (options.mcp !== undefined)
    lines.push("", "## MCP", "", `- [Every address as an MCP tool](${origin}${options.mcp}): Streamable HTTP`);
  return `${lines.join("\n")}\n`;
}

/** The server card, in the shape of the MCP registry's `server.json`. */
export function serverCard(
  origin: string,
  options: Pick<DiscoveryOptions, "name" | "description" | "version"> & { readonly mcp: string },
): unknown {
  const host = new URL(origin).hostname;
  return {
    name: `${host.split(".").reverse().join(".")}/gpt-address`,
    title: options.name ?? "GPT addresses",
    description:
      options.description ?? "GPT addresses as MCP tools: one tool per address, its form as the input schema.",
    version: options.version ?? "1.0.0",
    remotes: [{ type: "streamable-http", url: `${origin}${options.mcp}` }],
  };
}

/** A strong entity-tag of `text`: SHA-256 of its UTF-8 bytes, base64url, quoted. */
async function strongEtag(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `"${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}"`;
}

/**
 * The discovery documents of a site as a Hono app, to mount at its root
 * (`app.route("/", discovery({ addresses, mcp: "/mcp" }))`).
 */
export function discovery(options: DiscoveryOptions): Hono {
  const addresses = describeAddresses(options.addresses);
  const app = new Hono();
  const serve = (path: string, contentType: string, render: (origin: string) => string) =>
    app.get(path, async (c) => {
      const configured = typeof options.origin === "function" ? options.origin(c) : options.origin;
      const origin = configured ?? new URL(c.req.url).origin;
      const text = render(origin);
      const etag = await strongEtag(text);
      const fields = {
        ETag: etag,
        "Cache-Control": DEFAULT_CACHE_CONTROL,
        "Access-Control-Allow-Origin": "*",
      };
      if (matchesIfNoneMatch(c.req.header("If-None-Match") ?? null, etag)) return c.body(null, 304, fields);
      return c.body(text, 200, { ...fields, "Content-Type": contentType });
    });
  serve(API_CATALOG_PATH, "application/linkset+json", (origin) =>
    JSON.stringify(apiCatalog(origin, addresses, options.mcp)),
  );
  serve(LLMS_TXT_PATH, "text/markdown; charset=utf-8", (origin) => llmsTxt(origin, addresses, options));
  const mcp = options.mcp;
  if (mcp !== undefined)
    serve(SERVER_CARD_PATH, "application/json", (origin) => JSON.stringify(serverCard(origin, { ...options, mcp })));
  return app;
}
