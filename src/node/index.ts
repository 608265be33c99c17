/**
 * gpt-address/node: serve a Hono app of addresses over `node:http` (Node, and the `node:http`
 * of Bun and Deno), with the server limits a public address needs.
 *
 * {@link serve} is @hono/node-server's `serve` with three things added:
 *
 * - **Timeouts** ({@link serverTimeouts}): header fields must arrive within 5 s and the whole
 *   request within 15 s, checked every second, answered 408 before any address runs. Node's
 *   defaults (a 30 s check interval) let a client sending one header byte a second hold a
 *   connection that long.
 * - **`Expect: 100-continue`** is left to the addresses (RFC 9110 §10.1.1): Node would send
 *   `100 Continue` before any address ran, inviting a body it refuses by its declared size, a
 *   rate limit or a pin; the address sends it once it is about to read. Node itself only:
 *   Bun's and Deno's `node:http` keep no such record (`continuePending`).
 * - **The message path**: with @hono/node-server's bindings (`c.env.incoming`), an address
 *   reads the body from Node's message itself, not through a web stream (`nodeMessageOf`).
 *
 * Why `node:http` on Bun and Deno too: it is the only server there that bounds slow header
 * fields, and the only one on Deno that closes a connection whose body the address gave up on
 * (docs/operations.md, "Slow and broken clients").
 *
 * @example
 * ```ts
 * import { serve } from "gpt-address/node";
 * import app from "./app.ts";
 *
 * serve(app, { port: Number(process.env.PORT ?? 8787) });
 * ```
 * @module
 */
import type { AddressInfo } from "node:net";
import { serve as honoServe, type ServerType } from "@hono/node-server";
import { onNodeItself } from "../body/node-message.ts";

/**
 * The server's own limits, in milliseconds (`http.createServer` options): header fields within
 * 5 s, the whole request within 15 s (an address's body deadline, 5 s, answers first), checked
 * every second, so a slow client is closed within `headersTimeout + connectionsCheckingInterval`,
 * 6 s.
 */
export const serverTimeouts = Object.freeze({
  headersTimeout: 5_000,
  requestTimeout: 15_000,
  connectionsCheckingInterval: 1_000,
});

/** What {@link serve} needs of an app: Hono's `fetch`. */
export interface FetchApp {
  fetch(request: Request, env: never): Response | Promise<Response>;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  /** The TCP port; 0 picks a free one. Default 8787. */
  readonly port?: number;
  /**
   * The interface to listen on. Default `127.0.0.1` (loopback only); `0.0.0.0` or `::` to take
   * connections from other hosts (a container, a VM).
   */
  readonly hostname?: string;
  /** Called once the server listens, with its address (default: logs `listening on http://…/`). */
  readonly onListen?: (info: AddressInfo) => void;
}

/**
 * Serves `app` with {@link serverTimeouts} and `Expect: 100-continue` left to the addresses.
 *
 * @param app - a Hono app, or `{ fetch }` with Hono's signature.
 * @returns the `node:http` server (close it with `server.close()`).
 */
export function serve(app: FetchApp, options: ServeOptions = {}): ServerType {
  const hostname = options.hostname ?? "127.0.0.1";
  const onListen =
    options.onListen ??
    ((info: AddressInfo) => {
      const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
      console.log(`listening on http://${host}:${info.port}/`);
    });
  const server = honoServe(
    {
      fetch: (request, env) => app.fetch(request, env as never),
      hostname,
      port: options.port ?? 8787,
      serverOptions: { ...serverTimeouts },
    },
    onListen,
  );
  if (onNodeItself()) server.on("checkContinue", (request, response) => server.emit("request", request, response));
  return server;
}
