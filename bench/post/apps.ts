/**
 * The servers of the POST bench (`bench/post.bench.ts`; issue 16 item 3), one Hono app each,
 * served the same way on Node (@hono/node-server) and on workerd:
 *
 * - `b2`, the unsafe floor: `await c.req.json()` and a constant answer; no limit, no
 *   strictness, no validation;
 * - `b3`, the interpreted alternative: B2 plus an @cfworker/json-schema `Validator` built from
 *   the same `s` when the app is created (short-circuit on), 204 for an invalid value;
 * - `address`: the page address, {@link address} with a constant act;
 * - `address-web` (Node only, for comparison): the same address made to read `request.body`, as
 *   it did before issue 16, by hiding @hono/node-server's bindings from it.
 *
 * Every app answers `{"ok":true}` with 200 to a valid act at `/page`.
 *
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import { Hono } from "hono";
import { address } from "../../src/address/address.ts";
import type { CompiledForm } from "../../src/address/form.ts";

/** The kinds of server the POST bench compares. */
export type PostServer = "b2" | "b3" | "address" | "address-web";

/** The app of one kind for `form`. */
export function postApp(kind: PostServer, form: CompiledForm): Hono {
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
  } else {
    if (kind === "address-web") {
      app.use(async (c, next) => {
        // Without `c.env.incoming`, the address reads the body through Node's web Request.
        c.env = {};
        await next();
      });
    }
    app.route("/page", address({ form, act: () => ({ ok: true }) }));
  }
  return app;
}
