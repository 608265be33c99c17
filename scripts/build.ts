/**
 * `npm run build`: forms/ → examples/pages/generated/ (the form modules), wrangler.toml →
 * worker-configuration.d.ts (`wrangler types`: the Workers runtime types and the example
 * worker's `Env`, which `tsc -p tsconfig.json` reads), then the library → dist/ (ESM + .d.ts
 * for the entries `gpt-address` and `gpt-address/compile`). `--forms-only` stops after the
 * form modules. All three outputs are generated, never committed (.gitignore).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { buildForms, FormFileError } from "../src/compile/build-forms.ts";

const root = join(import.meta.dirname, "..");
try {
  const built = await buildForms({ root, outDir: "examples/pages/generated", typesFrom: "../../../src/index.ts" });
  for (const form of built) {
    console.log(
      `built ${form.file} → ${form.module} (${form.arrivalBytes} bytes on GET, maxDepth ${form.maxDepth ?? "unbounded"})`,
    );
    if (form.typeFallback !== null) console.warn(`  its Act type is unknown: ${form.typeFallback}`);
  }
} catch (error) {
  if (error instanceof FormFileError) {
    console.error(`build failed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
if (!process.argv.includes("--forms-only")) {
  // Offline and quiet: no telemetry, no banner (and its registry check), errors only.
  const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const quiet = { WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", WRANGLER_LOG: "error" };
  try {
    execFileSync(process.execPath, [wrangler, "types"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, ...quiet },
    });
  } catch {
    console.error("build failed: wrangler types (wrangler.toml → worker-configuration.d.ts) reported the errors above");
    process.exit(1);
  }
  console.log("generated worker-configuration.d.ts");
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  } catch {
    console.error("build failed: tsc -p tsconfig.build.json reported the errors above");
    process.exit(1);
  }
  console.log("emitted dist/");
}
