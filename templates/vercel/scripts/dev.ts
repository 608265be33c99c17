/**
 * `npm run dev`: the Edge Function api/index.ts, bundled by esbuild into one script as Vercel
 * bundles it, run in edge-runtime (Vercel's open-source edge sandbox) and served on
 * 127.0.0.1:PORT (default 8787) with the server timeouts of gpt-address/node.
 *
 * @module
 */
import { createServer } from "node:http";
import { createHandler, EdgeRuntime } from "edge-runtime";
import { build } from "esbuild";
import { serverTimeouts } from "gpt-address/node";

const bundle = await build({
  stdin: {
    contents: `import handler from "./api/index.ts";
addEventListener("fetch", (event) => event.respondWith(handler(event.request)));`,
    resolveDir: process.cwd(),
    loader: "ts",
  },
  bundle: true,
  write: false,
  format: "iife",
  platform: "browser",
  conditions: ["edge-light", "worker", "browser"],
  target: "es2022",
  logLevel: "warning",
});
const [script] = bundle.outputFiles;
if (script === undefined) throw new Error("esbuild wrote no bundle of api/index.ts");
const { handler } = createHandler({ runtime: new EdgeRuntime({ initialCode: script.text }) });
const port = Number(process.env.PORT ?? 8787);
createServer(serverTimeouts, handler).listen(port, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${port}/`);
});
