/**
 * The project's addresses, one route each at /<name>: GET serves the form built from
 * forms/<name>.json, POST verifies an act against it and runs its act. `gpt-address new <name>`
 * adds one here.
 *
 * @module
 */
import { discovery } from "gpt-address";
import { Hono } from "hono";
import { forms } from "./generated/forms.js";

const app = new Hono();

// For agents: an API catalog (/.well-known/api-catalog, RFC 9727) and /llms.txt, listing every
// form of forms/ at /<name>, as the routes above serve them.
app.route("/", discovery({ addresses: Object.values(forms).map((form) => ({ path: `/${form.name}`, form })) }));

export default app;
