/**
 * `gpt-address new <name>`: adds an address to a project in the layout `gpt-address init` made:
 * `forms/<name>.json` (a form that lints clean), `src/<name>.ts` (the address and its typed
 * act), `test/<name>.test.ts` (vitest), mounted at `/<name>` in `src/app.ts` (`scaffold.ts`).
 *
 * @module
 */
import { resolve } from "node:path";
import { defineCommand } from "citty";
import { writeAddress } from "./scaffold.ts";
import { exitCodes, ioOf } from "./shared.ts";

export default defineCommand({
  meta: {
    name: "new",
    description:
      "Add an address: forms/<name>.json, src/<name>.ts (the typed act), test/<name>.test.ts, mounted in src/app.ts.",
  },
  args: {
    name: { type: "positional", description: "The address name (lower case, digits, hyphens)", required: true },
    dir: { type: "string", description: "The project folder (default: the current folder)", valueHint: "folder" },
  },
  async run(context) {
    const io = ioOf(context);
    const root = resolve(io.cwd, context.args.dir ?? ".");
    const { written, mountByHand } = await writeAddress(root, String(context.args.name));
    for (const file of written) io.stdout(`wrote ${file}\n`);
    if (mountByHand !== null) io.stdout(`\nno src/app.ts to mount it in: add to your Hono app\n\n${mountByHand}\n`);
    io.stdout("\nnext: npm run build && npm test\n");
    return exitCodes.ok;
  },
});
