/**
 * The body reader's path for a byte stream with a valid `Content-Length` (`readDeclared` in
 * src/body/read-body.ts): the same cases on each runtime whose `Request` bodies are byte
 * streams: inside workerd (test/worker, with its `readAtLeast`) and on Node (test/node/body,
 * standard BYOB reads, as on Deno). V1: the limit and the declared length hold on the bytes
 * actually read; the deadline and a failing stream reject.
 */
import { describe, expect, it } from "vitest";
import { BodyReadError, ContentTooLargeError, readBody } from "../src/body/index.ts";
import { PARSE_PADDING, parseJson } from "../src/json/parse.ts";

const MAX = 64;

interface SourceLog {
  pulls: number;
  cancelled: boolean;
  reason: unknown;
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const bytes = (n: number, fill = 0x61): Uint8Array => new Uint8Array(n).fill(fill);
const split = (n: number, size: number): Uint8Array[] =>
  Array.from({ length: Math.ceil(n / size) }, (_, i) => bytes(Math.min(size, n - i * size)));

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request("https://address.test/page", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

/** Lets a cancel that crossed the runtime's own stream plumbing reach the source. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/**
 * A byte stream (`type: "bytes"`), as request bodies from the network are: pulled on demand,
 * each chunk enqueued whole; records pulls and cancellation like {@link source}. After the
 * chunks it ends, or errors (`failAt`: the pull that errors, a client that disconnected), or
 * stays silent (`end: false`).
 */
function byteSource(chunks: readonly Uint8Array[], options: { failAt?: number; end?: boolean; everyMs?: number } = {}) {
  const { failAt = -1, end = true, everyMs = 0 } = options;
  const log: SourceLog = { pulls: 0, cancelled: false, reason: undefined };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stream = new ReadableStream(
    {
      type: "bytes",
      pull(controller) {
        const index = log.pulls++;
        const step = () => {
          if (index === failAt) return controller.error(new TypeError("connection reset"));
          const chunk = chunks[index];
          if (chunk !== undefined) controller.enqueue(chunk.slice());
          else if (end) {
            controller.close();
            // A pending BYOB read must be answered after close (Streams §4.9.10).
            controller.byobRequest?.respond(0);
          }
        };
        if (everyMs === 0) return step();
        return new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            step();
            resolve();
          }, everyMs);
        });
      },
      cancel(reason) {
        clearTimeout(timer);
        log.cancelled = true;
        log.reason = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream: stream as ReadableStream<Uint8Array>, log };
}

/** `n` bytes counting up (mod 251), so that a byte out of place shows. */
const counting = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, k) => k % 251);
const pieces = (whole: Uint8Array, size: number): Uint8Array[] =>
  Array.from({ length: Math.ceil(whole.length / size) }, (_, i) => whole.subarray(i * size, (i + 1) * size));

export function byteStreamSuite(runtime: string, options: { readAtLeast: boolean }): void {
  describe(`${runtime}: readBody of a byte stream with Content-Length, read into one buffer (V1)`, () => {
    it(`the request bodies here are byte streams${options.readAtLeast ? " with workerd's readAtLeast" : ""}, so these tests take that path`, () => {
      const request = post(byteSource([bytes(3)]).stream, { "content-length": "3" });
      const reader = request.body!.getReader({ mode: "byob" });
      expect(typeof (reader as unknown as { readAtLeast?: unknown }).readAtLeast).toBe(
        options.readAtLeast ? "function" : "undefined",
      );
      reader.releaseLock();
      // A network-like body of bytes is one too.
      post(bytes(3)).body!.getReader({ mode: "byob" }).releaseLock();
    });

    it("accepts a body of exactly its Content-Length in several chunks, every byte in place", async () => {
      const whole = counting(MAX);
      const { stream, log } = byteSource(pieces(whole, 10));
      const result = await readBody(post(stream, { "content-length": String(MAX) }), { maxBytes: MAX });
      expect(Array.from(result)).toEqual(Array.from(whole));
      expect(log.cancelled).toBe(false);
    });

    it("leaves PARSE_PADDING zero bytes after the body in its buffer, which parseJson reads in place", async () => {
      const text = encode('{"a":[1,"é"]}');
      const result = await readBody(
        post(byteSource(pieces(text, 4)).stream, { "content-length": String(text.length) }),
        {
          maxBytes: MAX,
        },
      );
      expect(result.buffer.byteLength - result.byteOffset - result.length).toBeGreaterThanOrEqual(PARSE_PADDING);
      expect(Array.from(new Uint8Array(result.buffer, result.byteOffset + result.length, PARSE_PADDING))).toEqual(
        new Array(PARSE_PADDING).fill(0),
      );
      expect(parseJson(result)).toEqual({ a: [1, "é"] });
    });

    it("V1 rejects a body longer than its Content-Length, keeping at most one byte more, and cancels", async () => {
      const { stream, log } = byteSource(split(1000, 10));
      const error = await rejection(readBody(post(stream, { "content-length": "25" }), { maxBytes: MAX }));
      expect(error).toBeInstanceOf(BodyReadError);
      expect((error as BodyReadError).code).toBe("content-length-mismatch");
      expect((error as BodyReadError).message).toContain("26 or more");
      await settle();
      expect(log.cancelled).toBe(true);
      expect(log.pulls).toBeLessThan(5);
    });

    it("V1 rejects one chunk a byte longer than its Content-Length; the exact chunk is accepted (control)", async () => {
      const long = await rejection(
        readBody(post(byteSource([bytes(11)]).stream, { "content-length": "10" }), { maxBytes: MAX }),
      );
      expect((long as BodyReadError).code).toBe("content-length-mismatch");
      const exact = await readBody(post(byteSource([bytes(10)]).stream, { "content-length": "10" }), { maxBytes: MAX });
      expect(exact.byteLength).toBe(10);
    });

    it("rejects a body that ends short of its Content-Length", async () => {
      const error = await rejection(
        readBody(post(byteSource(split(15, 5)).stream, { "content-length": "20" }), { maxBytes: MAX }),
      );
      expect(error).toBeInstanceOf(BodyReadError);
      expect((error as BodyReadError).code).toBe("content-length-mismatch");
      expect((error as BodyReadError).message).toContain("(15 bytes)");
    });

    it("Content-Length 0: an empty byte stream is accepted, one byte is rejected", async () => {
      expect(
        (await readBody(post(byteSource([]).stream, { "content-length": "0" }), { maxBytes: MAX })).byteLength,
      ).toBe(0);
      const error = await rejection(
        readBody(post(byteSource([bytes(1)]).stream, { "content-length": "0" }), { maxBytes: MAX }),
      );
      expect((error as BodyReadError).code).toBe("content-length-mismatch");
    });

    it("V1 a declared length above maxBytes is rejected before any read; one at maxBytes is read (control)", async () => {
      const { stream, log } = byteSource(split(MAX + 1, 10));
      const error = await rejection(readBody(post(stream, { "content-length": String(MAX + 1) }), { maxBytes: MAX }));
      expect(error).toBeInstanceOf(ContentTooLargeError);
      expect((error as ContentTooLargeError).receivedBytes).toBe(0);
      await settle();
      expect(log.cancelled).toBe(true);
      expect(log.pulls).toBe(0);
    });

    it("rejects a body whose stream fails halfway (a client that disconnected) with body-read", async () => {
      const error = await rejection(
        readBody(post(byteSource(split(40, 10), { failAt: 2 }).stream, { "content-length": "40" }), { maxBytes: MAX }),
      );
      expect(error).toBeInstanceOf(BodyReadError);
      expect((error as BodyReadError).code).toBe("body-read");
    });

    it("a body larger than the first buffer is read whole, every byte in place, and a short one rejected", async () => {
      const whole = counting(200_000);
      const result = await readBody(post(byteSource(pieces(whole, 4096)).stream, { "content-length": "200000" }), {
        maxBytes: 1 << 20,
      });
      expect(result.byteLength).toBe(200_000);
      expect(result.every((byte, k) => byte === k % 251)).toBe(true);
      const short = await rejection(
        readBody(post(byteSource(pieces(whole, 4096)).stream, { "content-length": "200001" }), { maxBytes: 1 << 20 }),
      );
      expect((short as BodyReadError).code).toBe("content-length-mismatch");
      const long = await rejection(
        readBody(post(byteSource(pieces(whole, 4096)).stream, { "content-length": "199999" }), { maxBytes: 1 << 20 }),
      );
      expect((long as BodyReadError).code).toBe("content-length-mismatch");
    });

    it("a body that stops short of its Content-Length and stays silent is cancelled at the deadline", async () => {
      const { stream, log } = byteSource([bytes(5)], { end: false, everyMs: 5 });
      const started = Date.now();
      const error = await rejection(
        readBody(post(stream, { "content-length": "10" }), { maxBytes: MAX, deadlineMs: 100 }),
      );
      expect((error as BodyReadError).code).toBe("body-deadline");
      expect(Date.now() - started).toBeLessThan(600);
      await settle();
      expect(log.cancelled).toBe(true);
    });

    it("a trickle that ends after the deadline is rejected; the same trickle in time is accepted (control)", async () => {
      const late = byteSource(split(40, 1), { everyMs: 20 });
      const error = await rejection(
        readBody(post(late.stream, { "content-length": "40" }), { maxBytes: MAX, deadlineMs: 150 }),
      );
      expect((error as BodyReadError).code).toBe("body-deadline");
      expect(late.log.pulls).toBeLessThan(40);
      const timely = byteSource(split(10, 1), { everyMs: 5 });
      expect(
        (await readBody(post(timely.stream, { "content-length": "10" }), { maxBytes: MAX, deadlineMs: 2_000 }))
          .byteLength,
      ).toBe(10);
    });
  });

  describe(`${runtime}: readBody with a headLimit (the MCP door's tool bound, issue 31)`, () => {
    /** A head limit of `bytes` bytes deciding `bound`, recording the heads it was given. */
    const deciding = (bytes: number, bound: number) => {
      const heads: number[][] = [];
      const limit = (head: Uint8Array) => {
        heads.push(Array.from(head));
        return bound;
      };
      return { heads, headLimit: { bytes, limit } };
    };

    it("a Content-Length over what the head decides is refused once the head arrived, the rest unread", async () => {
      // 200 pieces of 1,000 bytes: past the first buffer (64 KiB), which workerd's readAtLeast fills at once.
      const { stream, log } = byteSource(pieces(counting(200_000), 1_000));
      const { heads, headLimit } = deciding(32, 100);
      const error = await rejection(
        readBody(post(stream, { "content-length": "200000" }), { maxBytes: 1 << 20, headLimit }),
      );
      expect(error).toBeInstanceOf(ContentTooLargeError);
      expect((error as ContentTooLargeError).maxBytes).toBe(100);
      expect(heads).toEqual([Array.from(counting(32))]);
      await settle();
      expect(log.cancelled).toBe(true);
      expect(log.pulls).toBeLessThan(100);
    });

    it("a body within what the head decides is read whole; one shorter than the head is never judged by it", async () => {
      const within = deciding(32, 400);
      const whole = await readBody(post(byteSource(pieces(counting(400), 10)).stream, { "content-length": "400" }), {
        maxBytes: 1000,
        headLimit: within.headLimit,
      });
      expect(whole.every((byte, k) => byte === k % 251) && whole.length === 400).toBe(true);
      expect(within.heads).toHaveLength(1);
      const short = deciding(32, 1);
      const small = await readBody(post(byteSource([bytes(31)]).stream, { "content-length": "31" }), {
        maxBytes: 1000,
        headLimit: short.headLimit,
      });
      expect(small.byteLength).toBe(31);
      expect(short.heads).toHaveLength(0);
    });

    it("without Content-Length, the head is gathered across chunks and the rest held to its bound", async () => {
      // One-byte chunks: the head spans the chunks kept and the buffer they are gathered into.
      const { stream, log } = byteSource(pieces(counting(400), 1));
      const { heads, headLimit } = deciding(100, 140);
      const error = await rejection(readBody(post(stream), { maxBytes: 1000, headLimit }));
      expect(error).toBeInstanceOf(ContentTooLargeError);
      expect((error as ContentTooLargeError).maxBytes).toBe(140);
      expect((error as ContentTooLargeError).receivedBytes).toBe(141);
      expect(heads).toEqual([Array.from(counting(100))]);
      await settle();
      expect(log.cancelled).toBe(true);
      const ok = deciding(100, 400);
      const read = await readBody(post(byteSource(pieces(counting(400), 3)).stream), {
        maxBytes: 1000,
        headLimit: ok.headLimit,
      });
      expect(read.every((byte, k) => byte === k % 251) && read.length === 400).toBe(true);
      expect(ok.heads).toEqual([Array.from(counting(100))]);
    });

    it("the head never raises the limit above maxBytes", async () => {
      const { headLimit } = deciding(8, 10_000);
      const error = await rejection(
        readBody(post(byteSource(pieces(counting(100), 10)).stream), { maxBytes: MAX, headLimit }),
      );
      expect((error as ContentTooLargeError).maxBytes).toBe(MAX);
    });
  });
}
