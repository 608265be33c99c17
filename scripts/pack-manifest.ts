/**
 * `npm pack` and `npm publish` only (the `prepack` script, after it built dist/, and
 * `postpack`): the packed package.json without the `prepare` script.
 *
 * `prepare` builds dist/ where npm runs it: after `npm ci` here, and in the clone of an install
 * from a git URL (npm runs `prepare` there, not `prepack`). In a tarball it would never run, and
 * npm 11 would still list it among the install scripts a project's `allowScripts` has not
 * approved, with a warning at every install. `--strip` keeps the manifest as it was in
 * `package.json.prepack` and writes it without `prepare`; `--restore` puts it back.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const manifest = join(root, "package.json");
const kept = join(root, "package.json.prepack");

if (process.argv.includes("--strip")) {
  const text = readFileSync(manifest, "utf8");
  writeFileSync(kept, text);
  const { prepare: _, ...scripts } = (JSON.parse(text) as { scripts: Record<string, string> }).scripts;
  writeFileSync(manifest, `${JSON.stringify({ ...JSON.parse(text), scripts }, null, 2)}\n`);
} else if (process.argv.includes("--restore")) {
  renameSync(kept, manifest);
} else {
  console.error("usage: node scripts/pack-manifest.ts --strip | --restore");
  process.exit(2);
}
