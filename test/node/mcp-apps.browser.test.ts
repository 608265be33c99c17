/**
 * The page inside a chat client (issue 14 §5, MCP Apps), in Chromium from npm: a test page
 * acting as the host (`mcp-apps/host.ts`) uses the package's own host-side bridge
 * (`@modelcontextprotocol/ext-apps/app-bridge` 2.0.4) and the official v2 client to read the
 * tool's UI resource from the example's MCP door and load it into a sandboxed iframe. A person
 * fills the form there; the page cannot fetch, so it asks the host to call the tool, the host
 * relays the `tools/call` to `/mcp`, and the act's 200 result is shown in the page. An invalid
 * value is shown at its field and never becomes a `tools/call` (V3: the door's own validator
 * still decides what acts).
 */
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { build } from "esbuild";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createExampleApp } from "../../examples/pages/app.ts";
import { MemoryPageStore } from "../../examples/pages/store.ts";
import { launchChromium } from "./chromium.ts";

let server: ServerType;
let browser: Browser;
let base: string;
/** The JSON-RPC requests that reached `/mcp`: `method` and, for a call, the tool and arguments. */
const calls: { method: string; name?: string; arguments?: unknown }[] = [];
/** Every POST that reached the server, by path. */
const posts: string[] = [];

const HOST_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>test host</title>
<script type="module" src="/host.js"></script></head><body><h1>test host</h1></body></html>`;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [new URL("./mcp-apps/host.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "error",
  });
  const hostJs = bundle.outputFiles[0]!.text;
  const store = new MemoryPageStore();
  const app = createExampleApp(() => store);
  server = await new Promise<ServerType>((resolve) => {
    const started = serve(
      {
        fetch: async (request: Request) => {
          const { pathname } = new URL(request.url);
          if (pathname === "/host") return new Response(HOST_HTML, { headers: { "content-type": "text/html" } });
          if (pathname === "/host.js") return new Response(hostJs, { headers: { "content-type": "text/javascript" } });
          if (request.method === "POST") {
            posts.push(pathname);
            if (pathname === "/mcp") {
              const message = JSON.parse(await request.clone().text());
              calls.push({ method: message.method, name: message.params?.name, arguments: message.params?.arguments });
            }
          }
          return app.fetch(request);
        },
        hostname: "127.0.0.1",
        port: 0,
      },
      () => resolve(started),
    );
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(() => {
  calls.length = 0;
  posts.length = 0;
});

/** Opens the host for a tool; fails on any script error in the host or the page. */
async function openHost(tool: string): Promise<{ page: Page; app: FrameLocator; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    // The v2 client tries the optional GET stream once; the stateless door answers 405 (docs/mcp.md).
    const get405 = message.text().includes("status of 405") && message.location().url.endsWith("/mcp");
    if (message.type() === "error" && !get405) problems.push(message.text());
  });
  await page.goto(`${base}/host?tool=${tool}`);
  const app = page.frameLocator("iframe");
  await app.getByRole("button", { name: "Submit" }).waitFor({ timeout: 15_000 });
  await expect.poll(() => hostLog(page)).toContainEqual({ event: "initialized" });
  return { page, app, problems };
}

const hostLog = (page: Page) => page.evaluate(() => (globalThis as unknown as { hostLog: unknown[] }).hostLog);
const toolCalls = () => calls.filter((call) => call.method === "tools/call");

describe("issue 14 §5: the page as an MCP App", () => {
  it("V3 the host reads ui://feedback/form, the person fills it, the host relays tools/call, the act's 200 result is shown", async () => {
    const { page, app, problems } = await openHost("feedback");
    expect(await hostLog(page)).toContainEqual({ uri: "ui://feedback/form", mimeType: "text/html;profile=mcp-app" });
    expect(calls.map((call) => call.method)).toEqual(
      expect.arrayContaining(["initialize", "tools/list", "resources/read"]),
    );
    // The page runs sandboxed: an opaque origin, no fetch of its own.
    expect(await app.locator("html").evaluate(() => (globalThis as unknown as { origin: string }).origin)).toBe("null");
    await app.getByRole("spinbutton", { name: /^rating/ }).fill("4");
    await app.getByRole("combobox", { name: /^topic/ }).selectOption("documentation");
    await app.getByRole("button", { name: "Submit" }).click();
    const status = app.getByRole("status");
    await status.filter({ hasText: "Accepted." }).waitFor({ timeout: 10_000 });
    expect(JSON.parse((await status.locator("pre").textContent()) ?? "")).toEqual({ received: true, rating: 4 });
    expect(toolCalls()).toEqual([
      { method: "tools/call", name: "feedback", arguments: { rating: 4, topic: "documentation" } },
    ]);
    // Nothing but the MCP door was posted to: the value entered by its strict path.
    expect(posts.every((path) => path === "/mcp")).toBe(true);
    expect((await hostLog(page)).some((entry) => (entry as { event?: string }).event === "sizechange")).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("V3 an invalid value is shown at its field and never becomes a tools/call; corrected, it is called once", async () => {
    const { page, app, problems } = await openHost("feedback");
    const rating = app.getByRole("spinbutton", { name: /^rating/ });
    await rating.fill("9");
    await app.getByRole("combobox", { name: /^topic/ }).selectOption("other");
    await app.getByRole("button", { name: "Submit" }).click();
    await app.getByRole("status").filter({ hasText: "Not sent" }).waitFor({ timeout: 10_000 });
    expect(await rating.getAttribute("aria-invalid")).toBe("true");
    expect(toolCalls()).toEqual([]);
    // The control: the same form, corrected, is called once and acts.
    await rating.fill("5");
    await app.getByRole("button", { name: "Submit" }).click();
    await app.getByRole("status").filter({ hasText: "Accepted." }).waitFor({ timeout: 10_000 });
    expect(toolCalls()).toEqual([{ method: "tools/call", name: "feedback", arguments: { rating: 5, topic: "other" } }]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("R1 the page form through the host: the published URL is shown and opened through the host (ui/open-link)", async () => {
    const { page, app, problems } = await openHost("page");
    await app
      .getByRole("textbox", { name: /^title/ })
      .first()
      .fill("From a chat client");
    const block = app.getByRole("group", { name: "block 1", exact: true });
    await block.getByRole("combobox", { name: /^block type/ }).selectOption("paragraph");
    await block.getByRole("textbox", { name: /^text/ }).first().fill("Filled in the conversation.");
    await app.getByRole("button", { name: "Submit" }).click();
    const link = app.getByRole("status").getByRole("link");
    await link.waitFor({ timeout: 10_000 });
    const url = (await link.getAttribute("href")) ?? "";
    expect(url.startsWith(`${base}/pages/`)).toBe(true);
    expect(toolCalls().map((call) => call.name)).toEqual(["page"]);
    await link.click();
    await expect.poll(() => hostLog(page)).toContainEqual({ event: "open-link", url });
    const published = await fetch(url);
    expect(await published.text()).toContain("From a chat client");
    expect(problems).toEqual([]);
    await page.close();
  });
});
