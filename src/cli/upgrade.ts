/**
 * `gpt-address upgrade <form.json>`: rewrites a form written in draft-04, -06, -07 or 2019-09
 * in JSON Schema 2020-12 (src/compile/upgrade.ts) and writes it back (or to `--out`), printing
 * what the upgrade reports. A keyword whose meaning changed between the drafts (a sibling of
 * `$ref`, a keyword the draft did not define) is removed, which keeps the draft's meaning, and
 * reported: exit 1 then, so that its author decides. A form module (`forms/<name>.ts`) is code,
 * not rewritten: the build upgrades its `s` as it reads it (a usage error says so).
 *
 * @module
 */
import { readFile, writeFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { defineCommand } from "citty";
import { type Dialect, dialectOf, olderDialects } from "../compile/dialects.ts";
import { FormError } from "../compile/form-error.ts";
import { FORM_MODULE_EXTENSIONS } from "../compile/form-module.ts";
import { upgradeForm } from "../compile/upgrade.ts";
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import { stringifyJson } from "../json/stringify.ts";
import { exitCodes, ioOf, UsageError } from "./shared.ts";

export default defineCommand({
  meta: {
    name: "upgrade",
    description:
      "Rewrite a draft-04/06/07 or 2019-09 form in JSON Schema 2020-12 and write it back. Exit 1 when a keyword's meaning changed (it is removed and reported) or the form cannot be upgraded.",
  },
  args: {
    form: { type: "positional", description: "The form file (an arrival document, or a bare schema)", required: true },
    from: {
      type: "string",
      description: `The draft of a form without $schema: ${olderDialects.join(", ")}`,
      valueHint: "draft",
    },
    out: { type: "string", description: "Write the result here instead of over the form file", valueHint: "file" },
  },
  async run(context) {
    const io = ioOf(context);
    const name = context.args.form;
    const from = context.args.from;
    if (from !== undefined && !(olderDialects as ReadonlyArray<string>).includes(from))
      throw new UsageError(`--from must be one of ${olderDialects.join(", ")}, not ${JSON.stringify(from)}`);
    const path = resolve(io.cwd, name);
    if (FORM_MODULE_EXTENSIONS.includes(extname(path)))
      throw new UsageError(
        `${name} is a form module: upgrade rewrites JSON files; the build upgrades a module's s from the $schema it declares as it reads it (a zod, valibot or ArkType s is 2020-12 already)`,
      );
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(path));
    } catch {
      throw new UsageError(`cannot read ${name}`);
    }
    let file: unknown;
    try {
      file = parseJson(bytes, { maxDepth: 256, bigIntegers: true });
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
      io.stderr(`${name}: not strict JSON at byte ${error.offset}: ${error.message}\n`);
      return exitCodes.findings;
    }
    const arrival = typeof file === "object" && file !== null && !Array.isArray(file) && "s" in file;
    const schema = arrival ? (file as { s: unknown }).s : file;
    const prefix = arrival ? "/s" : "";
    const declared =
      typeof schema === "object" && schema !== null ? dialectOf((schema as { $schema?: unknown }).$schema) : undefined;
    const dialect = (from as Dialect | undefined) ?? declared;
    if (dialect === undefined || dialect === "2020-12") {
      io.stderr(
        `${name}: ${dialect === undefined ? "no $schema of an older draft (give --from)" : "already 2020-12"}; unchanged\n`,
      );
      return exitCodes.ok;
    }
    let result: ReturnType<typeof upgradeForm>;
    try {
      result = upgradeForm(schema, { from: dialect });
    } catch (error) {
      if (!(error instanceof FormError)) throw error;
      io.stderr(`${name}#${prefix}${error.pointer}: ${error.message}\n`);
      return exitCodes.findings;
    }
    const output = arrival ? { ...(file as object), s: result.schema } : result.schema;
    const text = `${stringifyJson(output, 2)}\n`;
    await writeFile(resolve(io.cwd, context.args.out ?? name), text);
    for (const note of result.notes)
      io.stderr(
        `${name}#${prefix}${note.pointer}: ${note.message}${note.changed ? " (meaning changed: review)" : ""}\n`,
      );
    io.stderr(`${name}: upgraded from ${result.from} to 2020-12, written to ${context.args.out ?? name}\n`);
    return result.notes.some((note) => note.changed) ? exitCodes.findings : exitCodes.ok;
  },
});
