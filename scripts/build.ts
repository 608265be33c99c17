/**
 * `npm run build`: forms/ → examples/pages/generated/ (the form modules, each form linted first:
 * an error-level finding fails the build), then the library → dist/ (ESM + .d.ts for the
 * entries `gpt-address`, `gpt-address/compile`, `gpt-address/lint` and the `gpt-address` bin).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { buildForms, FormFileError } from "../src/compile/build-forms.ts";

const root = join(import.meta.dirname, "..");
try {
  const built = await buildForms({
    root,
    outDir: "examples/pages/generated",
    typesFrom: "../../../src/index.ts",
    // The form linter (gpt-address lint): warnings print, an error fails the build.
    onLint(file, findings) {
      for (const finding of findings)
        console.error(`${file}#${finding.pointer}: ${finding.severity}: ${finding.message} (${finding.rule})`);
    },
  });
  for (const form of built) {
    console.log(
      `built ${form.file} → ${form.module} (${form.arrivalBytes} bytes on GET, maxDepth ${form.maxDepth ?? "unbounded"})`,
    );
  }
} catch (error) {
  if (error instanceof FormFileError) {
    console.error(`build failed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
if (!process.argv.includes("--forms-only")) {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  } catch {
    console.error("build failed: tsc -p tsconfig.build.json reported the errors above");
    process.exit(1);
  }
  console.log("emitted dist/");
}
