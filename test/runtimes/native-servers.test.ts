/**
 * `SERVER=native` on Bun and local Deno: the entries serve with `Bun.serve` / `Deno.serve`
 * instead of the `node:http` server with timeouts (`serve` of gpt-address/node, src/node/index.ts), for use
 * behind a proxy that bounds slow clients (docs/operations.md, "Slow and broken clients"). The
 * address answers as usual, and the rate limits still key on the connection's address, read
 * through that server's own Hono adapter (`hono/bun`, `hono/deno`).
 */
import { type IncomingMessage, request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { launch, type Running } from "./harness.ts";
import { exchange, postHead } from "./raw-http.ts";

/** The `Keep-Alive` field of the last answer: node:http sends `timeout=5`; Bun.serve and Deno.serve none. */
let keepAlive: string | undefined;

/** A GET of `/page` from `localAddress`: the status. */
function arrive(server: Running, localAddress: string): Promise<number> {
  const url = new URL("/page", server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, localAddress },
      (res: IncomingMessage) => {
        keepAlive = res.headers["keep-alive"]?.toString();
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

for (const name of ["bun", "deno"] as const) {
  describe(`${name} with SERVER=native`, { timeout: 120_000 }, () => {
    let server: Running | undefined;
    afterAll(async () => server?.stop());

    it("serves the address, and limits arrivals per connection address", async () => {
      server = await launch(name, { SERVER: "native", RATE_LIMIT: "1,2" });
      // The launcher's own readiness check (a preflight) spends no arrival.
      expect([await arrive(server, "127.0.0.1"), await arrive(server, "127.0.0.1")]).toEqual([200, 200]);
      expect(await arrive(server, "127.0.0.1")).toBe(429);
      // Another client address has a budget of its own: the key is the peer, not "unknown".
      expect(await arrive(server, "127.0.0.2")).toBe(200);
      // Served by the runtime's own server, not node:http.
      expect(keepAlive).toBeUndefined();
    });

    it("control: without the setting the entry serves with node:http", async () => {
      const plain = await launch(name);
      try {
        expect(await arrive(plain, "127.0.0.1")).toBe(200);
        expect(keepAlive).toMatch(/timeout=/);
      } finally {
        await plain.stop();
      }
    });
  });
}

/**
 * A body shorter than its `Content-Length`, then a half-close (the client shuts down writing):
 * what answers depends on the runtime's server, never on the address (docs/operations.md,
 * "Slow and broken clients"). The address sees the body fail and answers 204, but `Bun.serve`
 * and Deno's `node:http` close the connection without writing it; Bun's `node:http` answers
 * 400 from its own parser, and `Deno.serve` writes the 204. Nothing is acted on either way.
 */
for (const [name, server, status] of [
  ["bun", "native", null],
  ["bun", "node:http", 400],
  ["deno", "native", 204],
  ["deno", "node:http", null],
] as const) {
  it(`${name} (${server}): a short body and a half-close get ${status ?? "no answer"}, nothing acted on`, {
    timeout: 60_000,
  }, async () => {
    const running = await launch(name, server === "native" ? { SERVER: "native" } : {});
    try {
      const port = Number(new URL(running.url).port);
      const head = postHead("/page", ["Content-Length: 100"]);
      const answers = [];
      for (const body of ['{"title":', ""]) {
        const seen = await exchange(port, [{ delayMs: 0, bytes: head + body }], "half-close", 5_000);
        answers.push([seen.status, seen.closedMs === null ? "open" : "closed"]);
      }
      expect(answers).toEqual([
        [status, "closed"],
        [status, "closed"],
      ]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(running.output()).not.toMatch(/"status":200/);
      // Where nothing came back, the address had answered: the runtime did not write it.
      if (status === null) expect(running.output()).toMatch(/"status":204,"code":"body-read"/);
    } finally {
      await running.stop();
    }
  });
}
