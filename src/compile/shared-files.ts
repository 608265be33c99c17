/**
 * Shared files: a `$ref` from a form to another JSON file of the project
 * (`"./shared/address.json#/$defs/postal"`, `"shared/point.json"`), resolved against the form
 * file's location as RFC 3986 resolves a relative reference, is bundled at build time: each file
 * reached is embedded whole in the form's root `$defs` (named after the file, `address`, or
 * `address2` when the name is taken), and every `$ref` into it, from the form or from another
 * shared file, becomes a JSON Pointer into the form (`#/$defs/address/$defs/postal`). The form
 * GET serves is then one self-contained document, as every actor needs it.
 *
 * A shared file is a JSON Schema 2020-12 (no `$schema`, or 2020-12's); its `$id`s and `$anchor`s
 * are dropped from the embedded copy, every reference to them having become a pointer. A cycle of
 * files (a tree whose node is in another file) is a recursive form like any other; one that never
 * descends into the instance is refused by the compiler, at the `$ref` in the shared file that
 * closes it. Any other `$ref` leaving the document (a URL) is left for the compiler, which refuses
 * it (remote-ref).
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isJsonObject } from "../json/is-json-object.ts";
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import { DIALECT_2020_12, dialectOf } from "./dialects.ts";
import { FormFileError } from "./form-file-error.ts";
import { childPointer, parsePointer } from "./pointer.ts";
import { keywordOf } from "./vocabulary.ts";

/** Where a pointer of the bundled form came from. */
export interface SourceLocation {
  /** The form file or the shared file, relative to the project root. */
  readonly file: string;
  /** JSON Pointer into that file. */
  readonly pointer: string;
}

/** What {@link bundleSharedFiles} produced. */
export interface Bundled {
  /** The form with every shared file embedded (the input itself when it refers to none). */
  readonly schema: unknown;
  /** The shared files embedded, relative to the project root, in the order first reached. */
  readonly files: ReadonlyArray<string>;
  /** The file and pointer a pointer into the arrival document (`/s/$defs/address/type`) came from. */
  locate(pointer: string): SourceLocation;
}

interface Reference {
  /** Pointer of the schema holding `$ref`, in its file's schema. */
  readonly at: string;
  readonly ref: string;
  /** The base URI in effect there. */
  readonly base: string;
}

/** One walk of a schema: its schema locations, resources (`$id`), anchors and references. */
interface Walked {
  readonly nodes: Map<string, Record<string, unknown>>;
  readonly all: Set<string>;
  readonly resources: Map<string, string>;
  readonly anchors: Map<string, string>;
  readonly references: Reference[];
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

function walk(schema: unknown, base: string): Walked {
  const walked: Walked = { nodes: new Map(), all: new Set(), resources: new Map(), anchors: new Map(), references: [] };
  walked.resources.set(base, "");
  const visit = (node: unknown, pointer: string, parent: string) => {
    walked.all.add(pointer);
    if (!isJsonObject(node)) return;
    walked.nodes.set(pointer, node);
    let inner = parent;
    if (typeof node.$id === "string") {
      try {
        inner = withoutFragment(new URL(node.$id, parent));
        if (!walked.resources.has(inner)) walked.resources.set(inner, pointer);
      } catch {
        // The compiler refuses a malformed $id.
      }
    }
    if (typeof node.$anchor === "string") walked.anchors.set(`${inner}#${node.$anchor}`, pointer);
    if (typeof node.$ref === "string") walked.references.push({ at: pointer, ref: node.$ref, base: inner });
    for (const [name, value] of Object.entries(node))
      for (const [tokens, sub] of keywordOf(name)?.subschemas?.(value) ?? [])
        visit(sub, childPointer(pointer, name, ...tokens), inner);
  };
  visit(schema, "", base);
  return walked;
}

/** A JSON Pointer as a URI fragment: characters outside RFC 3986 `fragment` percent-encoded. */
function fragmentOf(pointer: string): string {
  return pointer.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?]/gu, (c) => encodeURIComponent(c));
}

/** Keywords of a shared file's root that assert nothing: a root of these and `$defs` only holds definitions. */
const containerKeywords = new Set(["$defs", "$schema", "$id", "$comment", "title", "description"]);

interface SharedFile {
  /** Relative to the project root. */
  readonly file: string;
  readonly url: string;
  readonly schema: unknown;
  readonly walked: Walked;
  /**
   * The names in the form's root `$defs`: of the whole file (key `""`), or, for a file that only
   * holds definitions (its root is `$defs` and annotations), of each definition (key: its name).
   */
  readonly names: Map<string, string>;
}

/**
 * Embeds in `schema` (the `s` of the form file at `options.path`) every shared file its `$ref`s
 * reach.
 *
 * @throws FormFileError naming the file and pointer of a `$ref` to a missing file, to a file outside
 *   the project or to another form, to nothing in the file it names, of a shared file that is not
 *   strict JSON or not 2020-12, or of a `$ref` to a shared file from inside an embedded resource.
 */
export async function bundleSharedFiles(
  schema: unknown,
  options: {
    /** The project folder. */
    readonly root: string;
    /** The form file, absolute. */
    readonly path: string;
    /** The form files' folder, absolute: its own form files are addresses, never shared. */
    readonly formsDir: string;
    /** Where `schema` is in the form file (`/s`). */
    readonly at: string;
  },
): Promise<Bundled> {
  const formFile = relative(options.root, options.path);
  const rootBase = pathToFileURL(options.path).href;
  const rootWalk = walk(schema, rootBase);
  const shared = new Map<string, SharedFile>();
  const taken = new Set(isJsonObject(schema) && isJsonObject(schema.$defs) ? Object.keys(schema.$defs) : []);
  const rewrites: Array<{ file: SharedFile | null; at: string; ref: string }> = [];

  const pick = (stem: string) => {
    const clean = stem.replace(/[^A-Za-z0-9_-]+/g, "_") || "shared";
    let name = clean;
    for (let n = 2; taken.has(name); n++) name = `${clean}${n}`;
    taken.add(name);
    return name;
  };

  /** The pointer, in the bundled form, of what `url` names, reached by the `$ref` at `from`. */
  const target = async (url: URL, from: SourceLocation, within: SharedFile | null): Promise<string | null> => {
    const key = withoutFragment(url);
    const own = within === null ? rootWalk : within.walked;
    let file: SharedFile;
    let resource: string | undefined = own.resources.get(key);
    if (resource !== undefined) {
      if (within === null) return null; // inside the form itself: left for the compiler
      file = within;
    } else {
      if (url.protocol !== "file:") return null; // a URL: left for the compiler, which refuses it
      file = await load(fileURLToPath(key), key, from);
      resource = "";
    }
    let fragment: string;
    try {
      fragment = decodeURIComponent(url.hash.slice(1));
    } catch {
      throw new FormFileError(from.file, from.pointer, `malformed percent-escape in ${url.hash}`);
    }
    let pointer: string | undefined;
    if (fragment === "" || fragment.startsWith("/")) {
      const tokens = parsePointer(fragment);
      pointer = tokens === null ? undefined : childPointer(resource, ...tokens);
      if (pointer === undefined || !file.walked.all.has(pointer))
        throw new FormFileError(from.file, from.pointer, `${url.hash || "#"} points at no schema in ${file.file}`);
    } else {
      pointer = file.walked.anchors.get(`${key}#${fragment}`);
      if (pointer === undefined)
        throw new FormFileError(from.file, from.pointer, `no $anchor ${JSON.stringify(fragment)} in ${file.file}`);
    }
    const whole = file.names.get("");
    if (whole !== undefined) return childPointer("/$defs", whole) + pointer;
    const [, first, definition, ...rest] = pointer.split("/");
    const name =
      first === "$defs" && definition !== undefined
        ? file.names.get(definition.replaceAll("~1", "/").replaceAll("~0", "~"))
        : undefined;
    if (name === undefined)
      throw new FormFileError(
        from.file,
        from.pointer,
        `${file.file} only holds definitions: $ref one of them (${file.file.split(/[\\/]/).at(-1)}#/$defs/name)`,
      );
    return `${childPointer("/$defs", name)}${rest.map((token) => `/${token}`).join("")}`;
  };

  const load = async (path: string, url: string, from: SourceLocation): Promise<SharedFile> => {
    const known = shared.get(url);
    if (known !== undefined) return known;
    const file = relative(options.root, path);
    if (file.startsWith("..") || resolve(options.root, file) !== path)
      throw new FormFileError(
        from.file,
        from.pointer,
        `${file} is outside the project folder: copy it under forms/shared/`,
      );
    if (resolve(dirname(path)) === resolve(options.formsDir))
      throw new FormFileError(
        from.file,
        from.pointer,
        `${file} is a form (an address), not a shared file: move what both use to forms/shared/`,
      );
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(path));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new FormFileError(
        from.file,
        from.pointer,
        `the shared file ${file} cannot be read (${typeof code === "string" ? code : String(error)})`,
      );
    }
    let parsed: unknown;
    try {
      parsed = parseJson(bytes, { maxDepth: 256, bigIntegers: true });
    } catch (error) {
      if (error instanceof JsonSyntaxError)
        throw new FormFileError(file, "", `not strict JSON: ${error.messageIn(bytes)}`);
      throw error;
    }
    if (typeof parsed !== "boolean" && !isJsonObject(parsed))
      throw new FormFileError(file, "", "a shared file must be a JSON Schema (an object or a boolean)");
    if (isJsonObject(parsed) && parsed.$schema !== undefined && dialectOf(parsed.$schema) !== "2020-12")
      throw new FormFileError(
        file,
        "/$schema",
        `a shared file must be JSON Schema 2020-12 (${DIALECT_2020_12}): run gpt-address upgrade ${file}`,
      );
    const names = new Map<string, string>();
    if (
      isJsonObject(parsed) &&
      isJsonObject(parsed.$defs) &&
      Object.keys(parsed).every((name) => containerKeywords.has(name))
    )
      for (const key of Object.keys(parsed.$defs)) names.set(key, pick(key));
    else names.set("", pick((path.split(/[\\/]/).at(-1) ?? "").replace(/\.json$/, "")));
    const entry: SharedFile = { file, url, schema: parsed, walked: walk(parsed, url), names };
    shared.set(url, entry);
    await references(entry);
    return entry;
  };

  /** Rewrites the `$ref`s of a shared file (`null`: of the form) that name a shared file or move with it. */
  const references = async (file: SharedFile | null) => {
    const walked = file === null ? rootWalk : file.walked;
    for (const { at, ref, base } of walked.references) {
      let url: URL;
      try {
        url = new URL(ref, base);
      } catch {
        continue; // the compiler refuses it
      }
      const from: SourceLocation =
        file === null
          ? { file: formFile, pointer: `${options.at}${childPointer(at, "$ref")}` }
          : { file: file.file, pointer: childPointer(at, "$ref") };
      const pointer = await target(url, from, file);
      if (pointer === null) continue;
      if (file === null && base !== rootBase)
        throw new FormFileError(
          from.file,
          from.pointer,
          "a $ref to a shared file is bundled from the form's root resource only, not inside an embedded $id",
        );
      rewrites.push({ file, at, ref: `#${fragmentOf(pointer)}` });
    }
  };

  await references(null);
  if (shared.size === 0) return { schema, files: [], locate: (pointer) => ({ file: formFile, pointer }) };
  for (const { file, at, ref } of rewrites) {
    const walked = file === null ? rootWalk : file.walked;
    (walked.nodes.get(at) as Record<string, unknown>).$ref = ref;
  }
  const defs: Record<string, unknown> = isJsonObject((schema as Record<string, unknown>).$defs)
    ? { ...((schema as Record<string, unknown>).$defs as Record<string, unknown>) }
    : {};
  for (const entry of shared.values()) {
    for (const node of entry.walked.nodes.values()) {
      delete node.$id;
      delete node.$anchor;
    }
    if (isJsonObject(entry.schema)) delete entry.schema.$schema;
    for (const [key, name] of entry.names) {
      const value =
        key === "" ? entry.schema : ((entry.schema as Record<string, unknown>).$defs as Record<string, unknown>)[key];
      Object.defineProperty(defs, name, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  const bundled = { ...(schema as Record<string, unknown>), $defs: defs };
  /** Root `$defs` name → the file and the pointer in it that name holds. */
  const byName = new Map<string, SourceLocation>();
  for (const entry of shared.values())
    for (const [key, name] of entry.names)
      byName.set(name, { file: entry.file, pointer: key === "" ? "" : childPointer("/$defs", key) });
  const defsAt = childPointer(options.at, "$defs");
  return {
    schema: bundled,
    files: [...shared.values()].map((entry) => entry.file),
    locate(pointer) {
      if (pointer.startsWith(`${defsAt}/`)) {
        const [token = "", ...rest] = pointer.slice(defsAt.length + 1).split("/");
        const from = byName.get(token.replaceAll("~1", "/").replaceAll("~0", "~"));
        if (from !== undefined)
          return { file: from.file, pointer: from.pointer + rest.map((part) => `/${part}`).join("") };
      }
      return { file: formFile, pointer };
    },
  };
}
