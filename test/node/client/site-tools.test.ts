/**
 * Tools from a site (issue 32 §4): `contactAddresses(site)` and each adapter's
 * `addressTools(site)` start from the site's API catalog (RFC 9727) and keep exactly the items
 * that are GPT addresses: the example's page and feedback, not its MCP door or server card.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forms } from "../../../examples/pages/generated/forms.js";
import { addressTools as aiTools } from "../../../src/ai/index.ts";
import { catalogItems, contactAddresses } from "../../../src/client/address-tool.ts";
import { addressTools as langchainTools } from "../../../src/langchain/index.ts";
import { addressTools as agentsTools } from "../../../src/openai-agents/index.ts";
import { type Served, serveExampleBehind } from "./servers.ts";

let server: Served;
beforeAll(async () => {
  server = await serveExampleBehind((request, forward) => forward(request));
});
afterAll(async () => {
  await server?.close();
});

describe("tools from a site's API catalog", () => {
  it("the catalog lists the addresses, the MCP door and its card; contactAddresses keeps the addresses only", async () => {
    const items = await catalogItems(server.url, { fetch: (request) => fetch(request) });
    expect(items).toContain(`${server.url}/mcp`);
    const addresses = await contactAddresses(server.url, { cache: new Map() });
    expect(addresses.map((address) => address.url).sort()).toEqual(
      Object.keys(forms)
        .map((name) => `${server.url}/${name}`)
        .sort(),
    );
  });

  it("each adapter's addressTools(site) makes one tool per address; a list of URLs still works (paired)", async () => {
    const names = Object.keys(forms).sort();
    expect(Object.keys(await aiTools(server.url, { cache: new Map() })).sort()).toHaveLength(names.length);
    expect((await langchainTools(server.url, { cache: new Map() })).map((tool) => tool.name).sort()).toHaveLength(
      names.length,
    );
    expect((await agentsTools(server.url, { cache: new Map() })).map((tool) => tool.name)).toHaveLength(names.length);
    expect(Object.keys(await aiTools([`${server.url}/feedback`], { cache: new Map() }))).toEqual(["feedback"]);
  });

  it("a site without a catalog is an error that says so; a listed URL that is no address still throws", async () => {
    await expect(contactAddresses("http://127.0.0.1:9/")).rejects.toThrow(/no API catalog/);
    await expect(contactAddresses([`${server.url}/mcp`])).rejects.toThrow(/GET .* answered/);
  });

  it("a URL that is not absolute http(s) (a typo, a relative path) is a TypeError naming it, for every adapter, before anything is fetched (it was 'could not be reached')", async () => {
    let fetched = 0;
    const options = {
      cache: new Map(),
      fetch: (request: Request) => {
        fetched++;
        return fetch(request);
      },
    };
    for (const make of [aiTools, langchainTools, agentsTools]) {
      for (const url of ["127.0.0.1/feedback", "/feedback", "ftp://example.org/feedback"]) {
        await expect(make([url], options)).rejects.toThrow(
          new TypeError(
            `${JSON.stringify(url)} is not the absolute http: or https: URL of a GPT address (such as https://example.org/feedback)`,
          ),
        );
      }
      await expect(make("example.org", options)).rejects.toThrow(
        new TypeError(
          '"example.org" is not the absolute http: or https: URL of a site (such as https://example.org), or a list of addresses',
        ),
      );
    }
    expect(fetched).toBe(0);
  });
});
