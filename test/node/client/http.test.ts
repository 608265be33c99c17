/**
 * `exchange` with `expectContinueMs` (the oversize probe of `check`): a server that answers a
 * large body from its head and then resets the connection (RFC 9112 §9.6: what a loaded
 * server does, and what lost `check` the answer) is heard, and gets none of the body; a
 * server that wants the body gets it. The servers are raw sockets on loopback, so that what
 * the client sent is counted byte by byte.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { exchange } from "../../../src/client/http.ts";

const BODY = new Uint8Array(2 * 1024 * 1024).fill(0x20);
const REFUSED = "HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

interface Raw {
  readonly url: string;
  /** Per connection: the request head, and the bytes after it that arrived. */
  readonly requests: { head: string; bodyBytes: number }[];
}

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

/** A raw server calling `onHead` once per connection when the head is in, with the socket. */
function rawServer(onHead: (socket: Socket, head: string, request: Raw["requests"][number]) => void): Promise<Raw> {
  const requests: Raw["requests"] = [];
  const server = createServer((socket) => {
    let buffered = Buffer.alloc(0);
    let request: Raw["requests"][number] | undefined;
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      if (request !== undefined) {
        request.bodyBytes += chunk.length;
        return;
      }
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end === -1) return;
      request = { head: buffered.subarray(0, end).toString("latin1"), bodyBytes: buffered.length - end - 4 };
      requests.push(request);
      onHead(socket, request.head, request);
    });
  });
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`, requests });
    }),
  );
}

const post = (url: string, expectContinueMs?: number) =>
  exchange(url, { method: "POST", headers: { "content-type": "application/json" }, body: BODY, expectContinueMs });

describe("exchange: Expect: 100-continue for a body a server may refuse from its head", () => {
  it("a server answering the head at once and resetting (as workerd) is heard, and gets none of the body", async () => {
    const raw = await rawServer((socket) => socket.end(REFUSED, () => socket.resetAndDestroy()));
    for (let i = 0; i < 10; i++) expect((await post(raw.url, 1_000)).status).toBe(413);
    expect(raw.requests).toHaveLength(10);
    for (const { head, bodyBytes } of raw.requests) {
      expect(head).toMatch(/\r\nexpect: 100-continue/i);
      expect(head).toMatch(/\r\ncontent-length: 2097152/i);
      expect(bodyBytes).toBe(0);
    }
  });

  it("a server sending 100 (Continue) and then at once its final answer (as Node, Bun, Deno) gets none of the body", async () => {
    const raw = await rawServer((socket) => {
      socket.write("HTTP/1.1 100 Continue\r\n\r\n");
      setImmediate(() => socket.end(REFUSED, () => socket.resetAndDestroy()));
    });
    for (let i = 0; i < 10; i++) expect((await post(raw.url, 1_000)).status).toBe(413);
    expect(raw.requests.map((request) => request.bodyBytes)).toEqual(Array(10).fill(0));
  });

  it("without expectContinueMs the body goes out with the head (control)", async () => {
    const raw = await rawServer((socket) => socket.end(REFUSED, () => socket.resetAndDestroy()));
    await post(raw.url).catch(() => undefined); // the answer may be lost: that is the point
    expect(raw.requests[0]!.head).not.toMatch(/expect:/i);
    expect(raw.requests[0]!.bodyBytes).toBeGreaterThan(0);
  });

  /** Answers 204 once the whole body has arrived (a server that wants the body before answering). */
  function answerOnceBodyArrived(socket: Socket, request: { readonly bodyBytes: number }): void {
    const check = () => {
      if (request.bodyBytes < BODY.byteLength) return;
      socket.off("data", check);
      socket.end("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
    };
    socket.on("data", check);
    check();
  }

  it("a server that wants the body (no 100, no answer) gets all of it after the wait, and its answer is read", async () => {
    const raw = await rawServer((socket, _head, request) => {
      answerOnceBodyArrived(socket, request);
    });
    const started = Date.now();
    expect((await post(raw.url, 50)).status).toBe(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(raw.requests[0]!.bodyBytes).toBe(BODY.byteLength);
  });

  it("417 (Expectation Failed) is answered by sending the request again with its body", async () => {
    const raw = await rawServer((socket, head, request) => {
      if (/\r\nexpect:/i.test(head)) {
        socket.end("HTTP/1.1 417 Expectation Failed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return;
      }
      answerOnceBodyArrived(socket, request);
    });
    expect((await post(raw.url, 1_000)).status).toBe(204);
    expect(raw.requests.map((request) => request.bodyBytes)).toEqual([0, BODY.byteLength]);
  });
});
