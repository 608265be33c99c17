/**
 * `npm run build`: forms/ → examples/pages/generated/ (the form modules, each form linted first:
 * an error-level finding fails the build), src/mcp/messages/ →
 * src/mcp/generated/ (the MCP door's message validators, part of the library), wrangler.toml →
 * worker-configuration.d.ts (`wrangler types`: the Workers runtime types and the example
 * worker's `Env`, which `tsc -p tsconfig.json` reads), then the library → dist/ (ESM + .d.ts
 * for the entries `gpt-address`, `gpt-address/compile`, `gpt-address/lint` and the `gpt-address`
 * bin, dist/ emptied first). All four
 * outputs are generated, never committed (.gitignore).
 *
 * `--forms-only` stops before `wrangler types` and dist/; `--lib-only` (the `prepare` script, run
 * after `npm ci` and in the clone of an install from a git URL, and `prepack`, run by `npm pack`
 * and `npm publish`) builds only the MCP message
 * validators and dist/.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { reservedPathReason } from "../examples/pages/paths.ts";
import { buildProject } from "../src/cli/build.ts";
import { FormFileError, formNameOf } from "../src/compile/build-forms.ts";
import { buildMcpMessages } from "./build-mcp.ts";
import { wranglerSync } from "./wrangler.ts";

const root = join(import.meta.dirname, "..");
if (!process.argv.includes("--lib-only")) {
  // The example server serves every form at /<name>: a form must not shadow one of its own paths.
  for (const file of readdirSync(join(root, "forms"))) {
    const name = formNameOf(file);
    if (name === null) continue;
    const reserved = reservedPathReason(name);
    if (reserved !== null) {
      console.error(`build failed: forms/${file}#: ${reserved}`);
      process.exit(1);
    }
  }
  const { code } = await buildProject(
    { root, outDir: "examples/pages/generated", typesFrom: "../../../src/index.ts" },
    { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) },
  );
  if (code !== 0) process.exit(code);
}
try {
  for (const message of await buildMcpMessages(root)) console.log(`built ${message.file} → ${message.module}`);
} catch (error) {
  if (error instanceof FormFileError) {
    console.error(`build failed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
if (!process.argv.includes("--forms-only") && !process.argv.includes("--lib-only")) {
  try {
    wranglerSync(["types"], { cwd: root, env: { WRANGLER_LOG: "error" } });
  } catch {
    console.error("build failed: wrangler types (wrangler.toml → worker-configuration.d.ts) reported the errors above");
    process.exit(1);
  }
  console.log("generated worker-configuration.d.ts");
}
if (!process.argv.includes("--forms-only")) {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  rmSync(join(root, "dist"), { recursive: true, force: true });
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  } catch {
    console.error("build failed: tsc -p tsconfig.build.json reported the errors above");
    process.exit(1);
  }
  console.log("emitted dist/");
}
