/**
 * The servers of the POST bench (`bench/post.bench.ts`; issue 16 item 3), one Hono app each,
 * served the same way on Node (@hono/node-server) and on workerd:
 *
 * - `b2`, the unsafe floor: `await c.req.json()` and a constant answer; no limit, no
 *   strictness, no validation;
 * - `b3`, the interpreted alternative: B2 plus an @cfworker/json-schema `Validator` built from
 *   the same `s` when the app is created (short-circuit on), 204 for an invalid value;
 * - `address`: the page address, {@link address} with a constant act;
 * - `address-web` (for comparison): the same address made to read `request.body` as a web
 *   stream: on Node as it did before issue 16, by hiding @hono/node-server's bindings from it;
 *   on workerd by a fetch handler not wrapped in `runtimeFetch` (`bench/post.bench.ts`);
 * - `rpc-b2`, the MCP analogue of B2: a Hono route that does `await c.req.json()` on a JSON-RPC
 *   message and answers a constant `tools/call` result (the one the MCP door sends), echoing
 *   the message's `id`; no limit, no strictness, no validation;
 * - `mcp`: the MCP door, {@link mcp} serving the page address with the same constant act as a
 *   tool (`page`);
 * - `mcp-web` (Node only): the same door made to read `request.body`, as `address-web`;
 * - `read-native` and `read` (workerd section), to split the address's cost per act into its
 *   stages: the body read whole by the runtime (`arrayBuffer()`, no limit) and read as the
 *   address reads it (`receiveAct`: the byte limit, the deadline), each answered with the
 *   constant answer and nothing else;
 * - `verify-native` (workerd section), the floor of any address built on this parser and
 *   validator: the body read whole by `arrayBuffer()`, then `parseJson` and the generated
 *   validator (204 for an invalid value), and the constant answer; no limit, no deadline, no
 *   header field checked, no act.
 * - the peers users pick (issue 31), Node only, in `./peers.ts` so that the workerd bundles
 *   of this file stay free of them: `hono-zod`, `fastify-ajv`, `mcp-sdk-v1`, `mcp-sdk-v2`.
 *
 * Every app answers a valid act at `/page` with 200: `{"ok":true}`, or for the JSON-RPC apps a
 * `tools/call` result whose `structuredContent` is `{"ok":true}`.
 *
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import { Hono } from "hono";
import { address } from "../../src/address/address.ts";
import type { CompiledForm } from "../../src/address/form.ts";
import { receiveAct, verificationLimits } from "../../src/address/verification.ts";
import { nodeMessageOf } from "../../src/body/node-message.ts";
import { parseJson } from "../../src/json/parse.ts";
import { mcp } from "../../src/mcp/mcp.ts";

/** The kinds of server the POST bench compares. */
export type PostServer =
  | "b2"
  | "b3"
  | "address"
  | "address-web"
  | "rpc-b2"
  | "mcp"
  | "mcp-web"
  | "read-native"
  | "read"
  | "verify-native"
  | PeerServer;

/** The peers of `./peers.ts`, served on Node only. */
export type PeerServer = "hono-zod" | "fastify-ajv" | "mcp-sdk-v1" | "mcp-sdk-v2";

/** The constant `tools/call` result of `rpc-b2`: the members the MCP door answers `{ok: true}` with. */
const TOOL_RESULT = {
  content: [{ type: "text", text: '{"ok":true}' }],
  structuredContent: { ok: true },
  isError: false,
};

/** The app of one kind for `form` (the peers: `./peers.ts`). */
export function postApp(kind: Exclude<PostServer, PeerServer>, form: CompiledForm): Hono {
  const app = new Hono();
  if (kind === "b2") {
    app.post("/page", async (c) => {
      await c.req.json();
      return c.json({ ok: true });
    });
  } else if (kind === "b3") {
    const { s } = JSON.parse(form.arrival) as { s: object };
    const validator = new Validator(s, "2020-12", true);
    app.post("/page", async (c) => {
      const value: unknown = await c.req.json();
      if (!validator.validate(value).valid) return c.body(null, 204);
      return c.json({ ok: true });
    });
  } else if (kind === "read-native") {
    app.post("/page", async (c) => {
      await c.req.raw.arrayBuffer();
      return c.json({ ok: true });
    });
  } else if (kind === "verify-native") {
    app.post("/page", async (c) => {
      const value = parseJson(new Uint8Array(await c.req.raw.arrayBuffer()));
      if (!form.validate(value)) return c.body(null, 204);
      return c.json({ ok: true });
    });
  } else if (kind === "read") {
    const limits = verificationLimits(form);
    app.post("/page", async (c) => {
      const received = await receiveAct(c.req.raw, limits, nodeMessageOf(c.req.raw, c.env));
      if (!received.ok) return c.body(null, 204);
      return c.json({ ok: true });
    });
  } else if (kind === "rpc-b2") {
    app.post("/page", async (c) => {
      const message = (await c.req.json()) as { id?: unknown };
      return c.json({ jsonrpc: "2.0", id: message.id, result: TOOL_RESULT });
    });
  } else if (kind === "mcp" || kind === "mcp-web") {
    if (kind === "mcp-web") hideNodeBindings(app);
    app.all("/page", mcp([{ form, act: () => ({ ok: true }) }]));
  } else {
    if (kind === "address-web") hideNodeBindings(app);
    app.route("/page", address({ form, act: () => ({ ok: true }) }));
  }
  return app;
}

/** Hides @hono/node-server's bindings: without `c.env.incoming` a door reads `request.body`. */
function hideNodeBindings(app: Hono): void {
  app.use(async (c, next) => {
    c.env = {};
    await next();
  });
}
