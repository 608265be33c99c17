/**
 * `npm run bench`: runs every `bench/*.bench.ts` section in one process, one after another,
 * so that each section's ratios compare figures measured in the same run on the same machine.
 * Each section module's default export is `async () => void` and prints its own tables.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const only = process.argv.slice(2);
const sections = readdirSync(import.meta.dirname)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();
console.log(`node ${process.version}, ${new Date().toISOString()}`);
for (const file of sections) {
  console.log(`\n## ${file}\n`);
  const section = (await import(pathToFileURL(join(import.meta.dirname, file)).href)) as {
    default: () => Promise<void>;
  };
  await section.default();
}
