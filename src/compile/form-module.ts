/**
 * Forms as code: `forms/<name>.ts` (`.mts`, `.js`, `.mjs`) whose default export is an arrival
 * document `{p, m, s}` with `s` a Standard JSON Schema (zod 4, valibot through
 * `toStandardJsonSchema`, ArkType) or a JSON Schema object. The build imports the module (Node
 * strips a `.ts` module's types itself from 22.18), writes `s` as JSON Schema 2020-12 through the
 * library's own converter, and from then on the result is a form like a `.json` one: its JSON
 * text is what GET serves.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import { FormFileError } from "./form-file-error.ts";
import { childPointer } from "./pointer.ts";
import { jsonSchemaOf, standardOf } from "./standard-schema.ts";

/** The extensions of a form module; `.ts` and `.mts` need Node's type stripping. */
export const FORM_MODULE_EXTENSIONS: ReadonlyArray<string> = [".ts", ".mts", ".js", ".mjs"];

/** What a form module gave. */
export interface LoadedFormModule {
  /** The arrival document, plain JSON values only, `s` written as JSON Schema. */
  readonly document: unknown;
  /** The vendor of the Standard JSON Schema `s` was (`"zod"`), or null for a JSON Schema object. */
  readonly vendor: string | null;
}

/**
 * Why this Node cannot import `file` (a `.ts` or `.mts` module), or null when it can:
 * `process.features.typescript` is `"strip"` or `"transform"` where type stripping is on (Node
 * 22.18, 23.6 and later by default).
 */
export function typeStrippingMissing(
  file: string,
  features: { readonly typescript?: unknown } = process.features as { readonly typescript?: unknown },
  version: string = process.version,
): string | null {
  if (![".ts", ".mts"].includes(extname(file))) return null;
  if (features.typescript === "strip" || features.typescript === "transform") return null;
  return `a form in TypeScript is imported with Node's type stripping (Node ≥ 22.18), which this Node (${version}) does not do: build on Node 22.18 or later, or write ${file.replace(/\.m?ts$/, ".js")} or ${file.replace(/\.m?ts$/, ".json")}`;
}

/**
 * Imports the form module at `path` (`file` names it in errors) and returns its arrival document.
 *
 * @throws FormFileError when the module cannot be imported (a `.ts` module on a Node without type
 *   stripping, a syntax error, an import that fails), has no default export, its library cannot
 *   write `s` as JSON Schema (pointer `/s`), or the document holds a value JSON cannot (a function,
 *   a `Date`, `NaN`: its pointer).
 */
export async function loadFormModule(path: string, file: string, bytes: Uint8Array): Promise<LoadedFormModule> {
  const missing = typeStrippingMissing(file);
  if (missing !== null) throw new FormFileError(file, "", missing);
  // The content's hash in the URL: a module changed since the last build in this process is read again.
  const url = `${pathToFileURL(path).href}?sha256=${createHash("sha256").update(bytes).digest("hex")}`;
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new FormFileError(file, "", `cannot be imported (${typeof code === "string" ? `${code}: ` : ""}${reason})`, {
      cause: error,
    });
  }
  const exported = module.default;
  if (typeof exported !== "object" || exported === null || Array.isArray(exported))
    throw new FormFileError(file, "", "a form module's default export must be an object {p, m, s} (A2)");
  const standard = standardOf((exported as { s?: unknown }).s);
  let s = (exported as { s?: unknown }).s;
  if (standard !== undefined) {
    try {
      s = jsonSchemaOf(standard);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new FormFileError(file, "/s", `${standard.vendor} cannot write s as JSON Schema 2020-12: ${reason}`, {
        cause: error,
      });
    }
  }
  const document = jsonValue({ ...exported, s }, "", file);
  return { document, vendor: standard?.vendor ?? null };
}

/**
 * A copy of `value` made of JSON values only (`bigint` kept: an int64 bound); a member whose value
 * is `undefined` is left out, as `JSON.stringify` does.
 *
 * @throws FormFileError naming the pointer of the first value JSON cannot hold.
 */
function jsonValue(value: unknown, pointer: string, file: string): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "bigint":
      return value;
    case "number":
      if (Number.isFinite(value)) return value;
      throw new FormFileError(file, pointer, `${value} is not a JSON number`);
    case "object": {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const items: unknown[] = [];
        for (let index = 0; index < value.length; index++) {
          if (!(index in value) || value[index] === undefined)
            throw new FormFileError(
              file,
              childPointer(pointer, index),
              "an array item must be a JSON value, not a hole or undefined",
            );
          items.push(jsonValue(value[index], childPointer(pointer, index), file));
        }
        return items;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null)
        throw new FormFileError(
          file,
          pointer,
          `a ${prototype?.constructor?.name ?? "class instance"} is not a JSON value`,
        );
      const copy: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(value)) {
        if (member === undefined) continue;
        Object.defineProperty(copy, name, {
          value: jsonValue(member, childPointer(pointer, name), file),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return copy;
    }
    default:
      throw new FormFileError(file, pointer, `a ${typeof value} is not a JSON value`);
  }
}
