/**
 * `npm run build`: forms/ → src/generated/ (the form modules), then the library → dist/
 * (ESM + .d.ts for the entries `gpt-address` and `gpt-address/compile`).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { FormFileError, buildForms } from "../src/compile/build-forms.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
try {
  const built = await buildForms({ root });
  for (const form of built) {
    console.log(`built ${form.file} → ${form.module} (${form.arrivalBytes} bytes on GET, maxDepth ${form.maxDepth ?? "unbounded"})`);
  }
} catch (error) {
  if (error instanceof FormFileError) {
    console.error(`build failed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
if (!process.argv.includes("--forms-only")) {
  const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  } catch {
    console.error("build failed: tsc -p tsconfig.build.json reported the errors above");
    process.exit(1);
  }
  console.log("emitted dist/");
}
