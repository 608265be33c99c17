/**
 * The body reader inside workerd, against the known ways around a size limit (issue 3; V1).
 */
import { describe, expect, it } from "vitest";
import { BodyReadError, ContentTooLargeError, readBody, runtimeFetch } from "../../src/body/index.ts";
import { PARSE_PADDING } from "../../src/json/parse.ts";
import { byteStreamSuite } from "../byte-stream-bodies.ts";

const MAX = 64;

interface SourceLog {
  pulls: number;
  cancelled: boolean;
  reason: unknown;
}

/** A body stream that records every pull and whether it was cancelled; pulled on demand only. */
function source(chunks: readonly Uint8Array[], failAt = -1): { stream: ReadableStream<Uint8Array>; log: SourceLog } {
  const log: SourceLog = { pulls: 0, cancelled: false, reason: undefined };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const index = log.pulls++;
        if (index === failAt) {
          controller.error(new TypeError("connection reset"));
          return;
        }
        const chunk = chunks[index];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
      cancel(reason) {
        log.cancelled = true;
        log.reason = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, log };
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const bytes = (n: number, fill = 0x61): Uint8Array => new Uint8Array(n).fill(fill);
const split = (n: number, size: number): Uint8Array[] =>
  Array.from({ length: Math.ceil(n / size) }, (_, i) => bytes(Math.min(size, n - i * size)));

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request("https://address.test/page", { method: "POST", body, headers });
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

describe("readBody: chunked bodies without Content-Length (V1)", () => {
  it("V1 accepts exactly maxBytes in several chunks", async () => {
    const { stream, log } = source(split(MAX, 10));
    const result = await readBody(post(stream), { maxBytes: MAX });
    expect(result.byteLength).toBe(MAX);
    expect(log.cancelled).toBe(false);
  });

  it("V1 rejects maxBytes + 1 in several chunks and cancels the source at the limit", async () => {
    const { stream, log } = source(split(MAX + 1, 10).concat(split(1000, 10)));
    const error = await rejection(readBody(post(stream), { maxBytes: MAX }));
    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect((error as ContentTooLargeError).code).toBe("content-too-large");
    expect((error as ContentTooLargeError).maxBytes).toBe(MAX);
    // Never more than maxBytes plus the one chunk that crossed it.
    expect((error as ContentTooLargeError).receivedBytes).toBeLessThanOrEqual(MAX + 10);
    expect((error as ContentTooLargeError).receivedBytes).toBeGreaterThan(MAX);
    await settle();
    expect(log.cancelled).toBe(true);
    // The source was not drained: reading stopped at the chunk that crossed the limit.
    expect(log.pulls).toBeLessThan(20);
  });

  it("V1 rejects one large chunk over the limit and cancels", async () => {
    const { stream, log } = source([bytes(MAX + 1), bytes(5)]);
    const error = await rejection(readBody(post(stream), { maxBytes: MAX }));
    expect(error).toBeInstanceOf(ContentTooLargeError);
    await settle();
    expect(log.cancelled).toBe(true);
  });

  it("keeps every byte in order across hundreds of chunks, with and without Content-Length, with the parser's zero padding after them", async () => {
    // Sizes 1..7 and distinct byte values, so that a chunk lost, repeated or misplaced shows.
    const chunks = Array.from({ length: 300 }, (_, i) => new Uint8Array(1 + (i % 7)).fill(i % 251));
    const whole = chunks.flatMap((chunk) => Array.from(chunk));
    for (const headers of [{}, { "content-length": String(whole.length) }] as Record<string, string>[]) {
      const result = await readBody(post(source(chunks).stream, headers), { maxBytes: whole.length });
      expect(Array.from(result)).toEqual(whole);
      const after = new Uint8Array(result.buffer, result.byteOffset + result.byteLength, PARSE_PADDING);
      expect(after.every((byte) => byte === 0)).toBe(true);
      const over = await rejection(readBody(post(source(chunks).stream, headers), { maxBytes: whole.length - 1 }));
      expect(over).toBeInstanceOf(ContentTooLargeError);
    }
  });

  it("accepts a one-chunk body of exactly maxBytes with its bytes intact", async () => {
    const encoded = new TextEncoder().encode("é€ 😀 ".repeat(MAX)).slice(0, MAX);
    const result = await readBody(post(encoded), { maxBytes: MAX });
    expect(Array.from(result)).toEqual(Array.from(encoded));
  });

  it("returns an empty Uint8Array for no body and for an empty body", async () => {
    const none = await readBody(post(null), { maxBytes: MAX });
    expect(none).toBeInstanceOf(Uint8Array);
    expect(none.byteLength).toBe(0);
    const empty = await readBody(post(source([]).stream), { maxBytes: MAX });
    expect(empty.byteLength).toBe(0);
    const zero = await readBody(post(source([]).stream), { maxBytes: 0 });
    expect(zero.byteLength).toBe(0);
  });

  it("maxBytes 0 rejects a single byte", async () => {
    const error = await rejection(readBody(post(source([bytes(1)]).stream), { maxBytes: 0 }));
    expect(error).toBeInstanceOf(ContentTooLargeError);
  });
});

describe("readBody: Content-Length can reject early, never accept", () => {
  it("V1 rejects a valid Content-Length above the limit before reading, and cancels", async () => {
    const { stream, log } = source(split(MAX + 1, 10));
    const error = await rejection(readBody(post(stream, { "content-length": String(MAX + 1) }), { maxBytes: MAX }));
    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect((error as ContentTooLargeError).declaredBytes).toBe(MAX + 1);
    expect((error as ContentTooLargeError).receivedBytes).toBe(0);
    await settle();
    expect(log.cancelled).toBe(true);
    expect(log.pulls).toBeLessThanOrEqual(1);
  });

  it("V1 rejects a huge decimal Content-Length early", async () => {
    const error = await rejection(
      readBody(post(source([bytes(1)]).stream, { "content-length": "99999999999999999999999" }), { maxBytes: MAX }),
    );
    expect(error).toBeInstanceOf(ContentTooLargeError);
  });

  it("accepts a correct Content-Length of exactly maxBytes (control)", async () => {
    const result = await readBody(post(source(split(MAX, 10)).stream, { "content-length": String(MAX) }), {
      maxBytes: MAX,
    });
    expect(result.byteLength).toBe(MAX);
  });

  it("V1 rejects a Content-Length smaller than the real body, cancelling at the declared length", async () => {
    const { stream, log } = source(split(1000, 10));
    const error = await rejection(readBody(post(stream, { "content-length": "5" }), { maxBytes: MAX }));
    expect(error).toBeInstanceOf(BodyReadError);
    expect((error as BodyReadError).code).toBe("content-length-mismatch");
    await settle();
    expect(log.cancelled).toBe(true);
    expect(log.pulls).toBeLessThan(5);
  });

  it("V1 a small Content-Length does not let an oversize body through", async () => {
    const { stream, log } = source(split(MAX * 4, 16));
    const error = await rejection(readBody(post(stream, { "content-length": String(MAX) }), { maxBytes: MAX }));
    expect(error).toBeInstanceOf(BodyReadError);
    expect((error as BodyReadError).code).toBe("content-length-mismatch");
    await settle();
    expect(log.cancelled).toBe(true);
  });

  it("rejects a Content-Length larger than the real body", async () => {
    const error = await rejection(
      readBody(post(source([bytes(10)]).stream, { "content-length": "20" }), { maxBytes: MAX }),
    );
    expect(error).toBeInstanceOf(BodyReadError);
    expect((error as BodyReadError).code).toBe("content-length-mismatch");
  });

  it("rejects a positive Content-Length with no body at all", async () => {
    const error = await rejection(readBody(post(null, { "content-length": "3" }), { maxBytes: MAX }));
    expect((error as BodyReadError).code).toBe("content-length-mismatch");
  });

  for (const [what, field] of [
    ["negative", "-1"],
    ["non-numeric", "abc"],
    ["empty", ""],
    ["+-prefixed", "+10"],
    ["a decimal fraction", "10.0"],
    ["hexadecimal", "0x10"],
    ["an exponent", "1e1"],
    ["duplicated (comma list of equal values)", "10, 10"],
    ["duplicated (comma list of different values)", "10, 1000"],
    ["with an inner space", "1 0"],
  ] as const) {
    it(`V1 rejects a ${what} Content-Length (${JSON.stringify(field)}) whatever the body`, async () => {
      const { stream, log } = source([bytes(10)]);
      const error = await rejection(readBody(post(stream, { "content-length": field }), { maxBytes: MAX }));
      expect(error).toBeInstanceOf(BodyReadError);
      expect((error as BodyReadError).code).toBe("content-length");
      await settle();
      expect(log.cancelled).toBe(true);
    });
  }

  it("the same 10-byte body with a correct Content-Length is accepted (control)", async () => {
    const result = await readBody(post(source([bytes(10)]).stream, { "content-length": "10" }), { maxBytes: MAX });
    expect(result.byteLength).toBe(10);
  });

  it("accepts surrounding spaces, which Headers trims as OWS (RFC 9110 §5.5)", async () => {
    const request = post(source([bytes(10)]).stream, { "content-length": " 10 " });
    expect(request.headers.get("content-length")).toBe("10");
    expect((await readBody(request, { maxBytes: MAX })).byteLength).toBe(10);
  });
});

describe("readBody: broken streams", () => {
  it("rejects a stream that errors halfway with BodyReadError body-read", async () => {
    const { stream } = source(split(40, 10), 2);
    const error = await rejection(readBody(post(stream), { maxBytes: MAX }));
    expect(error).toBeInstanceOf(BodyReadError);
    expect((error as BodyReadError).code).toBe("body-read");
  });

  it("the same stream without the error is accepted (control)", async () => {
    const { stream } = source(split(40, 10));
    expect((await readBody(post(stream), { maxBytes: MAX })).byteLength).toBe(40);
  });

  it("rejects a stream that yields something other than bytes; the same text as bytes passes (control)", async () => {
    const text = new ReadableStream<unknown>({
      start(controller) {
        controller.enqueue("{}");
        controller.close();
      },
    });
    const error = await rejection(readBody(post(text as ReadableStream<Uint8Array>), { maxBytes: MAX }));
    expect(error).toBeInstanceOf(BodyReadError);
    expect((error as BodyReadError).code).toBe("body-read");
    expect(Array.from(await readBody(post(source([encode("{}")]).stream), { maxBytes: MAX }))).toEqual([0x7b, 0x7d]);
  });

  it("accepts Content-Length 0 with no body", async () => {
    expect((await readBody(post(null, { "content-length": "0" }), { maxBytes: MAX })).byteLength).toBe(0);
  });

  it("rejects a body that was already read", async () => {
    const request = post("abc");
    await request.text();
    const error = await rejection(readBody(request, { maxBytes: MAX }));
    expect((error as BodyReadError).code).toBe("body-used");
  });

  it("throws RangeError for a bad maxBytes", async () => {
    for (const maxBytes of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(await rejection(readBody(post("a"), { maxBytes }))).toBeInstanceOf(RangeError);
    }
  });
});

/** A body that sends `chunks` one every `everyMs` milliseconds, then ends (or never does, with `end: false`). */
function trickle(chunks: readonly Uint8Array[], everyMs: number, end = true) {
  const log = { sent: 0, cancelled: false, reason: undefined as unknown };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        return new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            const chunk = chunks[log.sent];
            if (chunk !== undefined) {
              log.sent++;
              controller.enqueue(chunk);
            } else if (end) controller.close();
            // else: the client is still connected and sends nothing more
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
  return { stream, log };
}

describe("readBody: the deadline for the whole body (slow and vanished clients)", () => {
  it("rejects a body still arriving at the deadline with body-deadline, cancels it, and returns none of it", async () => {
    const { stream, log } = trickle(split(40, 1), 20); // one byte every 20 ms: 800 ms in all
    const started = Date.now();
    const error = await rejection(readBody(post(stream), { maxBytes: MAX, deadlineMs: 150 }));
    const took = Date.now() - started;
    expect(error).toBeInstanceOf(BodyReadError);
    expect((error as BodyReadError).code).toBe("body-deadline");
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(600);
    await settle();
    expect(log.cancelled).toBe(true);
    expect(log.sent).toBeLessThan(40);
  });

  it("the same trickle with time to spare is accepted whole (control)", async () => {
    const { stream } = trickle(split(10, 1), 5);
    expect((await readBody(post(stream), { maxBytes: MAX, deadlineMs: 2_000 })).byteLength).toBe(10);
  });

  it("a body that stops short of its Content-Length and then stays silent settles at the deadline", async () => {
    const { stream, log } = trickle([bytes(5)], 5, false);
    const error = await rejection(
      readBody(post(stream, { "content-length": "10" }), { maxBytes: MAX, deadlineMs: 100 }),
    );
    expect((error as BodyReadError).code).toBe("body-deadline");
    await settle();
    expect(log.cancelled).toBe(true);
  });

  it("a chunked body whose client vanished without an end settles at the deadline, leaving nothing pending", async () => {
    const { stream } = trickle([encode('{"title":"x"}')], 5, false);
    const outcome = await Promise.race([
      rejection(readBody(post(stream), { maxBytes: MAX, deadlineMs: 100 })),
      new Promise((resolve) => setTimeout(() => resolve("still pending"), 1_000)),
    ]);
    expect(outcome).toBeInstanceOf(BodyReadError);
    expect((outcome as BodyReadError).code).toBe("body-deadline");
  });

  it("the default deadline is a few seconds, and a body read in time is unaffected by it", async () => {
    const { DEFAULT_BODY_DEADLINE_MS } = await import("../../src/body/read-body.ts");
    expect(DEFAULT_BODY_DEADLINE_MS).toBeGreaterThanOrEqual(1_000);
    expect(DEFAULT_BODY_DEADLINE_MS).toBeLessThanOrEqual(10_000);
    expect((await readBody(post(source(split(40, 10)).stream), { maxBytes: MAX })).byteLength).toBe(40);
  });

  it("throws RangeError for a deadline that is not a positive number; Infinity means none", async () => {
    for (const deadlineMs of [0, -1, Number.NaN]) {
      expect(await rejection(readBody(post("a"), { maxBytes: MAX, deadlineMs }))).toBeInstanceOf(RangeError);
    }
    const { stream } = trickle(split(3, 1), 5);
    expect((await readBody(post(stream), { maxBytes: MAX, deadlineMs: Number.POSITIVE_INFINITY })).byteLength).toBe(3);
  });
});

byteStreamSuite("workerd", { readAtLeast: true });

describe("workerd: the reads a declared body costs", () => {
  it("a body that ends where its Content-Length says is read in one readAtLeast call, with no read to find its end", async () => {
    const prototype = ReadableStreamBYOBReader.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const calls: string[] = [];
    const originals = { read: prototype.read!, readAtLeast: prototype.readAtLeast! };
    for (const name of ["read", "readAtLeast"] as const) {
      prototype[name] = function (this: unknown, ...args: unknown[]) {
        calls.push(name);
        return originals[name].apply(this, args);
      };
    }
    let result: Uint8Array;
    try {
      result = await readBody(post(new Uint8Array(1024).fill(0x20), { "content-length": "1024" }), {
        maxBytes: 2048,
      });
    } finally {
      Object.assign(prototype, originals);
    }
    expect(result.byteLength).toBe(1024);
    expect(calls).toEqual(["readAtLeast"]);
  });
});

describe("workerd: a body the runtime framed (runtimeFetch)", () => {
  /** The request as a `runtimeFetch` handler passes it on: marked as the runtime's own. */
  const framed = (request: Request): Request => runtimeFetch((marked: Request) => marked)(request);

  it("is read whole by one arrayBuffer() call, with no reader driven from JavaScript", async () => {
    const prototype = ReadableStreamBYOBReader.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const originals = { readAtLeast: prototype.readAtLeast!, arrayBuffer: Request.prototype.arrayBuffer };
    const calls: string[] = [];
    prototype.readAtLeast = function (this: unknown, ...args: unknown[]) {
      calls.push("readAtLeast");
      return originals.readAtLeast.apply(this, args);
    };
    Request.prototype.arrayBuffer = function (this: Request) {
      calls.push("arrayBuffer");
      return originals.arrayBuffer.call(this);
    };
    const body = encode('{"title":"é"}');
    let result: Uint8Array;
    try {
      result = await readBody(framed(post(body, { "content-length": String(body.length) })), { maxBytes: MAX });
    } finally {
      Object.assign(prototype, { readAtLeast: originals.readAtLeast });
      Request.prototype.arrayBuffer = originals.arrayBuffer;
    }
    expect([...result]).toEqual([...body]);
    expect(calls).toEqual(["arrayBuffer"]);
  });

  it("V1 a Content-Length above the limit is refused before reading, as for any body", async () => {
    const { stream, log } = source(split(MAX + 1, 10));
    const error = await rejection(
      readBody(framed(post(stream, { "content-length": String(MAX + 1) })), { maxBytes: MAX }),
    );
    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect(log.pulls).toBe(0);
  });

  it("a body that ends short of its Content-Length is refused", async () => {
    const error = await rejection(
      readBody(framed(post(source(split(40, 10)).stream, { "content-length": "50" })), { maxBytes: MAX }),
    );
    expect((error as BodyReadError).code).toBe("content-length-mismatch");
  });

  it("a body still arriving at the deadline is refused then, without waiting for the read", async () => {
    const { stream } = trickle(split(40, 1), 20); // 800 ms in all
    const started = Date.now();
    const error = await rejection(
      readBody(framed(post(stream, { "content-length": "40" })), { maxBytes: MAX, deadlineMs: 150 }),
    );
    const took = Date.now() - started;
    expect((error as BodyReadError).code).toBe("body-deadline");
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(600);
  });

  it("a stream that fails is refused with body-read", async () => {
    const error = await rejection(
      readBody(framed(post(source(split(40, 10), 2).stream, { "content-length": "40" })), { maxBytes: MAX }),
    );
    expect((error as BodyReadError).code).toBe("body-read");
  });

  it("a body already read, or locked to a reader, is refused with body-used", async () => {
    const read = framed(post("abc", { "content-length": "3" }));
    await read.text();
    expect(((await rejection(readBody(read, { maxBytes: MAX }))) as BodyReadError).code).toBe("body-used");
    const locked = framed(post(source(split(40, 10)).stream, { "content-length": "40" }));
    locked.body?.getReader();
    expect(((await rejection(readBody(locked, { maxBytes: MAX }))) as BodyReadError).code).toBe("body-used");
  });

  it("its stream object is not asked for on the way to a read", async () => {
    // workerd defines `body` on Request.prototype or on a prototype it inherits from.
    let owner: object = Request.prototype;
    while (Object.getOwnPropertyDescriptor(owner, "body") === undefined) owner = Object.getPrototypeOf(owner);
    const descriptor = Object.getOwnPropertyDescriptor(owner, "body")!;
    let asked = 0;
    Object.defineProperty(owner, "body", {
      ...descriptor,
      get(this: Request) {
        asked++;
        return descriptor.get!.call(this);
      },
    });
    const body = encode("[1]");
    const request = framed(post(body, { "content-length": "3" }));
    asked = 0;
    let result: Uint8Array;
    try {
      result = await readBody(request, { maxBytes: MAX });
    } finally {
      Object.defineProperty(owner, "body", descriptor);
    }
    expect([...result]).toEqual([...body]);
    expect(asked).toBe(0);
  });

  it("without a Content-Length it is read chunk by chunk under the limit, as any body", async () => {
    const { stream, log } = source(split(MAX + 1, 10).concat(split(1000, 10)));
    const error = await rejection(readBody(framed(post(stream)), { maxBytes: MAX }));
    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect(log.pulls).toBeLessThan(10);
  });

  it("the mark is the caller's word: a request made by code under a Content-Length its body exceeds is read whole, then refused", async () => {
    // What runtimeFetch must only ever wrap a runtime's own handler for: workerd keeps a
    // `Content-Length` a `new Request(…, {body})` was given, whatever the body holds.
    const error = await rejection(
      readBody(framed(post(source(split(200, 10)).stream, { "content-length": "10" })), { maxBytes: MAX }),
    );
    expect((error as BodyReadError).code).toBe("content-length-mismatch");
    // Unmarked, the same request is cancelled at the declared length (control).
    const { stream, log } = source(split(200, 10));
    const unmarked = await rejection(readBody(post(stream, { "content-length": "10" }), { maxBytes: MAX }));
    expect((unmarked as BodyReadError).code).toBe("content-length-mismatch");
    await settle();
    expect(log.cancelled).toBe(true);
  });
});
