/**
 * Slow and broken clients against one runtime serving the example (issue 15, section 4): a body
 * at one byte a time, a body that stops short of its `Content-Length`, a chunked body cut off
 * before its last chunk, header fields at one byte a time. Called by the wire suite with its
 * running server. What each runtime does, and why: docs/operations.md, "Slow and broken clients".
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_BODY_DEADLINE_MS } from "../../src/body/read-body.ts";
import { serverTimeouts } from "../../src/node/index.ts";
import { validPage } from "./bodies.ts";
import type { RuntimeName } from "./harness.ts";
import { chunk, type Exchange, exchange, LAST_CHUNK, postHead, trickle } from "./raw-http.ts";

/** How long after the body deadline a runtime may take to answer and close: 3 s. */
const SLACK_MS = 3_000;
/** The latest a server with the example's timeouts closes slow header fields: 6 s. */
const HEADERS_TIMEOUT_MS = serverTimeouts.headersTimeout + serverTimeouts.connectionsCheckingInterval;

const page = new TextEncoder().encode(validPage);
const half = validPage.length >> 1;

/**
 * The runtimes served with the example's server timeouts (src/node/index.ts), which
 * bound slow header fields. workerd sets none of its own here: it closes a connection whose
 * head has not arrived after 15 s, a bound of its own that nothing configures.
 */
const HEADER_TIMEOUT: ReadonlySet<RuntimeName> = new Set(["node", "bun", "deno", "vercel"]);

/**
 * Whether the server gave up on the body within `withinMs`: no act (never 200, never 5xx), and
 * the connection closed by then (a runtime that kept reading the rest would hold it open).
 */
function expectCutOff(what: string, seen: Exchange, withinMs: number) {
  expect(seen.status, `${what}: ${seen.received.slice(0, 80)}`).not.toBe(200);
  expect(seen.status === null || seen.status < 500, `${what}: status ${seen.status}`).toBe(true);
  expect(seen.closedMs, `${what}: still connected after ${withinMs} ms`).not.toBeNull();
  expect(seen.closedMs!, what).toBeLessThanOrEqual(withinMs);
}

export function slowClientSuite(name: RuntimeName, base: () => string): void {
  const port = () => Number(new URL(base()).port);

  describe(`${name}: slow and broken clients`, () => {
    it("S1 a body at one byte per 400 ms is cut off at the deadline, with or without Content-Length, or short of it; a slow but timely act passes (control)", async () => {
      const within = DEFAULT_BODY_DEADLINE_MS + SLACK_MS;
      const slowBody = validPage.slice(0, 40);
      const [sized, chunked, short, control] = await Promise.all([
        exchange(
          port(),
          [{ delayMs: 0, bytes: postHead("/page", [`Content-Length: ${page.byteLength}`]) }, ...trickle(slowBody, 400)],
          "wait",
          within,
        ),
        exchange(
          port(),
          [
            { delayMs: 0, bytes: postHead("/page", ["Transfer-Encoding: chunked"]) },
            ...trickle(slowBody, 400).map((p) => ({ delayMs: p.delayMs, bytes: chunk(p.bytes as string) })),
          ],
          "wait",
          within,
        ),
        exchange(
          port(),
          [
            { delayMs: 0, bytes: postHead("/page", [`Content-Length: ${page.byteLength + 10}`]) },
            { delayMs: 0, bytes: page },
          ],
          "wait",
          within,
        ),
        exchange(
          port(),
          [
            { delayMs: 0, bytes: postHead("/page", [`Content-Length: ${page.byteLength}`, "Connection: close"]) },
            { delayMs: 300, bytes: page.subarray(0, half) },
            { delayMs: 300, bytes: page.subarray(half) },
          ],
          "wait",
          within,
        ),
      ]);
      expectCutOff("Content-Length, one byte at a time", sized, within);
      expectCutOff("chunked, one byte at a time", chunked, within);
      expectCutOff("stops short of Content-Length", short, within);
      expect((sized.answeredMs ?? sized.closedMs)!).toBeGreaterThanOrEqual(DEFAULT_BODY_DEADLINE_MS - 500);
      expect(control.status, control.received.slice(0, 200)).toBe(200);
    });

    it("RFC 9112 §7.1 a chunked act cut off before its last chunk is never acted on; the same chunks with the last chunk are (control)", async () => {
      const chunks = [chunk(page.subarray(0, half)), chunk(page.subarray(half))];
      const head = { delayMs: 0, bytes: postHead("/page", ["Transfer-Encoding: chunked"]) };
      const cut = await Promise.all(
        Array.from({ length: 5 }, () =>
          exchange(port(), [head, ...chunks.map((bytes) => ({ delayMs: 20, bytes }))], "half-close", 10_000),
        ),
      );
      for (const seen of cut) {
        expect(seen.status, seen.received.slice(0, 120)).not.toBe(200);
        expect(seen.status === null || seen.status < 500).toBe(true);
      }
      const whole = await exchange(
        port(),
        [
          { delayMs: 0, bytes: postHead("/page", ["Transfer-Encoding: chunked", "Connection: close"]) },
          ...chunks.map((bytes) => ({ delayMs: 20, bytes })),
          { delayMs: 0, bytes: LAST_CHUNK },
        ],
        "wait",
        10_000,
      );
      expect(whole.status, whole.received.slice(0, 200)).toBe(200);
    });

    it("RFC 9112 §8 a Content-Length act cut off mid-body (half-close or reset) is never acted on; the same act whole is (control)", async () => {
      const head = { delayMs: 0, bytes: postHead("/page", [`Content-Length: ${page.byteLength}`]) };
      const cut = (ending: "half-close" | "destroy") =>
        exchange(port(), [head, { delayMs: 20, bytes: page.subarray(0, half) }], ending, 10_000);
      const [halfClosed, reset] = await Promise.all([
        Promise.all(Array.from({ length: 3 }, () => cut("half-close"))),
        Promise.all(Array.from({ length: 3 }, () => cut("destroy"))),
      ]);
      for (const seen of [...halfClosed, ...reset]) {
        expect(seen.status, seen.received.slice(0, 120)).not.toBe(200);
        expect(seen.status === null || seen.status < 500, `status ${seen.status}`).toBe(true);
      }
      const whole = await exchange(
        port(),
        [
          { delayMs: 0, bytes: postHead("/page", [`Content-Length: ${page.byteLength}`, "Connection: close"]) },
          { delayMs: 20, bytes: page.subarray(0, half) },
          { delayMs: 20, bytes: page.subarray(half) },
        ],
        "wait",
        10_000,
      );
      expect(whole.status, whole.received.slice(0, 200)).toBe(200);
    });

    if (HEADER_TIMEOUT.has(name)) {
      it("S1 header fields at one byte per 500 ms are cut off by the server's header timeout; a complete head is answered (control)", async () => {
        const head = "GET /page HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
        const [slow, control] = await Promise.all([
          exchange(port(), trickle(head, 500), "wait", HEADERS_TIMEOUT_MS + SLACK_MS),
          exchange(
            port(),
            [{ delayMs: 0, bytes: head.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n") }],
            "wait",
            5_000,
          ),
        ]);
        expect(slow.status).not.toBe(200);
        expect(slow.closedMs, "still connected").not.toBeNull();
        expect(slow.closedMs!).toBeLessThanOrEqual(HEADERS_TIMEOUT_MS + SLACK_MS);
        expect(control.status).toBe(200);
      });
    }
  });
}
