/**
 * `gpt-address new <name>`: adds an address to a project in the layout `gpt-address init` made:
 * `forms/<name>.json` (a form that lints clean; with `--form zod|valibot|arktype`, the same form
 * written with that library as `forms/<name>.ts`, the library added to the project's
 * devDependencies at the version gpt-address is tested with), `src/<name>.ts` (the address and its
 * typed act), `test/<name>.test.ts` (vitest), mounted at `/<name>` in `src/app.ts` (`scaffold.ts`).
 *
 * @module
 */
import { resolve } from "node:path";
import { defineCommand } from "citty";
import {
  addFormPackages,
  checkFormStyle,
  formArg,
  formStylePackages as formStylePackagesOf,
  writeAddress,
} from "./scaffold.ts";
import { exitCodes, ioOf } from "./shared.ts";

export default defineCommand({
  meta: {
    name: "new",
    description:
      "Add an address: forms/<name>.json (or .ts with --form zod|valibot|arktype), src/<name>.ts (the typed act), test/<name>.test.ts, mounted in src/app.ts.",
  },
  args: {
    name: { type: "positional", description: "The address name (lower case, digits, hyphens)", required: true },
    dir: { type: "string", description: "The project folder (default: the current folder)", valueHint: "folder" },
    ...formArg,
  },
  async run(context) {
    const io = ioOf(context);
    const root = resolve(io.cwd, context.args.dir ?? ".");
    const style = checkFormStyle(context.args.form);
    const { written, mountByHand } = await writeAddress(root, String(context.args.name), style);
    for (const file of written) io.stdout(`wrote ${file}\n`);
    const added = await addFormPackages(root, style);
    if (added !== null && added.length > 0) io.stdout(`added to package.json devDependencies: ${added.join(", ")}\n`);
    else if (added === null && style !== "json")
      io.stdout(
        `\nno package.json: install what the form imports (npm install --save-dev ${Object.keys(await formStylePackagesOf(style)).join(" ")})\n`,
      );
    if (mountByHand !== null) io.stdout(`\nno src/app.ts to mount it in: add to your Hono app\n\n${mountByHand}\n`);
    io.stdout(`\nnext: ${added !== null && added.length > 0 ? "npm install && " : ""}npm run build && npm test\n`);
    return exitCodes.ok;
  },
});
