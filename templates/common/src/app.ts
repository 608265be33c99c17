/**
 * The project's addresses, one route each at /<name>: GET serves the form built from
 * forms/<name>.json, POST verifies an act against it and runs its act. `gpt-address new <name>`
 * adds one here.
 *
 * @module
 */
import { Hono } from "hono";

const app = new Hono();

export default app;
