/**
 * The HTTP server the Node, Bun and local Deno entries share: `node:http` through
 * @hono/node-server, with timeouts that close slow clients the address never sees.
 *
 * Why `node:http` on Bun and Deno too: it is the only server there that bounds slow header
 * fields, and the only one on Deno that closes a connection whose body the address gave up on
 * (docs/operations.md, "Slow and broken clients"). `Bun.serve` (Bun 1.4.4) has only
 * `idleTimeout`, which every byte resets; `Deno.serve` (Deno 2.9.6) has no timeout and reads
 * the rest of an abandoned body, `Connection: close` or not. Bun's and Deno's `node:http`
 * honour `headersTimeout`, `requestTimeout` and `connectionsCheckingInterval` as Node does.
 *
 * @module
 */
import { serve } from "@hono/node-server";
import { onNodeItself } from "../../src/body/node-message.ts";

/**
 * The server's own limits, in milliseconds (Node's `http.createServer` options): header fields
 * must arrive within 5 s and the whole request within 15 s (the address's body deadline, 5 s,
 * answers first), checked every second. Node's default check interval, 30 s, lets a client
 * sending one header byte a second live that long; a slow client is closed within
 * `headersTimeout + connectionsCheckingInterval`, 6 s. With a 408 answer, before any address runs.
 */
export const serverTimeouts = { headersTimeout: 5_000, requestTimeout: 15_000, connectionsCheckingInterval: 1_000 };

/**
 * Serves `fetch` on 127.0.0.1:`port` with {@link serverTimeouts}, and logs
 * `listening on http://127.0.0.1:<port>/` once it listens (the wire suite's launcher waits for
 * an answer, not for the line).
 *
 * @param fetch - the app's handler (`app.fetch`).
 * @param port - the TCP port; 0 picks a free one.
 */
export function serveWithTimeouts(fetch: Parameters<typeof serve>[0]["fetch"], port: number): void {
  const server = serve({ fetch, hostname: "127.0.0.1", port, serverOptions: serverTimeouts }, (info) => {
    console.log(`listening on http://127.0.0.1:${info.port}/`);
  });
  // On Node, `Expect: 100-continue` is left to the addresses: Node would otherwise send
  // `100 Continue` before any of them ran, inviting a body they refuse by its declared size, a
  // rate limit or a pin; they send it once they are about to read (`continuePending`). Not on
  // Bun's and Deno's `node:http`, whose responses keep no such record.
  if (onNodeItself()) server.on("checkContinue", (request, response) => server.emit("request", request, response));
}
