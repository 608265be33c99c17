/**
 * Discovery (issue 32 §4): the example's RFC 9727 catalog, llms.txt and MCP server card list
 * exactly the addresses it serves, and an agent that starts from the catalog reaches every form;
 * `discovery()` answers 304 to a matching `If-None-Match` and puts its URLs on a configured
 * origin whatever `Host` a client sends.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createExampleApp } from "../../examples/pages/app.ts";
import { forms } from "../../examples/pages/generated/forms.js";
import { MemoryPageStore } from "../../examples/pages/store.ts";
import { discovery } from "../../src/address/discovery.ts";

const store = new MemoryPageStore();
const app = createExampleApp(() => store);
const site = "http://127.0.0.1:8787";
const get = (path: string, init?: RequestInit) => app.request(`${site}${path}`, init);

interface Linkset {
  linkset: { anchor: string; item: { href: string; type: string; title: string }[] }[];
}

describe("discovery of the example's addresses", () => {
  it("the API catalog (RFC 9727) is a linkset of exactly the served addresses, the MCP door and its card", async () => {
    const response = await get("/.well-known/api-catalog");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/linkset+json");
    const { linkset } = (await response.json()) as Linkset;
    expect(linkset).toHaveLength(1);
    expect(linkset[0]?.anchor).toBe(`${site}/.well-known/api-catalog`);
    const hrefs = linkset[0]?.item.map((item) => item.href) ?? [];
    expect(hrefs.sort()).toEqual(
      [
        ...Object.keys(forms).map((name) => `${site}/${name}`),
        `${site}/mcp`,
        `${site}/.well-known/mcp/server-card.json`,
      ].sort(),
    );
  });

  it("an agent that starts from the catalog reaches every form: each address item GETs {p, m, s}", async () => {
    const { linkset } = (await (await get("/.well-known/api-catalog")).json()) as Linkset;
    const addresses = (linkset[0]?.item ?? []).filter((item) => !/\/(mcp|server-card\.json)$/.test(item.href));
    expect(addresses).toHaveLength(Object.keys(forms).length);
    for (const item of addresses) {
      const arrival = await app.request(item.href);
      expect(arrival.status, item.href).toBe(200);
      const body = (await arrival.json()) as { s: { title?: string } };
      expect(Object.keys(body)).toEqual(["p", "m", "s"]);
      expect(item.title).toBe(body.s.title ?? item.href.split("/").at(-1));
    }
  });

  it("llms.txt lists the same addresses as Markdown links, and the MCP door", async () => {
    const response = await get("/llms.txt");
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await response.text();
    expect(text).toMatch(/^# gpt-address example\n\n> /);
    const links = [...text.matchAll(/^- \[[^\]]+\]\((\S+)\)/gm)].map((match) => match[1]);
    expect(links.sort()).toEqual([...Object.keys(forms).map((name) => `${site}/${name}`), `${site}/mcp`].sort());
  });

  it("the MCP server card names the door's Streamable HTTP URL", async () => {
    const card = (await (await get("/.well-known/mcp/server-card.json")).json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      name: "1.0.0.127/gpt-address",
      remotes: [{ type: "streamable-http", url: `${site}/mcp` }],
    });
  });

  it("the index for people links the catalog and llms.txt", async () => {
    const html = await (await get("/", { headers: { accept: "text/html" } })).text();
    expect(html).toContain('href="/.well-known/api-catalog"');
    expect(html).toContain('href="/llms.txt"');
  });
});

describe("discovery()", () => {
  const site = new Hono().route(
    "/",
    discovery({ addresses: [{ path: "/feedback", form: forms.feedback }], origin: "https://addresses.example" }),
  );

  it("puts its URLs on the configured origin, whatever Host the request names", async () => {
    const text = await (await site.request("http://evil.test/llms.txt", { headers: { host: "evil.test" } })).text();
    expect(text).toContain("(https://addresses.example/feedback)");
    expect(text).not.toContain("evil.test");
  });

  it("answers 304 with no body to a matching If-None-Match, 200 to another (paired)", async () => {
    const first = await site.request("/.well-known/api-catalog");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toContain("public");
    const again = await site.request("/.well-known/api-catalog", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect((await site.request("/.well-known/api-catalog", { headers: { "if-none-match": '"other"' } })).status).toBe(
      200,
    );
  });

  it("serves no server card without an MCP door", async () => {
    expect((await site.request("/.well-known/mcp/server-card.json")).status).toBe(404);
  });
});
