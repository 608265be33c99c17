/**
 * Serves the addresses of src/app.ts over node:http on PORT (default 8787), on loopback unless
 * HOST says otherwise (HOST=0.0.0.0 in a container), with the timeouts a public address needs
 * (gpt-address/node, `serve`).
 *
 * @module
 */
import { serve } from "gpt-address/node";
import app from "./app.ts";

serve(app, { port: Number(process.env.PORT ?? 8787), hostname: process.env.HOST ?? "127.0.0.1" });
