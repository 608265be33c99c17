/**
 * The body read straight from Node's message (src/body/node-message.ts, issue 16): on
 * @hono/node-server, `readBody` with `nodeMessageOf` reads the same bytes under the same limit
 * as from `request.body` (V1), and is used only for the server's own, unread request.
 */
import { Agent, request as httpRequest, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form as pageForm } from "../../../examples/pages/generated/page.js";
import { address } from "../../../src/address/address.ts";
import { BodyReadError } from "../../../src/body/body-read-error.ts";
import { ContentTooLargeError } from "../../../src/body/content-too-large-error.ts";
import { DRAIN_BYTES, LINGER_MS, nodeMessageOf, UNCLOSED_MS } from "../../../src/body/node-message.ts";
import { readBody } from "../../../src/body/read-body.ts";
import { validPage } from "../../runtimes/bodies.ts";
import { exchange, statuses, type Uploaded, upload } from "../../runtimes/raw-http.ts";

const MAX = 100_000;
/** The limit of `/large`, a route whose declared bodies may be large. */
const LARGE = 4 * 1_048_576;

/** What the route saw: whether the message was used, and the outcome of reading. */
interface Seen {
  message: boolean;
  bytes?: number;
  sha?: string;
  error?: string;
}

async function digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

let server: ServerType;
let port = 0;

beforeAll(async () => {
  const app = new Hono<{ Bindings: { incoming: unknown } }>();
  app.post("/read", async (c) => {
    const message = nodeMessageOf(c.req.raw, c.env);
    const seen: Seen = { message: message !== undefined };
    try {
      const bytes = await readBody(c.req.raw, { maxBytes: MAX, message });
      seen.bytes = bytes.byteLength;
      seen.sha = await digest(bytes);
    } catch (error) {
      seen.error = error instanceof ContentTooLargeError || error instanceof BodyReadError ? error.code : String(error);
    }
    return c.json(seen);
  });
  app.post("/slow", async (c) => {
    const message = nodeMessageOf(c.req.raw, c.env);
    try {
      const bytes = await readBody(c.req.raw, { maxBytes: MAX, deadlineMs: 300, message });
      return c.json({ message: message !== undefined, bytes: bytes.byteLength });
    } catch (error) {
      return c.json({
        message: message !== undefined,
        error: error instanceof BodyReadError ? error.code : String(error),
      });
    }
  });
  app.post("/large", async (c) => {
    const message = nodeMessageOf(c.req.raw, c.env);
    try {
      const bytes = await readBody(c.req.raw, { maxBytes: LARGE, deadlineMs: 5000, message });
      return c.json({ message: message !== undefined, bytes: bytes.byteLength, sha: await digest(bytes) });
    } catch (error) {
      return c.json({
        message: message !== undefined,
        error: error instanceof BodyReadError ? error.code : String(error),
      });
    }
  });
  // Controls: a request another handler replaced, and one whose body was already touched.
  app.post("/replaced", (c) => c.json({ message: nodeMessageOf(new Request(c.req.raw), c.env) !== undefined }));
  app.post("/touched", async (c) => {
    await c.req.raw.arrayBuffer();
    return c.json({ message: nodeMessageOf(c.req.raw, c.env) !== undefined });
  });
  app.post("/no-env", (c) => c.json({ message: nodeMessageOf(c.req.raw, undefined) !== undefined }));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** POSTs `chunks` (chunked when `length` is false), resolving with the status and JSON answer. */
function post(path: string, chunks: Uint8Array[], length = true): Promise<{ status: number; body: Seen }> {
  return new Promise((resolve, reject) => {
    const total = chunks.reduce((n, chunk) => n + chunk.byteLength, 0);
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: length ? { "content-length": String(total) } : { "transfer-encoding": "chunked" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (part: string) => (text += part));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Seen }));
      },
    );
    req.on("error", reject);
    let k = 0;
    const next = () => {
      while (k < chunks.length) {
        if (!req.write(chunks[k++]!)) return void req.once("drain", next);
      }
      req.end();
    };
    next();
  });
}

function bytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

function split(b: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
}

describe("V1 a body read from Node's message: the limit holds on the bytes read", () => {
  it("exactly maxBytes is read whole, in one chunk or many, with or without Content-Length", async () => {
    const body = bytes(MAX);
    const sha = await digest(body);
    for (const [chunks, length] of [
      [[body], true],
      [split(body, 1000), true],
      [split(body, 7), false],
    ] as const) {
      const { status, body: seen } = await post("/read", [...chunks], length);
      expect(status).toBe(200);
      expect(seen).toEqual({ message: true, bytes: MAX, sha });
    }
  });

  it("one byte more is rejected: by Content-Length before reading, by counting when chunked", async () => {
    const body = bytes(MAX + 1);
    expect((await post("/read", [body], true)).body).toEqual({ message: true, error: "content-too-large" });
    expect((await post("/read", split(body, 4096), false)).body).toEqual({ message: true, error: "content-too-large" });
  });

  it("a chunked body far past the limit is cut off and still answered (the message is paused, not destroyed)", async () => {
    const { status, body } = await post("/read", split(bytes(3 * MAX), 16_384), false);
    expect(status).toBe(200);
    expect(body).toEqual({ message: true, error: "content-too-large" });
    // The connection serves the next request (control).
    expect((await post("/read", [bytes(10)], true)).body.bytes).toBe(10);
  });

  it("an empty body gives no bytes; a one-byte body one byte", async () => {
    expect((await post("/read", [], true)).body).toEqual({
      message: true,
      bytes: 0,
      sha: await digest(new Uint8Array(0)),
    });
    expect((await post("/read", [bytes(1)], true)).body.bytes).toBe(1);
  });
});

describe("the body deadline holds when reading Node's message", () => {
  it("a chunked body still arriving at the deadline is rejected and answered; one that arrives in time is read", async () => {
    const answer = await new Promise<Seen>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, path: "/slow", method: "POST", headers: { "transfer-encoding": "chunked" } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (part: string) => (text += part));
          res.on("end", () => {
            req.destroy();
            resolve(JSON.parse(text) as Seen);
          });
        },
      );
      req.on("error", reject);
      req.write(bytes(10)); // and never ends
    });
    expect(answer).toEqual({ message: true, error: "body-deadline" });
    expect((await post("/slow", [bytes(10)], false)).body).toEqual({ message: true, bytes: 10 });
  });
});

describe("a body with Content-Length read from Node's message: the memory held follows the bytes received", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("20 requests declaring 4 MiB that sent two chunks of 1,000 bytes hold well under 4 MiB each (was the declared size at the second chunk)", async () => {
    const head = `POST /large HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: ${LARGE}\r\n\r\n`;
    const sockets: Socket[] = [];
    try {
      await sleep(50);
      const before = process.memoryUsage().arrayBuffers;
      for (let k = 0; k < 20; k++) {
        const socket = connect(port, "127.0.0.1");
        socket.setNoDelay(true);
        socket.on("error", () => {});
        sockets.push(socket);
        socket.write(head + "x".repeat(1000));
      }
      await sleep(100);
      for (const socket of sockets) socket.write("y".repeat(1000));
      await sleep(200);
      const held = process.memoryUsage().arrayBuffers - before;
      // Each read holds one buffer of 64 KiB (and its padding) by now; 20 × 4 MiB before.
      expect(held).toBeLessThan(20 * 256 * 1024);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it("a declared body sent in many small chunks is read whole and exact, the buffer doubling as it fills", async () => {
    const body = bytes(LARGE - 3, 7);
    const { body: seen } = await post("/large", split(body, 3000));
    expect(seen).toEqual({ message: true, bytes: body.byteLength, sha: await digest(body) });
    const one = await post("/large", [body]);
    expect(one.body).toEqual(seen);
  });
});

describe("the message is used only for the server's own, unread request", () => {
  it("not for a request a handler built anew, one whose body was read, or without Node's bindings", async () => {
    expect((await post("/replaced", [bytes(5)])).body.message).toBe(false);
    expect((await post("/touched", [bytes(5)])).body.message).toBe(false);
    expect((await post("/no-env", [bytes(5)])).body.message).toBe(false);
    // Control: the same body, the server's own unread request.
    expect((await post("/read", [bytes(5)])).body.message).toBe(true);
  });
});

describe("RFC 9112 §9.6 an unread body on Node: a small rest is drained and the connection kept; a large or unknown one gets a lingering close that reads nothing", () => {
  /**
   * Serves a page address (1 MiB limit) on @hono/node-server, runs `use` against its port, and
   * gives the server's sockets (to read their `bytesRead` and `destroyed`).
   */
  async function withAddress(
    use: (port: number, sockets: Socket[]) => Promise<void>,
    { dropConnectionField = false, autoCleanupIncoming = true, act = () => ({}) } = {},
  ): Promise<void> {
    const app = new Hono();
    if (dropConnectionField)
      app.use(async (c, next) => {
        await next();
        c.res.headers.delete("connection");
      });
    app.route("/page", address({ form: pageForm, act }));
    const sockets: Socket[] = [];
    const door = await new Promise<ServerType>((resolve) => {
      const started: ServerType = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0, autoCleanupIncoming }, () =>
        resolve(started),
      );
    });
    door.on("connection", (socket: Socket) => sockets.push(socket));
    try {
      await use((door.address() as AddressInfo).port, sockets);
    } finally {
      (door as Server).closeAllConnections(); // one served over node:http (serve's default)
      await new Promise<void>((resolve) => door.close(() => resolve()));
    }
  }

  /** {@link upload}s `total` bytes with `method` to the address (`Content-Length` unless `chunked`). */
  const send = (port: number, method: string, total: number, chunked: boolean, agent?: Agent): Promise<Uploaded> =>
    upload(`http://127.0.0.1:${port}/page`, method, total, chunked ? "chunked" : "content-length", { agent });

  it(`a 405 with a Content-Length up to ${DRAIN_BYTES} bytes, or none, is drained: no Connection: close, and the next request reuses the connection`, async () => {
    await withAddress(async (port, sockets) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (const [method, total] of [
          ["PUT", 5],
          ["DELETE", 0],
          ["PATCH", DRAIN_BYTES],
        ] as const) {
          const answer = await send(port, method, total, false, agent);
          expect(answer.status).toBe(405);
          expect(answer.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
          expect(answer.headers["content-length"]).toBe("0");
          expect(answer.headers.connection).not.toBe("close");
        }
        expect(sockets).toHaveLength(1);
      } finally {
        agent.destroy();
      }
    });
  });

  it("a 405 with a larger or chunked body, and an oversize act (32 MiB, with Content-Length or chunked): the answer arrives saying Connection: close, and the rest is never read", async () => {
    await withAddress(async (port, sockets) => {
      const cases = [
        { method: "PUT", total: DRAIN_BYTES + 1, chunked: false, status: 405 },
        { method: "PATCH", total: 5, chunked: true, status: 405 },
        { method: "POST", total: 32 << 20, chunked: false, status: 204 },
        { method: "POST", total: 32 << 20, chunked: true, status: 204 },
      ];
      for (const [k, { method, total, chunked, status }] of cases.entries()) {
        const answer = await send(port, method, total, chunked);
        expect(answer.status, `${method} ${total} ${chunked ? "chunked" : "Content-Length"}`).toBe(status);
        expect(answer.headers.connection).toBe("close");
        // Read: the head and the bytes that came with it; for the chunked act the 1 MiB the
        // address read before refusing. Never the rest of 32 MiB.
        expect(sockets[k]!.bytesRead).toBeLessThan(2 * 1_048_576);
      }
      // Each socket is destroyed once its linger (LINGER_MS) is over.
      const deadline = Date.now() + LINGER_MS + 2_000;
      while (sockets.some((socket) => !socket.destroyed) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sockets.map((socket) => socket.destroyed)).toEqual(cases.map(() => true));
    });
  });
  it(`an answer that lost its Connection: close (a middleware) still ends the socket that stopped reading: after @hono/node-server's drain gives up, or within ${UNCLOSED_MS} ms without it`, async () => {
    for (const autoCleanupIncoming of [true, false]) {
      await withAddress(
        async (port, sockets) => {
          const answer = await send(port, "POST", 32 << 20, false);
          const answered = Date.now();
          expect(answer.status).toBe(204);
          expect(answer.headers.connection).toBe("keep-alive");
          while (!sockets[0]!.destroyed && Date.now() - answered < UNCLOSED_MS + 2_000)
            await new Promise((resolve) => setTimeout(resolve, 50));
          expect(sockets[0]!.destroyed).toBe(true);
          // The drain's 500 ms and the linger's, or the fallback's.
          expect(Date.now() - answered).toBeGreaterThanOrEqual(autoCleanupIncoming ? 900 : UNCLOSED_MS - 100);
          expect(sockets[0]!.bytesRead).toBeLessThan(2 * 1_048_576);
        },
        { dropConnectionField: true, autoCleanupIncoming },
      );
    }
  }, 20_000);

  it("GET, HEAD and OPTIONS with a body (32 MiB, with Content-Length or chunked) are answered with Connection: close and the body is never read; a small one is drained and the connection kept", async () => {
    await withAddress(async (port, sockets) => {
      const cases = [
        { method: "GET", chunked: false, status: 200 },
        { method: "GET", chunked: true, status: 200 },
        { method: "HEAD", chunked: false, status: 200 },
        { method: "OPTIONS", chunked: false, status: 204 },
        { method: "OPTIONS", chunked: true, status: 204 },
      ];
      for (const [k, { method, chunked, status }] of cases.entries()) {
        const answer = await send(port, method, 32 << 20, chunked);
        expect(answer.status, `${method} ${chunked ? "chunked" : "Content-Length"}`).toBe(status);
        expect(answer.headers.connection).toBe("close");
        expect(sockets[k]!.bytesRead).toBeLessThan(1_048_576);
      }
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (const method of ["GET", "OPTIONS", "GET"]) {
          const answer = await send(port, method, 1_000, false, agent);
          expect(answer.headers.connection).not.toBe("close");
        }
        expect(sockets).toHaveLength(cases.length + 1);
      } finally {
        agent.destroy();
      }
    });
  });

  it("RFC 9112 §9.6 a request pipelined behind one whose answer closes the connection is not acted on unanswered", async () => {
    let acted = 0;
    await withAddress(
      async (port) => {
        const valid = JSON.stringify({ title: "t", blocks: [{ type: "paragraph", spans: [{ text: "x" }] }] });
        // One write: a 405 with a small chunked body (unknown length: a lingering close), then a valid act.
        const wire =
          "PUT /page HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" +
          `POST /page HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${valid.length}\r\n\r\n${valid}`;
        const { received } = await exchange(port, [{ delayMs: 0, bytes: wire }], "wait", 3_000);
        const answers = statuses(received);
        expect(answers[0]).toBe(405);
        // Either the act is answered (the connection kept), or it never ran.
        expect(acted).toBe(answers.filter((status) => status === 200).length);
      },
      {
        act: () => {
          acted++;
          return {};
        },
      },
    );
  });
});

describe("RFC 9110 §10.1.1 Expect: 100-continue on Node: the address invites a body only once it reads it", () => {
  /**
   * Sends a request head with `Expect: 100-continue` over a raw socket to an address on
   * @hono/node-server (with the example's `checkContinue` listener when `deferred`), and the
   * body once `100 Continue` comes; resolves with every status line received, in order.
   */
  async function expectContinue(body: Uint8Array, declared: number, deferred: boolean): Promise<number[]> {
    const app = new Hono();
    app.route("/page", address({ form: pageForm, act: () => ({ ok: true }) }));
    const door = await new Promise<ServerType>((resolve) => {
      const started: ServerType = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started));
    });
    if (deferred) door.on("checkContinue", (request, response) => door.emit("request", request, response));
    try {
      return await new Promise<number[]>((resolve, reject) => {
        const socket = connect((door.address() as AddressInfo).port, "127.0.0.1");
        let seen = "";
        let sent = false;
        const seenStatuses = () => statuses(seen);
        socket.on("data", (chunk: Buffer) => {
          seen += chunk.toString("latin1");
          const got = seenStatuses();
          if (got.includes(100) && !sent) {
            sent = true;
            socket.write(body);
          }
          if (got.some((status) => status !== 100) && /\r\n\r\n/.test(seen.slice(seen.lastIndexOf("HTTP/1.1")))) {
            socket.destroy();
            resolve(got);
          }
        });
        socket.on("error", reject);
        socket.write(
          `POST /page HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\nExpect: 100-continue\r\n\r\n`,
        );
      });
    } finally {
      (door as Server).closeAllConnections();
      await new Promise<void>((resolve) => door.close(() => resolve()));
    }
  }

  const valid = new TextEncoder().encode(validPage);

  it("with the checkContinue listener: an oversize Content-Length is answered 204 without 100 Continue; a body it reads gets 100 Continue first, then 200", async () => {
    expect(await expectContinue(new Uint8Array(0), 2 * 1_048_576, true)).toEqual([204]);
    expect(await expectContinue(valid, valid.byteLength, true)).toEqual([100, 200]);
  });

  it("without it (Node's default) Node sends 100 Continue itself, once, and the address sends none of its own", async () => {
    expect(await expectContinue(valid, valid.byteLength, false)).toEqual([100, 200]);
    expect(await expectContinue(new Uint8Array(0), 2 * 1_048_576, false)).toEqual([100, 204]);
  });

  it("RFC 9112 §9.6 with the checkContinue listener: an act pipelined behind a refusal that asked Expect: 100-continue (sent no 100, so Node closes) is not acted on unanswered", async () => {
    let acted = 0;
    const app = new Hono();
    app.route(
      "/page",
      address({
        form: pageForm,
        act: () => {
          acted++;
          return {};
        },
      }),
    );
    const door = await new Promise<ServerType>((resolve) => {
      const started: ServerType = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started));
    });
    door.on("checkContinue", (request, response) => door.emit("request", request, response));
    try {
      // One write: a stale If-Match (412, answered without 100 Continue) whose small body the
      // client sent at once, then a valid act.
      const wire =
        `POST /page HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nIf-Match: "stale"\r\nExpect: 100-continue\r\nContent-Length: ${valid.byteLength}\r\n\r\n${validPage}` +
        `POST /page HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${valid.byteLength}\r\n\r\n${validPage}`;
      const text = await new Promise<string>((resolve) => {
        const socket = connect((door.address() as AddressInfo).port, "127.0.0.1");
        let seen = "";
        socket.setEncoding("latin1");
        socket.on("data", (part: string) => (seen += part));
        socket.on("error", () => {});
        socket.on("close", () => resolve(seen));
        socket.on("connect", () => socket.write(wire));
        setTimeout(() => socket.destroy(), 3_000);
      });
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));
      expect(statuses[0]).toBe(412);
      // Either the act is answered (the connection kept), or it never ran.
      expect(acted).toBe(statuses.filter((status) => status === 200).length);
    } finally {
      (door as Server).closeAllConnections();
      await new Promise<void>((resolve) => door.close(() => resolve()));
    }
  });
});
