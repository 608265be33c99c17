/**
 * The server of the hostile-kind matrix (`bench/kinds.bench.ts`): the example's two forms
 * (`examples/pages/generated/`, built from `forms/`) behind both doors, each act constant, so
 * that an act's cost is the door's own (reading, parsing, validating, answering) and nothing of
 * the example's store or pages: `/page` and `/feedback` (`address()`), and `/mcp` (`mcp()`,
 * their tools `page` and `feedback`).
 *
 * @module
 */
import { Hono } from "hono";
import { form as feedback } from "../../examples/pages/generated/feedback.js";
import { form as page } from "../../examples/pages/generated/page.js";
import { address } from "../../src/address/address.ts";
import { mcp } from "../../src/mcp/mcp.ts";

/** The forms served, by name (each is served at `/<name>` and as the MCP tool `<name>`). */
export const doorForms = { page, feedback } as const;

/** The app: `/page`, `/feedback` and `/mcp`. */
export function doorsApp(): Hono {
  const app = new Hono();
  const act = () => ({ ok: true });
  app.route("/page", address({ form: page, act }));
  app.route("/feedback", address({ form: feedback, act }));
  app.all(
    "/mcp",
    mcp([
      { form: page, act },
      { form: feedback, act },
    ]),
  );
  return app;
}
