/**
 * `gpt-address unroll <form.json> --depth N`: rewrites the form's recursive definitions into N
 * levels, the last without the recursive alternative (draft "Bounded Recursion"), and prints
 * the form file (or writes it with `--out`). A form module (`forms/<name>.ts`, a zod, valibot or
 * ArkType `s`) is read as the build reads it (`readArrival`: imported, its `s` written as JSON
 * Schema, shared files bundled), and its unrolled form printed as JSON, to be saved as
 * `forms/<name>.json` in place of the module.
 *
 * @module
 */
import { readFile, writeFile } from "node:fs/promises";
import { dirname, extname, resolve } from "node:path";
import { defineCommand } from "citty";
import { FormFileError, readArrival } from "../compile/build-forms.ts";
import { FormError } from "../compile/form-error.ts";
import { FORM_MODULE_EXTENSIONS } from "../compile/form-module.ts";
import { unroll } from "../compile/unroll.ts";
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import { exitCodes, ioOf, UsageError } from "./shared.ts";

export default defineCommand({
  meta: {
    name: "unroll",
    description:
      "Unroll recursive $defs into N levels whose last omits the recursive alternative (F4). Prints the form file; exit 1 when the form is refused.",
  },
  args: {
    form: { type: "positional", description: "The form file (an arrival document, or a bare schema)", required: true },
    depth: { type: "string", description: "Levels to keep (a positive integer)", required: true, valueHint: "N" },
    out: { type: "string", description: "Write the result here instead of standard output", valueHint: "file" },
  },
  async run(context) {
    const io = ioOf(context);
    const depth = Number(context.args.depth);
    if (!/^[1-9][0-9]*$/.test(String(context.args.depth)))
      throw new UsageError(`--depth must be a positive integer, not ${JSON.stringify(context.args.depth)}`);
    const path = resolve(io.cwd, context.args.form);
    let file: unknown;
    if (FORM_MODULE_EXTENSIONS.includes(extname(path))) {
      try {
        file = (await readArrival(path, io.cwd, dirname(path))).arrival;
      } catch (error) {
        if (!(error instanceof FormFileError)) throw error;
        io.stderr(`${error.message}\n`);
        return exitCodes.findings;
      }
    } else {
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await readFile(path));
      } catch {
        throw new UsageError(`cannot read ${context.args.form}`);
      }
      try {
        file = parseJson(bytes, { maxDepth: 256 });
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error;
        io.stderr(`${context.args.form}: not strict JSON at byte ${error.offset}: ${error.message}\n`);
        return exitCodes.findings;
      }
    }
    const arrival = typeof file === "object" && file !== null && !Array.isArray(file) && "s" in file;
    const schema = arrival ? (file as { s: unknown }).s : file;
    let result: ReturnType<typeof unroll>;
    try {
      result = unroll(schema, depth);
    } catch (error) {
      if (!(error instanceof FormError)) throw error;
      io.stderr(`${context.args.form}#${arrival ? "/s" : ""}${error.pointer}: ${error.message}\n`);
      return exitCodes.findings;
    }
    const output = arrival ? { ...(file as object), s: result.schema } : result.schema;
    const text = `${JSON.stringify(output, null, 2)}\n`;
    if (context.args.out === undefined) io.stdout(text);
    else await writeFile(resolve(io.cwd, context.args.out), text);
    io.stderr(
      result.definitions.length === 0
        ? `${context.args.form}: no recursive definition; unchanged\n`
        : `${context.args.form}: unrolled ${result.definitions.join(", ")} into ${depth} level(s)\n`,
    );
    return exitCodes.ok;
  },
});
