/**
 * `gpt-address mcp <url…>`: a stdio MCP server whose tools are the GPT addresses given, any
 * origin, any implementation (`src/client/mcp-bridge.ts`), for Claude Desktop, Cursor, VS Code
 * and any client that starts a server as a process. One JSON-RPC message per line on standard
 * input and output (nothing else is ever written to standard output); what the client is not
 * told goes to standard error. Runs until standard input ends.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 * @module
 */
import { defineCommand } from "citty";
import { createBridge } from "../client/mcp-bridge.ts";
import { exitCodes, ioOf, UsageError } from "./shared.ts";
import { terminalText } from "./terminal-text.ts";

/** The longest message line read, in bytes: a longer one is answered as a parse error and dropped. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** The lines of a byte stream, without their `\n` (and a `\r` before it); `null` for an over-long one. */
async function* lines(input: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array | null> {
  let pending: Buffer[] = [];
  let size = 0;
  let overLong = false;
  for await (const chunk of input) {
    let buffer = Buffer.from(chunk);
    for (let end = buffer.indexOf(0x0a); end !== -1; end = buffer.indexOf(0x0a)) {
      const line = Buffer.concat([...pending, buffer.subarray(0, end)]);
      const last = line.length - 1;
      if (overLong || line.length > MAX_LINE_BYTES) yield null;
      else if (line.length > 0) yield new Uint8Array(line[last] === 0x0d ? line.subarray(0, last) : line);
      buffer = buffer.subarray(end + 1);
      pending = [];
      size = 0;
      overLong = false;
    }
    size += buffer.length;
    if (size > MAX_LINE_BYTES) {
      overLong = true;
      pending = [];
    } else pending.push(buffer);
  }
}

export default defineCommand({
  meta: {
    name: "mcp",
    description:
      "Serve GPT addresses (any URLs) as the tools of an MCP server over stdio, for Claude Desktop, Cursor, VS Code.",
  },
  args: {
    url: { type: "positional", required: true, description: "The addresses, http(s) URLs", valueHint: "URL…" },
    "max-wait": {
      type: "string",
      default: "10",
      description: "The longest Retry-After waited once after a 429, in seconds",
      valueHint: "s",
    },
    async: {
      type: "boolean",
      default: false,
      description: "Ask for runs (Prefer: respond-async) and follow them, with progress notifications",
    },
    wait: {
      type: "string",
      description: "With --async: the seconds an address may take before it answers with a run",
      valueHint: "N",
    },
  },
  async run(context) {
    const io = ioOf(context);
    const urls = context.args._.map((arg) => {
      let parsed: URL;
      try {
        parsed = new URL(arg);
      } catch {
        throw new UsageError(`not a URL: ${JSON.stringify(arg)}`);
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
        throw new UsageError(`not an http(s) URL: ${arg}`);
      return parsed.href;
    });
    const maxWaitSeconds = Number(context.args["max-wait"]);
    if (!Number.isInteger(maxWaitSeconds) || maxWaitSeconds < 0)
      throw new UsageError(`--max-wait must be a whole number of seconds: ${context.args["max-wait"]}`);
    const waitText = context.args.wait;
    if (waitText !== undefined && !context.args.async) throw new UsageError("--wait needs --async");
    const wait = waitText === undefined ? undefined : Number(waitText);
    if (wait !== undefined && (!Number.isInteger(wait) || wait < 0))
      throw new UsageError(`--wait must be a whole number of seconds: ${waitText}`);
    const write = (text: string) => io.stdout(`${text}\n`);
    const bridge = createBridge(urls, {
      notify: write,
      log: (line) => io.stderr(`gpt-address mcp: ${terminalText(line)}\n`),
      maxWaitSeconds,
      ...(context.args.async ? { respondAsync: wait === undefined ? true : { wait } } : {}),
    });
    io.stderr(`gpt-address mcp: serving ${bridge.names.map((name, i) => `${name} (${urls[i]})`).join(", ")}\n`);
    const inFlight = new Set<Promise<void>>();
    for await (const line of lines(process.stdin)) {
      const reply =
        line === null
          ? Promise.resolve(
              '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: message too long"}}',
            )
          : bridge.receive(line);
      // Requests are answered as they finish, each on its own line: a slow act holds up no other.
      const done = reply.then(
        (text) => {
          if (text !== undefined) write(text);
        },
        (error: unknown) => io.stderr(`gpt-address mcp: internal error: ${(error as Error).stack ?? error}\n`),
      );
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    }
    await Promise.all(inFlight);
    return exitCodes.ok;
  },
});
