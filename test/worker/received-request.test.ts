import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../examples/pages/worker.ts";
import { receivedRequest } from "../../src/workers/received-request.ts";

/** The worker awaits everything it does; nothing is left for waitUntil. */
function createExecutionContext(): ExecutionContext {
  return { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
}

/** A body of `count` chunks of `size` bytes each that records how much of it was pulled. */
function countedBody(count: number, size: number) {
  const seen = { chunks: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.chunks === count) return controller.close();
      seen.chunks++;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

describe("receivedRequest (npm start's workaround for wrangler dev)", () => {
  it("reads the whole upload and keeps method, URL, header fields and bytes", async () => {
    const { body, seen } = countedBody(3, 4);
    const received = await receivedRequest(
      new Request("http://x.test/page?q=1", {
        method: "POST",
        body,
        headers: { "Content-Type": "text/plain", "GPT-Actor": "a" },
      }),
    );
    expect(seen).toEqual({ chunks: 3, cancelled: false });
    expect(received.method).toBe("POST");
    expect(received.url).toBe("http://x.test/page?q=1");
    expect(received.headers.get("GPT-Actor")).toBe("a");
    expect(new Uint8Array(await received.arrayBuffer())).toEqual(new Uint8Array(12).fill(0x20));
  });

  it("a GET or HEAD that came with content (possible from the network, not from the Request constructor) is read to its end and passed on without it, never a 500", async () => {
    for (const method of ["GET", "HEAD"]) {
      const { body, seen } = countedBody(2, 4);
      // The constructor refuses a GET with a body; workerd's incoming requests can have one.
      const incoming = {
        method,
        url: "http://x.test/page",
        headers: new Headers({ "GPT-Actor": "a", "Content-Length": "8" }),
        body,
      } as unknown as Request;
      const received = await receivedRequest(incoming);
      expect(seen).toEqual({ chunks: 2, cancelled: false });
      expect(received.method).toBe(method);
      expect(received.url).toBe("http://x.test/page");
      expect(received.headers.get("GPT-Actor")).toBe("a");
      expect(received.body).toBeNull();
      // Through the worker, as under npm start: the form, not a 500.
      const again = { ...(incoming as unknown as Record<string, unknown>), body: countedBody(2, 4).body };
      const answer = await worker.fetch(
        again as unknown as Parameters<typeof worker.fetch>[0],
        { ...env, DRAIN_REQUEST_BODIES: "true" },
        createExecutionContext(),
      );
      expect(answer.status).toBe(200);
    }
  });

  it("a failed upload stays a failed body", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([0x7b]));
        controller.error(new Error("client went away"));
      },
    });
    const received = await receivedRequest(new Request("http://x.test/", { method: "POST", body }));
    await expect(received.arrayBuffer()).rejects.toThrow("client went away");
  });

  it("S1 a body still arriving at the deadline becomes a failed body; one that ends in time is whole (control)", async () => {
    const slow = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([0x7b]));
        // and then nothing: the client is still connected and sends no more
      },
    });
    const started = Date.now();
    const received = await receivedRequest(new Request("http://x.test/", { method: "POST", body: slow }), 100);
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(received.arrayBuffer()).rejects.toThrow("did not arrive within 100 ms");
    const { body } = countedBody(3, 4);
    const whole = await receivedRequest(new Request("http://x.test/", { method: "POST", body }), 100);
    expect((await whole.arrayBuffer()).byteLength).toBe(12);
  });

  it("V1 R2 with DRAIN_REQUEST_BODIES the worker reads an oversize upload to its end, then answers 204", async () => {
    const { body, seen } = countedBody(40, 64 * 1024); // 2.5 MiB, over the page address's 1 MiB
    const response = await worker.fetch(
      new Request("http://x.test/page", { method: "POST", body }),
      { ...env, DRAIN_REQUEST_BODIES: "true" },
      createExecutionContext(),
    );
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(seen.chunks).toBe(40);
  });

  it("without DRAIN_REQUEST_BODIES (a deployed worker) the address stops reading at the limit", async () => {
    const { body, seen } = countedBody(40, 64 * 1024);
    const response = await worker.fetch(
      new Request("http://x.test/page", { method: "POST", body }),
      env,
      createExecutionContext(),
    );
    expect(response.status).toBe(204);
    expect(seen.chunks).toBeLessThan(40);
    expect(seen.cancelled).toBe(true);
  });
});
