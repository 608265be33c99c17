/**
 * The MCP door on Node's message path (issue 16): on @hono/node-server, `mcp()` reads a
 * JSON-RPC message straight from Node's `IncomingMessage`, as `address()` does, through the same
 * verification core (`receiveAct`), so `request.body` (an undici `Request` and a web stream) is
 * never built. The limit holds on the bytes read (V1), the body deadline and every refusal of
 * the door hold on that path, and a request refused before its body is read leaves it unbuilt.
 * Every refusal is paired with a control that passes.
 */
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forms } from "../../examples/pages/generated/forms.js";
import type { Rejection } from "../../src/address/rejection.ts";
import { type McpOptions, mcp } from "../../src/mcp/mcp.ts";
import { VALID_CALL } from "../mcp-corpus.ts";
import { exchange, statuses } from "../runtimes/raw-http.ts";

const MAX = VALID_CALL.length;

let server: ServerType;
let port = 0;
/** Whether the last request's handler touched `request.body`. */
let touched: boolean | null = null;
const rejections: Rejection[] = [];
let limited = false;
/** How many tools/call messages the tool acted on. */
let acted = 0;

/** Records whether anything asked the request for `body` (the getter that builds the web stream). */
function spyOnBody(raw: Request): void {
  let proto: object | null = Object.getPrototypeOf(raw);
  let getter: (() => unknown) | undefined;
  while (proto !== null && getter === undefined) {
    getter = Object.getOwnPropertyDescriptor(proto, "body")?.get;
    proto = Object.getPrototypeOf(proto);
  }
  touched = false;
  Object.defineProperty(raw, "body", {
    configurable: true,
    get() {
      touched = true;
      return getter!.call(raw);
    },
  });
}

beforeAll(async () => {
  const tools = [
    {
      form: forms.feedback,
      act: (value: { rating: number }) => {
        acted++;
        return { received: true, rating: value.rating };
      },
    },
  ];
  const options: McpOptions = {
    maxBytes: MAX,
    bodyDeadlineMs: 300,
    onReject: (rejection) => rejections.push(rejection),
    rateLimit: {
      arrival: {
        limit: async () =>
          limited ? { allowed: false, retryAfterSeconds: 7 } : { allowed: true, retryAfterSeconds: 0 },
      },
    },
  };
  const app = new Hono<{ Bindings: { incoming: unknown } }>();
  app.use(async (c, next) => {
    spyOnBody(c.req.raw);
    // Control: without Node's bindings the door reads `request.body`, as on other runtimes.
    if (c.req.path === "/web") c.env = {} as { incoming: unknown };
    await next();
  });
  app.all("/mcp", mcp(tools, options));
  app.all("/web", mcp(tools, options));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read as plain JSON, member by member.
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * POSTs `chunks` to `path` (chunked when `length` is false; never ended when `end` is false),
 * resolving with the status and JSON answer.
 */
function post(
  chunks: (string | Uint8Array)[],
  options: { path?: string; length?: boolean; headers?: Record<string, string>; end?: boolean } = {},
): Promise<Answer> {
  const { path = "/mcp", length = true, end = true } = options;
  const buffers = chunks.map((chunk) => (typeof chunk === "string" ? Buffer.from(chunk) : chunk));
  const total = buffers.reduce((n, chunk) => n + chunk.byteLength, 0);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(length ? { "content-length": String(total) } : { "transfer-encoding": "chunked" }),
          ...options.headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (part: string) => (text += part));
        res.on("end", () => {
          if (!end) req.destroy();
          resolve({ status: res.statusCode ?? 0, body: text === "" ? null : JSON.parse(text), headers: res.headers });
        });
      },
    );
    req.on("error", reject);
    let k = 0;
    const next = () => {
      while (k < buffers.length) {
        if (!req.write(buffers[k++]!)) return void req.once("drain", next);
      }
      if (end) req.end();
    };
    next();
  });
}

function split(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const lastCode = () => rejections.at(-1)?.code;

describe("the MCP door reads the message from Node's IncomingMessage", () => {
  it("a valid tools/call acts without building request.body; the same call through request.body acts alike (control)", async () => {
    const viaMessage = await post([VALID_CALL]);
    expect(viaMessage.status).toBe(200);
    expect(viaMessage.body.result.structuredContent).toEqual({ received: true, rating: 4 });
    expect(touched).toBe(false);
    const viaBody = await post([VALID_CALL], { path: "/web" });
    expect(touched).toBe(true);
    expect(viaBody.body).toEqual(viaMessage.body);
  });

  it("V2: a duplicate member anywhere is a parse error (-32700) on the message path", async () => {
    // The same length as the valid call, so that the limit is not what refuses it.
    const duplicate = VALID_CALL.replace('"topic":"other"', '"rating":"othe"');
    expect(duplicate.length).toBe(MAX);
    const answer = await post([duplicate]);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(-32700);
    expect(lastCode()).toBe("json-syntax:duplicate-name");
    expect(touched).toBe(false);
  });
});

describe("V1 on the message path: the limit holds on the bytes read", () => {
  it("exactly maxBytes is read, in one chunk or many, with or without Content-Length", async () => {
    for (const [chunks, length] of [
      [[VALID_CALL], true],
      [split(VALID_CALL, 7), true],
      [split(VALID_CALL, 5), false],
    ] as const) {
      const answer = await post([...chunks], { length });
      expect(answer.status).toBe(200);
      expect(answer.body.result.isError).toBe(false);
      expect(touched).toBe(false);
    }
  });

  it("one byte more is 413: by Content-Length before reading, by counting when chunked", async () => {
    const over = `${VALID_CALL} `;
    for (const length of [true, false]) {
      rejections.length = 0;
      const answer = await post(split(over, 16), { length });
      expect(answer.status).toBe(413);
      expect(answer.body.error.code).toBe(-32600);
      expect(lastCode()).toBe("content-too-large");
      expect(touched).toBe(false);
      // RFC 9112 §9.6, as the HTTP door: a small Content-Length rest is drained and the
      // connection kept; a chunked rest of unknown length closes, lingering unread.
      expect(answer.headers.connection).toBe(length ? "keep-alive" : "close");
    }
  });

  it("a chunked body far past the limit is cut off and answered; the server goes on serving (control)", async () => {
    const answer = await post(
      Array.from({ length: 64 }, () => "x".repeat(16_384)),
      { length: false },
    );
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    expect(lastCode()).toBe("content-too-large");
    expect((await post([VALID_CALL])).status).toBe(200);
  });
});

describe("the body deadline and the coding refusals on the message path", () => {
  it("a body still arriving at the deadline is 400 (body-deadline); one that arrives in time acts", async () => {
    const answer = await post(['{"jsonrpc":"2.0",'], { length: false, end: false });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe("Invalid message framing");
    expect(lastCode()).toBe("body-deadline");
    expect(touched).toBe(false);
    expect((await post(split(VALID_CALL, 40), { length: false })).status).toBe(200);
  });

  it("a coded body is 415 unread (content-encoding); identity is read (control)", async () => {
    const coded = await post([VALID_CALL], { headers: { "content-encoding": "gzip" } });
    expect(coded.status).toBe(415);
    expect(lastCode()).toBe("content-encoding");
    expect(touched).toBe(false);
    expect((await post([VALID_CALL], { headers: { "content-encoding": "identity" } })).status).toBe(200);
  });
});

describe("refusals before reading leave request.body unbuilt", () => {
  it("Host, Origin, Content-Type, Accept and the arrival limit refuse without touching the body", async () => {
    const cases: [Record<string, string>, number][] = [
      [{ host: "evil.example" }, 403],
      [{ origin: "https://evil.example" }, 403],
      [{ "content-type": "text/plain" }, 415],
      [{ accept: "text/html" }, 406],
    ];
    for (const [headers, status] of cases) {
      const answer = await post([VALID_CALL], { headers });
      expect(answer.status).toBe(status);
      expect(touched).toBe(false);
    }
    limited = true;
    try {
      const answer = await post([VALID_CALL]);
      expect(answer.status).toBe(429);
      expect(answer.headers["retry-after"]).toBe("7");
      expect(touched).toBe(false);
    } finally {
      limited = false;
    }
    // Control: the same request with none of those acts.
    expect((await post([VALID_CALL])).status).toBe(200);
  });
});

describe("RFC 9112 §9.6 a message pipelined behind a refusal that closes the connection", () => {
  it("is not acted on unanswered: a 415 with a small chunked body, then a valid tools/call in one segment", async () => {
    const wire =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n" +
      "5\r\nhello\r\n0\r\n\r\n" +
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(VALID_CALL)}\r\n\r\n${VALID_CALL}`;
    const before = acted;
    const { received } = await exchange(port, [{ delayMs: 0, bytes: wire }], "wait", 3_000);
    const answers = statuses(received);
    expect(answers[0]).toBe(415);
    // Either the call is answered (the connection kept), or it never ran.
    expect(acted - before).toBe(answers.filter((status) => status === 200).length);
    // Control: the same call alone acts.
    expect((await post([VALID_CALL])).status).toBe(200);
    expect(acted - before).toBe(1 + answers.filter((status) => status === 200).length);
  });
});
