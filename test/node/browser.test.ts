/**
 * The example address in a real browser: Chromium from npm (`./chromium.ts`), against
 * the example app served by @hono/node-server on loopback. A person opening the address sees
 * the form page (A6); a script in that page posts an act and the person follows the url.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerType, serve } from "@hono/node-server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExampleApp } from "../../examples/pages/app.ts";
import { MemoryPageStore } from "../../examples/pages/store.ts";
import { launchChromium } from "./chromium.ts";

let server: ServerType;
let browser: Browser;
let base: string;
/** Screenshots land here, for a person to look at while the test runs. */
let profile: string;

beforeAll(async () => {
  const store = new MemoryPageStore();
  const app = createExampleApp(() => store);
  server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  profile = await mkdtemp(join(tmpdir(), "gpt-address-screenshots-"));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await rm(profile, { recursive: true, force: true });
});

/**
 * POSTs the fixture `test/fixtures/page/<name>` to the page address from a script running in
 * `page` (cross-origin when `page` shows another document), as `application/json`.
 *
 * @returns the fixture's text, and the answer's status and body text as the script saw them.
 */
async function postFrom(page: Page, name: string): Promise<{ body: string; status: number; text: string }> {
  const body = await readFile(join(import.meta.dirname, "../fixtures/page", name), "utf8");
  const answer = await page.evaluate(
    async ([target, text]) => {
      const response = await fetch(target, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: text,
      });
      return { status: response.status, text: await response.text() };
    },
    [`${base}/page`, body] as const,
  );
  return { body, ...answer };
}

describe("the example address in Chromium", () => {
  it("A6 shows a person the form page: p, the messages and the form", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${base}/page`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-type"]).toMatch(/^text\/html/);
    expect(response?.headers().vary).toMatch(/accept/i);
    const text = await page.locator("body").textContent();
    expect(text).toContain("This address publishes a page of rich text");
    expect(text).toContain('"$schema": "https://json-schema.org/draft/2020-12/schema"');
    await page.screenshot({ path: join(profile, "form.png"), fullPage: true });
    await page.close();
  });

  // The form page's CSP forbids its own scripts to connect anywhere, so the actor's script runs
  // in another document: a cross-origin POST with application/json, which makes Chromium send
  // the CORS preflight first.
  it("R1 an act posted cross-origin from a script answers {id, url}, and the url shows the page", async () => {
    const page = await browser.newPage();
    const { body, status, text } = await postFrom(page, "valid-recipe.json");
    expect(status).toBe(200);
    const { id, url } = JSON.parse(text) as { id: string; url: string };
    expect(url).toBe(`${base}/pages/${id}`);
    const shown = await page.goto(url);
    expect(shown?.status()).toBe(200);
    const title = (JSON.parse(body) as { title: string }).title;
    await expect(page.locator("h1").first().textContent()).resolves.toBe(title);
    await page.screenshot({ path: join(profile, "published.png"), fullPage: true });
    await page.close();
  });

  it("R2 an act the form refuses gets 204 and nothing a script can read", async () => {
    const page = await browser.newPage();
    const { status, text } = await postFrom(page, "invalid-http-link.json");
    expect({ status, text }).toEqual({ status: 204, text: "" });
    await page.close();
  });
});
