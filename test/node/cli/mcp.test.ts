/**
 * `gpt-address mcp <url…>` (issue 32 item 2) driven by the official MCP SDK client
 * (`@modelcontextprotocol/sdk` 1.32.2, `Client` + `StdioClientTransport`), which spawns the
 * built bin (`node dist/cli/bin.js mcp …`: run `npm run build` first) over stdio: the example
 * addresses on loopback, and a plain address written with `node:http` only
 * (test/node/client/plain-address.ts). Tools are listed from the forms read at that moment and
 * called as acts; a value the form refuses comes back as a tool error with nothing sent; 204,
 * 412 (a form changed between list and call) and 429 each take their path.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ORDER_FORM, type PlainAddress, type PlainOptions, servePlainAddress } from "../client/plain-address.ts";
import { root, type Served, serveRecordingExample } from "../client/servers.ts";
import { runCli } from "./run-cli.ts";

const BIN = join(root, "dist/cli/bin.js");
const formFile = (name: string) =>
  JSON.parse(readFileSync(join(root, `forms/${name}.json`), "utf8")) as {
    m: { role: string; content: string }[];
    s: { description: string; title: string };
  };
const exampleOf = (name: string) =>
  JSON.parse(
    formFile(name)
      .m.filter((message) => message.role === "assistant")
      .at(-1)!.content,
  ) as Record<string, unknown>;

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** An SDK client connected to `gpt-address mcp ...args`, and the notifications it got. */
async function connect(args: string[]): Promise<{ client: Client; changed: number[]; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...args],
    cwd: root,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "gpt-address-mcp-test", version: "1.0.0" });
  const changed: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed.push(Date.now());
  });
  await client.connect(transport);
  return { client, changed, stderr: () => stderr };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

describe("gpt-address mcp: the example addresses through the official SDK client over stdio", () => {
  let example: Served & { received: { path: string; headers: Record<string, string> }[] };
  let client: Client;
  beforeAll(async () => {
    example = await serveRecordingExample();
    ({ client } = await connect([`${example.url}/page`, `${example.url}/feedback`]));
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await example?.close();
  });

  it("initialize: 2025-11-25, tools with listChanged; tools/list: one tool per address, inputSchema s, description s.description", async () => {
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true } });
    expect(client.getServerVersion()?.name).toBe("gpt-address");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["page", "feedback"]);
    for (const tool of tools) {
      const { s } = formFile(tool.name);
      expect(tool).toEqual({ name: tool.name, title: s.title, description: s.description, inputSchema: s });
    }
  });

  it("R1: a call is the act: the form's own example gets 200, its JSON as structuredContent and text, If-Match sent", async () => {
    const rated = await call(client, "feedback", exampleOf("feedback"));
    expect(rated).toMatchObject({ isError: false, structuredContent: { received: true, rating: 4 } });
    expect(JSON.parse(rated.content[0]!.text)).toEqual(rated.structuredContent);
    const published = await call(client, "page", exampleOf("page"));
    expect(published.isError).toBe(false);
    const stored = await fetch(String(published.structuredContent!.url));
    expect(await stored.text()).toContain("<html");
    const posted = example.received.at(-1)!;
    expect(posted.path).toBe("/page");
    expect(posted.headers["if-match"]).toMatch(/^"/);
    expect(posted.headers["gpt-actor"]).toBe("gpt-address-mcp-test; via=gpt-address mcp");
  });

  it("a value the form refuses is a tool error naming the pointer and keyword; nothing is sent", async () => {
    const before = example.received.length;
    const refused = await call(client, "feedback", { ...exampleOf("feedback"), rating: 9 });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toBe(
      "The arguments do not fit the form at /properties/rating/maximum (maximum); nothing was sent. Call the tool again with arguments its inputSchema accepts.",
    );
    expect(example.received.length).toBe(before);
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
  });
});

describe("gpt-address mcp: a plain address (node:http, no toolkit code) through the official SDK client", () => {
  let plain: PlainAddress | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await plain?.close();
    client = plain = undefined;
  });
  const start = async (options: PlainOptions = {}, flags: string[] = []) => {
    plain = await servePlainAddress(options);
    const connected = await connect([...flags, plain.url]);
    client = connected.client;
    return connected;
  };
  const ORDER = { name: "box", size: "m", where: { city: "Oslo" } };

  it("lists the order form as it is, and a call acts once with If-Match of the arrival's ETag", async () => {
    await start();
    const [tool] = (await client!.listTools()).tools;
    expect(tool).toEqual({
      name: new URL(plain!.url).host.replace(":", "_"),
      title: "order",
      description: ORDER_FORM.description,
      inputSchema: JSON.parse(JSON.stringify(ORDER_FORM)),
    });
    const ordered = await call(client!, tool!.name, ORDER);
    expect(ordered).toMatchObject({ isError: false, structuredContent: { ordered: true, name: "box" } });
    expect(plain!.acts).toEqual([ORDER]);
    const etag = (await fetch(plain!.url)).headers.get("etag");
    expect(plain!.ifMatch).toEqual([etag]);
    const refused = await call(client!, tool!.name, { ...ORDER, where: {} });
    expect(refused).toMatchObject({ isError: true });
    expect(refused.content[0]!.text).toContain("at /properties/where/required (required)");
    expect(plain!.ifMatch).toHaveLength(1);
  });

  it("412: the form changed between list and call: read again, tools/list_changed sent, a tool error; then the new form", async () => {
    const { changed } = await start();
    const [tool] = (await client!.listTools()).tools;
    plain!.changeForm("Order a box (now in the new form).");
    const stale = await call(client!, tool!.name, ORDER);
    expect(stale.isError).toBe(true);
    expect(stale.content[0]!.text).toContain("changed since it was read (412): nothing was done");
    expect(plain!.acts).toEqual([]);
    await expect.poll(() => changed.length).toBe(1);
    const [fresh] = (await client!.listTools()).tools;
    expect(fresh!.description).toBe("Order a box (now in the new form).");
    expect((await call(client!, tool!.name, ORDER)).isError).toBe(false);
    expect(plain!.acts).toEqual([ORDER]);
  });

  it("204: a value the form accepts that the address refuses is a tool error: nothing was done", async () => {
    await start({ refuses: (value) => value.name === "box" });
    const [tool] = (await client!.listTools()).tools;
    const refused = await call(client!, tool!.name, ORDER);
    expect(refused).toMatchObject({ isError: true });
    expect(refused.content[0]!.text).toMatch(
      /^The address refused the act \(204\): nothing was done\. It does not say why; the arguments passed the local check, so check them against the tool's description and call it again with other arguments\. http:/,
    );
    expect(plain!.acts).toEqual([]);
  });

  it("429: waits Retry-After once and tries again; past --max-wait, a tool error at once", async () => {
    await start({}, ["--max-wait", "2"]);
    const [tool] = (await client!.listTools()).tools;
    plain!.limitNext(1, 1);
    const started = Date.now();
    expect((await call(client!, tool!.name, ORDER)).isError).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(plain!.ifMatch).toHaveLength(2);
    plain!.limitNext(2, 60);
    const limited = await call(client!, tool!.name, ORDER);
    expect(limited).toMatchObject({ isError: true });
    expect(limited.content[0]!.text).toContain("rate limited (429); Retry-After: 60");
    expect(plain!.ifMatch).toHaveLength(3);
    expect(plain!.acts).toEqual([ORDER]);
  });

  it("a form that is not an object schema is offered as {value}, its $defs kept at the top", async () => {
    const form = { $defs: { n: { type: "integer", minimum: 1 } }, $ref: "#/$defs/n" };
    await start({ form });
    const [tool] = (await client!.listTools()).tools;
    expect(tool!.inputSchema).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["value"],
      properties: { value: { $ref: "#/$defs/n" } },
      $defs: form.$defs,
    });
    const refused = await call(client!, tool!.name, { value: 0 });
    expect(refused.content[0]!.text).toContain("at /$defs/n/minimum (minimum)");
  });
});

describe("gpt-address mcp: usage", () => {
  it("exit 2 without a URL, for a URL that is not http(s), and for a bad --max-wait; nothing is served", async () => {
    for (const args of [
      ["mcp"],
      ["mcp", "ftp://example.org/x"],
      ["mcp", "not a url"],
      ["mcp", "--max-wait", "x", "http://a/"],
    ]) {
      const run = await runCli(args, root);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stdout, args.join(" ")).toBe("");
    }
  });
});
