/**
 * Serves the example worker in workerd exactly as `wrangler deploy` would upload it: runs
 * `wrangler deploy --dry-run` into a scratch directory, then loads that bundle into Miniflare
 * (workerd) with the `PAGES` KV namespace, on 127.0.0.1:`PORT`.
 *
 * Why not `wrangler dev`: its development proxy answers 500 "Network connection lost" when
 * the worker answers before reading the whole request body (an oversize act rejected on its
 * Content-Length), which workerd itself, and this setup, answer correctly with 204.
 *
 * Usage: `node test/runtimes/serve-workerd.ts` (the wire suite's launcher runs it).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { wranglerSync } from "../../scripts/wrangler.ts";

const root = join(import.meta.dirname, "../..");
const outdir = mkdtempSync(join(tmpdir(), "gpt-address-workerd-"));
wranglerSync(["deploy", "--dry-run", "--outdir", outdir], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
// The settings `wrangler deploy` would send along with the bundle, read from wrangler.toml.
const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
const compatibilityFlags = [
  ...(/^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1]?.matchAll(/"([^"]+)"/g) ?? []),
].map((m) => m[1]!);
const kvNamespaces = [...toml.matchAll(/^binding\s*=\s*"([^"]+)"/gm)].map((m) => m[1]!);
const mf = new Miniflare(
  convertV4MiniflareOptions({
    modules: true,
    scriptPath: join(outdir, "worker.js"),
    modulesRoot: outdir,
    compatibilityDate,
    compatibilityFlags,
    kvNamespaces,
    host: "127.0.0.1",
    port: Number(process.env.PORT ?? 8787),
    logRequests: false,
  }),
);
console.log(`listening on ${(await mf.ready).href}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void mf.dispose().finally(() => {
      rmSync(outdir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}
