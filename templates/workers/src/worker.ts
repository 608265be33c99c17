/**
 * The Worker (wrangler.toml `main`): the app of src/app.ts, each request read as workerd
 * framed it, and under `wrangler dev` each body received whole first (`.dev.vars`), so that
 * an oversize act is answered 204 there as it is when deployed.
 *
 * @module
 */
import { worker } from "gpt-address/workers";
import app from "./app.ts";

export default worker(app);
