/**
 * The page for people in a real browser (A6, issue 14): the example app on loopback, Chromium
 * from npm with WebMCP on. A person fills the generated form by role and accessible name (the
 * contract of docs/page.md), the page validates with the address's own generated validator
 * and POSTs; the browser's agent does the same through the WebMCP tool; axe-core finds no
 * violation on the form, the index and a published page.
 */
import type { AddressInfo } from "node:net";
import { runInNewContext } from "node:vm";
import AxeBuilder from "@axe-core/playwright";
import { type ServerType, serve } from "@hono/node-server";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createExampleApp } from "../../examples/pages/app.ts";
import { form } from "../../examples/pages/generated/page.js";
import { MemoryPageStore } from "../../examples/pages/store.ts";
import { compileForm } from "../../src/compile/compile-form.ts";
import { FormError } from "../../src/compile/form-error.ts";
import { moduleExpression } from "../../src/compile/page/script.ts";
import { buildArrivalPage } from "../../src/compile/page.ts";
import { launchChromium } from "./chromium.ts";
import { suiteGroups } from "./compile/suite-files.ts";
import { bookingForm, bookingPattern } from "./page/booking-form.ts";

let server: ServerType;
let browser: Browser;
let context: BrowserContext;
let base: string;
/** POSTs that reached the server, by path. */
const posts: string[] = [];

beforeAll(async () => {
  const store = new MemoryPageStore();
  const app = createExampleApp(() => store);
  server = await new Promise<ServerType>((resolve) => {
    const started = serve(
      {
        fetch: (request: Request) => {
          if (request.method === "POST") posts.push(new URL(request.url).pathname);
          return app.fetch(request);
        },
        hostname: "127.0.0.1",
        port: 0,
      },
      () => resolve(started),
    );
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium(["WebMCP"]);
  context = await browser.newContext();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(() => {
  posts.length = 0;
});

/** Opens a form page, failing on any script error or CSP report. */
async function open(path = "/page"): Promise<Page> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  const response = await page.goto(`${base}${path}`);
  expect(response?.headers()["content-type"]).toMatch(/^text\/html/);
  await expect.poll(() => page.getByRole("button", { name: "Submit" }).isVisible()).toBe(true);
  expect(problems).toEqual([]);
  return page;
}

const group = (scope: Page | Locator, name: string) => scope.getByRole("group", { name, exact: true });
const textbox = (scope: Page | Locator, name: RegExp) => scope.getByRole("textbox", { name }).first();

async function submitAndFollow(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Submit" }).click();
  const link = page.getByRole("status").getByRole("link");
  await expect.poll(() => link.count(), { timeout: 10_000 }).toBe(1);
  await link.click();
  await page.waitForURL(/\/pages\//);
}

/** The help text a control's aria-describedby names (the description and the rules in words). */
async function hintOf(control: Locator): Promise<string> {
  for (const id of ((await control.getAttribute("aria-describedby")) ?? "").split(" ")) {
    const help = control.page().locator(`[id="${id}"].help`);
    if ((await help.count()) === 1) return (await help.textContent()) ?? "";
  }
  return "";
}

async function errorOf(control: Locator): Promise<string> {
  expect(await control.getAttribute("aria-invalid")).toBe("true");
  const id = await control.getAttribute("aria-errormessage");
  expect(id).not.toBeNull();
  const message = control.page().locator(`[id="${id}"]`);
  expect(await message.isVisible()).toBe(true);
  return (await message.textContent()) ?? "";
}

describe("A6 the form page in Chromium", () => {
  it("A6 a person fills heading, paragraph with bold and link, and a nested list → 200 → the published page shows it", async () => {
    const page = await open();
    await textbox(page, /^title/).fill("Notes from the garden");
    const first = group(page, "block 1");
    await first.getByRole("combobox", { name: /^block type/ }).selectOption("heading");
    await first.getByRole("spinbutton", { name: /^level/ }).fill("2");
    // Keyboard: focus the span's text and type.
    await textbox(first, /^text/).focus();
    await page.keyboard.type("Planting");

    // One block is the form's minItems: it cannot be removed until there is a second.
    expect(await page.getByRole("button", { name: "Remove block 1" }).isDisabled()).toBe(true);
    // Keyboard: Enter on "Add block" adds block 2 and moves focus into it (its kind select);
    // ArrowDown there chooses the next kind, paragraph.
    await page.getByRole("button", { name: "Add block" }).focus();
    await page.keyboard.press("Enter");
    const second = group(page, "block 2");
    const kind = second.getByRole("combobox", { name: /^block type/ });
    await expect.poll(() => kind.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.press("ArrowDown");
    expect(await kind.inputValue()).toBe("1");
    expect(await page.getByRole("button", { name: "Remove block 1" }).isDisabled()).toBe(false);
    expect(await page.getByRole("button", { name: "Remove block 2" }).isDisabled()).toBe(false);
    await textbox(group(second, "span 1"), /^text/).fill("Tomatoes need ");
    await second.getByRole("button", { name: "Add span" }).click();
    await textbox(group(second, "span 2"), /^text/).fill("sun");
    await group(second, "span 2").getByRole("checkbox", { name: "bold" }).check();
    await second.getByRole("button", { name: "Add span" }).click();
    await textbox(group(second, "span 3"), /^text/).fill(" and a guide");
    await textbox(group(second, "span 3"), /^href/).fill("https://example.org/tomatoes");

    await page.getByRole("button", { name: "Add block" }).click();
    const third = group(page, "block 3");
    await third.getByRole("combobox", { name: /^block type/ }).selectOption("list");
    await third.getByRole("checkbox", { name: "ordered" }).first().check();
    await textbox(group(third, "item 1"), /^text/).fill("Water");
    await group(third, "item 1").getByRole("button", { name: "Add children" }).click();
    const nested = group(third, "children");
    await textbox(group(nested, "item 1"), /^text/).fill("in the morning");

    await submitAndFollow(page);
    expect(posts).toEqual(["/page"]);
    expect(await page.locator("h1").textContent()).toBe("Notes from the garden");
    expect(await page.locator("h2").textContent()).toBe("Planting");
    expect(await page.locator("p strong").textContent()).toBe("sun");
    expect(await page.locator("p a").getAttribute("href")).toBe("https://example.org/tomatoes");
    expect(await page.locator("ol > li > ul > li").textContent()).toBe("in the morning");
    await page.close();
  });

  it("A6 invalid input shows the rule at the field and sends nothing; corrected, it is sent", async () => {
    const page = await open();
    const title = textbox(page, /^title/);
    const text = textbox(group(page, "block 1"), /^text/);
    const href = textbox(group(page, "block 1"), /^href/);
    await text.fill("Hello");
    await page.getByRole("button", { name: "Submit" }).click();
    expect(await errorOf(title)).toBe("must be filled in.");
    // Focus moves to the first field to correct.
    expect(await title.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    await title.fill("x".repeat(201));
    await href.fill("http://example.org/");
    await page.getByRole("button", { name: "Submit" }).click();
    expect(await errorOf(title)).toMatch(/at most 200 characters/);
    // In plain words; the description is the field's hint, read with it.
    expect(await errorOf(href)).toBe("does not have the expected form.");
    expect(await hintOf(href)).toBe(
      "An absolute https URL. Must be at least 9 characters long; must be at most 1999 characters long.",
    );
    // The status says nothing was sent, and the server saw nothing.
    expect(await page.getByRole("status").textContent()).toMatch(/Not sent/);
    expect(posts).toEqual([]);

    // The accepted control: the same form, corrected.
    await title.fill("x".repeat(200));
    await href.fill("https://example.org/");
    await page.getByRole("spinbutton", { name: /^level/ }).fill("1");
    expect(await title.getAttribute("aria-invalid")).toBeNull();
    await submitAndFollow(page);
    expect(posts).toEqual(["/page"]);
    expect(await page.locator("h1").textContent()).toBe("x".repeat(200));
    await page.close();
  });

  it("A6 JSON mode shows the value the form built, and an edited value comes back into the form", async () => {
    const page = await open();
    await textbox(page, /^title/).fill("Round trip");
    await page.getByRole("spinbutton", { name: /^level/ }).fill("3");
    await textbox(group(page, "block 1"), /^text/).fill("One");
    await page.getByText("JSON", { exact: true }).click();
    const box = page.getByRole("textbox", { name: /^JSON/ });
    // The details' toggle event fills the box after the click returns.
    await expect.poll(() => box.inputValue()).not.toBe("");
    const built = { title: "Round trip", blocks: [{ type: "heading", level: 3, spans: [{ text: "One" }] }] };
    expect(JSON.parse(await box.inputValue())).toEqual(built);

    // Invalid: the message names the pointer, and the form keeps its value.
    await box.fill(JSON.stringify({ ...built, title: "" }));
    expect(await box.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#gpt-json-error").textContent()).toContain("/title");
    expect(await textbox(page, /^title/).inputValue()).toBe("Round trip");

    // Valid: the form shows the edited value, including a block kind it did not have.
    const edited = {
      title: "Edited",
      blocks: [
        { type: "paragraph", spans: [{ text: "Two", marks: ["italic"], href: "https://example.org/" }] },
        { type: "list", ordered: false, items: [{ spans: [{ text: "a" }] }] },
      ],
    };
    await box.fill(JSON.stringify(edited));
    expect(await box.getAttribute("aria-invalid")).toBeNull();
    expect(await textbox(page, /^title/).inputValue()).toBe("Edited");
    expect(await group(page, "block 1").getByRole("checkbox", { name: "italic" }).isChecked()).toBe(true);
    expect(
      await group(page, "block 2")
        .getByRole("combobox", { name: /^block type/ })
        .inputValue(),
    ).toBe("2");
    // And back again: the form builds exactly the edited value.
    await textbox(page, /^title/).fill("Edited");
    expect(JSON.parse(await box.inputValue())).toEqual(edited);
    await submitAndFollow(page);
    expect(await page.locator("h1").textContent()).toBe("Edited");
    await page.close();
  });
});

describe("A6 without JavaScript", () => {
  it("A6 the page still describes the address and the form, and shows no controls that cannot work", async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const page = await plain.newPage();
    await page.goto(`${base}/page`);
    expect(await page.getByText("A page of rich text to publish on the web").first().isVisible()).toBe(true);
    expect(await page.getByText("This address publishes a page of rich text").isVisible()).toBe(true);
    expect(await page.getByText(/Filling in the form needs JavaScript/).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Submit" }).count()).toBe(0);
    await page.getByText("Show the JSON Schema").click();
    expect(await page.locator("#gpt-schema").textContent()).toBe(JSON.stringify(JSON.parse(form.arrival).s, null, 2));
    await plain.close();
  });
});

describe("A6 every address has its own page", () => {
  it("A6 the feedback form: number, enum and optional text; 200 shows the answer; its tool is named feedback", async () => {
    const page = await open("/feedback");
    await page.getByRole("spinbutton", { name: /^rating/ }).fill("4");
    await page.getByRole("combobox", { name: /^topic/ }).selectOption("documentation");
    await page.getByRole("button", { name: "Submit" }).click();
    const status = page.getByRole("status");
    await status.filter({ hasText: "Accepted." }).waitFor({ timeout: 10_000 });
    expect(JSON.parse((await status.locator("pre").textContent()) ?? "")).toEqual({ received: true, rating: 4 });
    expect(posts).toEqual(["/feedback"]);
    const names = await page.evaluate(async () => {
      const modelContext = (globalThis as unknown as { document: { modelContext: WebMcp } }).document.modelContext;
      return (await modelContext.getTools()).map((tool) => tool.name);
    });
    expect(names).toEqual(["feedback"]);
    await page.close();
  });
});

describe("A6 required marks, native inputs and plain messages (issue 30)", () => {
  const validate = (value: unknown) =>
    runInNewContext(`(${moduleExpression(compileForm(bookingForm))}).validate(value)`, { value }) as boolean;

  /** The booking form's page in a browser set to time zone `timezoneId`; POSTs get 200 and are kept. */
  async function booking(timezoneId: string) {
    const zoned = await browser.newContext({ timezoneId });
    const page = await zoned.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    const html = buildArrivalPage(
      { p: "Book a table: POST one JSON value valid against s.", m: [], s: bookingForm },
      { name: "booking", validator: compileForm(bookingForm) },
    ).html;
    const bodies: unknown[] = [];
    await page.route(`${base}/booking`, (route) => {
      if (route.request().method() !== "POST")
        return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html });
      bodies.push(JSON.parse(route.request().postData() ?? ""));
      return route.fulfill({ status: 200, contentType: "application/json", body: '{"booked":true}' });
    });
    await page.goto(`${base}/booking`);
    await expect.poll(() => page.getByRole("button", { name: "Submit" }).isVisible()).toBe(true);
    return { page, bodies, problems, close: () => zoned.close() };
  }

  const required = ["day", "time", "arrival", "email", "slot", "name", "guests", "room", "extra"];
  const field = (page: Page, name: string) => page.getByLabel(new RegExp(`^${name}`)).first();
  const messages = (page: Page) => page.locator("[data-error]").allTextContents();

  it("A6 every required field shows * and is aria-required, dates and times are native pickers, and axe finds nothing", async () => {
    const { page, problems, close } = await booking("Asia/Kathmandu");
    for (const name of required) {
      const control = field(page, name);
      expect(await control.getAttribute("aria-required"), name).toBe("true");
      // Nothing is announced invalid before the person has done anything.
      expect(
        await control.evaluate((el) => (el as unknown as { validity: { valid: boolean } }).validity.valid),
        name,
      ).toBe(true);
      const label = page.locator("label").filter({ has: control });
      expect(await label.locator(".req").isVisible(), name).toBe(true);
    }
    for (const name of ["website", "seating"]) {
      expect(await field(page, name).getAttribute("aria-required"), name).toBeNull();
      expect(
        await page
          .locator("label")
          .filter({ has: field(page, name) })
          .locator(".req")
          .count(),
        name,
      ).toBe(0);
    }
    const types = await Promise.all(
      ["day", "time", "arrival", "email", "website", "slot"].map((name) => field(page, name).getAttribute("type")),
    );
    expect(types).toEqual(["date", "time", "datetime-local", "email", "url", "text"]);
    expect(await violations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await close();
  });

  it("A6 an empty Submit flags every required field in plain words; a pattern error names no expression; the sent value has RFC 3339 times with this browser's offset", async () => {
    const { page, bodies, problems, close } = await booking("Asia/Kathmandu");
    await page.getByRole("button", { name: "Submit" }).click();
    // name has no rule but presence: "" is a name the form admits, so it is sent, not flagged.
    for (const name of required.filter((n) => n !== "name"))
      expect(await field(page, name).getAttribute("aria-invalid"), name).toBe("true");
    expect(await field(page, "name").getAttribute("aria-invalid")).toBeNull();
    expect(await errorOf(field(page, "slot"))).toBe("must be filled in.");
    expect(await errorOf(field(page, "day"))).toBe("must be filled in.");
    expect(await errorOf(field(page, "room"))).toBe("room is required.");
    expect(await errorOf(field(page, "guests"))).toBe("guests is required.");
    expect(await violations(page)).toEqual([]);

    await field(page, "day").fill("2025-06-01");
    await field(page, "time").fill("09:15");
    await field(page, "arrival").fill("2025-06-01T14:30");
    await field(page, "email").fill("ann@example.org");
    await field(page, "slot").fill("9:99");
    await field(page, "name").fill("Ann");
    await field(page, "guests").fill("2");
    await field(page, "room").selectOption("hall");
    await page.getByRole("group", { name: "notes" }).getByRole("textbox").fill("by the window");
    await field(page, "extra").fill('{"high chair": true}');
    await page.getByRole("button", { name: "Submit" }).click();
    expect(await errorOf(field(page, "slot"))).toBe("does not have the expected form.");
    expect(await hintOf(field(page, "slot"))).toBe("The time, HH:MM, from 12:00 to 19:59.");
    const shown = (await messages(page)).join("\n");
    expect(shown).not.toContain(bookingPattern);
    expect(shown).not.toMatch(/pattern|\[0-9\]|The time/);
    expect(bodies).toEqual([]);

    await field(page, "slot").fill("12:30");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("status").filter({ hasText: "Accepted." }).waitFor({ timeout: 10_000 });
    const [sent] = bodies as Record<string, unknown>[];
    // Asia/Kathmandu is 5 h 45 min ahead of UTC all year.
    expect(sent).toMatchObject({ day: "2025-06-01", time: "09:15:00+05:45", arrival: "2025-06-01T14:30:00+05:45" });
    expect(validate(sent)).toBe(true);
    expect(problems).toEqual([]);
    await close();
  });

  it("A6 a date-time's offset is the one in force at that date (New York: -05:00 in January, -04:00 in July); one loaded from JSON is shown in local time and sent exactly as it came", async () => {
    const { page, problems, close } = await booking("America/New_York");
    await page.getByText("JSON", { exact: true }).click();
    const box = page.getByRole("textbox", { name: /^JSON/ });
    await expect.poll(() => box.inputValue()).not.toBe("");
    const json = async () => JSON.parse(await box.inputValue()) as Record<string, unknown>;
    await field(page, "arrival").fill("2025-01-15T10:00");
    expect((await json()).arrival).toBe("2025-01-15T10:00:00-05:00");
    await field(page, "arrival").fill("2025-07-15T10:00");
    expect((await json()).arrival).toBe("2025-07-15T10:00:00-04:00");

    const loaded = {
      day: "2025-07-15",
      time: "23:59:60Z",
      arrival: "2025-07-15T18:45:30.5Z",
      email: "bo@example.org",
      slot: "19:00",
      name: "",
      guests: 3,
      room: "garden",
      vegetarian: true,
      notes: ["none"],
      extra: null,
    };
    expect(validate(loaded)).toBe(true);
    await box.fill(JSON.stringify(loaded));
    expect(await field(page, "arrival").inputValue()).toBe("2025-07-15T14:45:30");
    // A leap second has no local time to show: the form keeps what it cannot show, and says so.
    expect(await field(page, "time").inputValue()).toBe("");
    expect(await page.locator("#gpt-json-error").textContent()).toBe(
      "Matches the form, but the form cannot show all of it.",
    );
    // Back from the form unchanged, then edited: local time with its offset.
    await field(page, "name").fill("Bo");
    expect((await json()).arrival).toBe("2025-07-15T18:45:30.5Z");
    await field(page, "arrival").fill("2025-07-15T14:50");
    expect((await json()).arrival).toBe("2025-07-15T14:50:00-04:00");
    expect(problems).toEqual([]);
    await close();
  });

  it("A6 on /page, an empty level makes the heading alternative fail: level is the field flagged, not the block", async () => {
    const page = await open();
    await textbox(page, /^title/).fill("Hello");
    await textbox(group(page, "block 1"), /^text/).fill("World");
    await page.getByRole("button", { name: "Submit" }).click();
    const level = page.getByRole("spinbutton", { name: /^level/ });
    expect(await errorOf(level)).toBe("level is required.");
    expect(await level.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await messages(page)).toEqual(["level is required."]);
    expect(await group(page, "block 1").getAttribute("aria-invalid")).toBeNull();
    expect(posts).toEqual([]);
    await page.close();
  });
});

interface ToolResult {
  content: { type: string; text: string }[];
  isError: boolean;
  structuredContent: Record<string, unknown>;
}

describe("A6 the WebMCP tool", () => {
  async function execute(page: Page, value: unknown): Promise<ToolResult> {
    const text = await page.evaluate(async (args) => {
      const modelContext = (globalThis as unknown as { document: { modelContext: WebMcp } }).document.modelContext;
      const [tool] = await modelContext.getTools();
      try {
        return await modelContext.executeTool(tool, args);
      } catch {
        return await modelContext.executeTool(tool, JSON.parse(args));
      }
    }, JSON.stringify(value));
    return JSON.parse(text) as ToolResult;
  }

  it("A6 getTools lists exactly the address, with s as its inputSchema", async () => {
    const page = await open();
    const tools = await page.evaluate(async () => {
      const modelContext = (globalThis as unknown as { document: { modelContext: WebMcp } }).document.modelContext;
      return (await modelContext.getTools()).map((tool) => ({ ...tool }));
    });
    const { s } = JSON.parse(form.arrival) as { s: { description: string } };
    expect(tools).toHaveLength(1);
    expect(tools[0]?.name).toBe("page");
    expect(tools[0]?.description).toBe(s.description);
    expect(JSON.parse(tools[0]?.inputSchema as string)).toEqual(s);
    await page.close();
  });

  it("A6 executeTool with the form's example → 200 result; an invalid value → a returned error naming pointer and keyword, and no POST", async () => {
    const page = await open();
    const { m } = JSON.parse(form.arrival) as { m: { content: string }[] };
    const example = JSON.parse(m[1]?.content as string) as { title: string; blocks: unknown[] };

    const invalid = {
      ...example,
      blocks: [{ type: "paragraph", spans: [{ text: "x", href: "http://example.org/" }] }],
    };
    const refused = await execute(page, invalid);
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain("/blocks/0/spans/0/href: pattern");
    const missing = await execute(page, { blocks: example.blocks });
    expect(missing.content[0]?.text).toContain("/title: required");
    expect(posts).toEqual([]);

    const accepted = await execute(page, example);
    expect(accepted.isError).toBe(false);
    const url = accepted.structuredContent.url as string;
    expect(url).toMatch(new RegExp(`^${base}/pages/`));
    expect(posts).toEqual(["/page"]);
    await page.goto(url);
    expect(await page.locator("h1").textContent()).toBe(example.title);
    await page.close();
  });
});

interface WebMcp {
  getTools(): Promise<{ name: string; description: string; inputSchema: string }[]>;
  executeTool(tool: unknown, args: unknown): Promise<string>;
}

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

describe("A6 axe-core finds no violations", () => {
  it("A6 on the form, with an error shown and JSON mode open", async () => {
    const page = await open();
    expect(await violations(page)).toEqual([]);
    await page.getByRole("button", { name: "Add block" }).click();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("JSON", { exact: true }).click();
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it("A6 on the index (the browser's own Accept gets HTML) and a published page", async () => {
    const page = await context.newPage();
    const index = await page.goto(`${base}/`);
    expect(index?.headers()["content-type"]).toMatch(/^text\/html/);
    expect(await page.getByRole("link", { name: "page" }).getAttribute("href")).toBe("/page");
    expect(await violations(page)).toEqual([]);
    const answer = await page.request.post(`${base}/page`, { data: examplePage() });
    const { url } = (await answer.json()) as { url: string };
    await page.goto(url);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });
});

function examplePage(): unknown {
  const { m } = JSON.parse(form.arrival) as { m: { content: string }[] };
  return JSON.parse(m[1]?.content as string);
}

describe("A6 the page script on every form the compiler accepts", () => {
  // Every fifth compiling group of the suite (about 60 forms, 15 s here); all 311 pass alike.
  it("A6 JSON-Schema-Test-Suite forms' pages start, and Submit either names what to correct or sends, without a script error", async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    // Each form's page at one loopback URL, answered by the test itself; a POST gets 204.
    let html = "";
    const target = `${base}/suite-form`;
    await page.route(target, (route) =>
      route.request().method() === "POST"
        ? route.fulfill({ status: 204 })
        : route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }),
    );
    let started = 0;
    let compiled = 0;
    for (const group of suiteGroups()) {
      if (typeof group.schema !== "object" || group.schema === null) continue;
      let validator: string;
      try {
        validator = compileForm(group.schema);
      } catch (error) {
        if (error instanceof FormError) continue;
        throw error;
      }
      if (compiled++ % 5 !== 0) continue;
      html = buildArrivalPage({ p: "", m: [], s: group.schema }, { name: "suite", validator }).html;
      await page.goto(target);
      await page.getByRole("button", { name: "Submit" }).click({ timeout: 5_000 });
      await page
        .getByRole("status")
        .filter({ hasText: /^(Not sent|Accepted|Not accepted)/ })
        .waitFor({ timeout: 5_000 });
      expect(problems, group.id).toEqual([]);
      started++;
    }
    expect(started).toBeGreaterThan(50);
    await page.close();
  });
});
