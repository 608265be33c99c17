/**
 * The module under construction: one function per schema location reached more than once,
 * every other location inlined, regexes and constants hoisted to module scope, helpers and
 * format checks emitted on first use.
 *
 * @module
 */
import { isJsonObject } from "../json/is-json-object.ts";
import { Body } from "./body.ts";
import type { FormDocument } from "./document.ts";
import { formatCheck, formatSources } from "./formats/index.ts";
import { helperSources } from "./helpers/index.ts";
import type { Compiler, HelperName, InstanceType } from "./keyword.ts";
import { typeTest } from "./keywords/type-guards.ts";
import { childPointer, parsePointer } from "./pointer.ts";
import { type Code, id, js, json } from "./safe-format.ts";
import { vocabulary } from "./vocabulary.ts";

/** The instance-type group each JSON Schema type name belongs to. */
const groupOf: Readonly<Record<string, InstanceType | null>> = {
  null: null,
  boolean: null,
  object: "object",
  array: "array",
  number: "number",
  integer: "number",
  string: "string",
};

/** Keywords that never constrain anything by themselves (each keyword file says `inert`). */
const inert = new Set(vocabulary.filter((keyword) => keyword.inert).map((keyword) => keyword.name));

/** Builds the generated module for one document. */
export class ModuleCompiler implements Compiler {
  readonly document: FormDocument;
  readonly #functions = new Map<string, Code>();
  readonly #names = new Set<string>();
  readonly #queue: string[] = [];
  readonly #bodies: string[] = [];
  readonly #active = new Set<string>();
  readonly #hoisted: string[] = [];
  readonly #regexes = new Map<string, Code>();
  readonly #helpers = new Set<HelperName>();
  readonly #formats = new Map<string, Code>();
  /** The member names whose presence the module reads (see {@link own}). */
  readonly #memberNames = new Set<string>();

  constructor(document: FormDocument) {
    this.document = document;
  }

  /**
   * The module's declarations and functions, `validate` first, `validateParsed` last and set as
   * `validate.parsed`.
   */
  build(): string {
    this.#functions.set("", id("validate"));
    this.#names.add("validate");
    this.#names.add("validateParsed");
    this.#queue.push("");
    for (let pointer = this.#queue.shift(); pointer !== undefined; pointer = this.#queue.shift())
      this.#compileFunction(pointer);
    const parsedEntry = this.#parsedEntry();
    const declarations = [...helperSources(this.#helpers), ...formatSources(this.#formats.keys()), ...this.#hoisted];
    // The doors reach `validateParsed` through the validator they were given (`FormValidate`).
    return [...declarations, ...this.#bodies, parsedEntry, "validate.parsed = validateParsed;"].join("\n");
  }

  /**
   * `validateParsed(d)`: `validate` for a value parsed from JSON text (by `parseJson` or
   * `JSON.parse`), whose objects all have `Object.prototype` as their prototype. A member of
   * such an object that is read as not `undefined` is its own unless `Object.prototype` has a
   * property of that name (JSON has no `undefined`), so with `parsed` set {@link own} asks
   * `name in Object.prototype` (an `in` with a constant key, its inline cache one map check)
   * where `validate` calls `hasOwn`, and calls `hasOwn` only when the prototype has the name (a
   * polluted `Object.prototype`, or a name such as `toString`). The check is made where the
   * member is read, at that moment, so the fixed cost of a call does not grow with the names
   * the form reads: a scan of all of them at each call cost about 10 ns a name, 59 µs at 5,000
   * (issue 31). Same results, same `lastFailure`; on a value of other objects (another
   * prototype, accessors), only `validate` is exact. `hasOwn` was most of the page validator's
   * time on a valid 16 KiB body, and its reads went megamorphic once the validator had seen
   * hostile values (issue 16).
   */
  #parsedEntry(): string {
    if (this.#memberNames.size === 0) return "export function validateParsed(d) {\n  return validate(d);\n}";
    this.#hoisted.push("let parsed = false;", "const objectPrototype = Object.prototype;");
    return [
      "export function validateParsed(d) {",
      "  parsed = true;",
      "  try {",
      "    return validate(d);",
      "  } finally {",
      "    parsed = false;",
      "  }",
      "}",
    ].join("\n");
  }

  #compileFunction(pointer: string): void {
    const name = this.#functions.get(pointer) as Code;
    const body = new Body();
    this.inline(pointer, id("d"), body);
    body.line(js`return true;`);
    const exported = pointer === "" ? "export " : "";
    this.#bodies.push(`${exported}function ${name}(d) {\n${body.text()}\n}`);
  }

  #functionFor(pointer: string): Code {
    const known = this.#functions.get(pointer);
    if (known !== undefined) return known;
    const tokens = parsePointer(pointer) ?? [];
    const tail = tokens.slice(/^\d+$/.test(tokens.at(-1) ?? "") ? -2 : -1).join("_");
    const stem = `v_${tail.replace(/[^A-Za-z0-9_]/g, "_")}`;
    let name = stem;
    for (let n = 2; this.#names.has(name); n++) name = `${stem}${n}`;
    this.#names.add(name);
    const code = id(name);
    this.#functions.set(pointer, code);
    this.#queue.push(pointer);
    return code;
  }

  inline(pointer: string, data: Code, body: Body): void {
    const schema = this.document.node(pointer);
    if (schema === true) return;
    if (!isJsonObject(schema)) {
      body.line(this.fail(pointer));
      return;
    }
    this.#active.add(pointer);
    try {
      this.#emitNode(schema, pointer, data, body);
    } finally {
      this.#active.delete(pointer);
    }
  }

  #emitNode(schema: Readonly<Record<string, unknown>>, pointer: string, data: Code, body: Body): void {
    const types = schema.type === undefined ? undefined : ([] as string[]).concat(schema.type as string | string[]);
    const allowed = types === undefined ? undefined : new Set(types.map((name) => groupOf[name]));
    let open: InstanceType | undefined;
    const members = new Map<string, Code>();
    for (const keyword of vocabulary) {
      if (keyword.emit === undefined || !Object.hasOwn(schema, keyword.name)) continue;
      const group = keyword.instance;
      if (group !== "any" && allowed !== undefined && !allowed.has(group)) continue;
      const guarded = group !== "any" && !(allowed?.size === 1 && allowed.has(group));
      if (open !== undefined && open !== group) {
        body.close();
        open = undefined;
      }
      if (guarded && open !== group) {
        body.open(js`if (${typeTest(group as Exclude<InstanceType, "any">, data)}) {`);
        open = group;
      }
      const at = childPointer(pointer, keyword.name);
      keyword.emit({ node: schema, value: schema[keyword.name], at, pointer, data, body, members, compiler: this });
    }
    if (open !== undefined) body.close();
  }

  reference(pointer: string, data: Code, body: Body): void {
    const schema = this.document.node(pointer);
    if (schema === true) return;
    // Inline a definition referenced once: it is compiled nowhere else. Anything else is a call,
    // so no location's code is ever duplicated.
    const definition = (parsePointer(pointer) ?? []).at(-2) === "$defs";
    if (definition && this.document.refCount(pointer) === 1 && !this.#active.has(pointer))
      this.inline(pointer, data, body);
    else body.line(js`if (!${this.#functionFor(pointer)}(${data})) return false;`);
  }

  test(pointer: string, data: Code): Code {
    const schema = this.document.node(pointer);
    if (typeof schema === "boolean") return js`${schema}`;
    if (isJsonObject(schema) && Object.keys(schema).every((name) => name === "$ref" || inert.has(name))) {
      if (!Object.hasOwn(schema, "$ref")) return js`true`;
      if (!this.#active.has(pointer)) return this.test(this.document.refTarget(pointer), data);
    }
    return js`${this.#functionFor(pointer)}(${data})`;
  }

  fail(at: string): Code {
    return js`return fail(${at});`;
  }

  regex(source: string): Code {
    let name = this.#regexes.get(source);
    if (name === undefined) {
      name = id(`re${this.#regexes.size}`);
      this.#regexes.set(source, name);
      this.#hoisted.push(js`const ${name} = new RegExp(${source}, "u");`.toString());
    }
    return name;
  }

  constant(value: unknown, as?: "Set"): Code {
    const name = id(`c${this.#hoisted.length}`);
    const expression = as === "Set" ? js`new Set(${json(value)})` : json(value);
    this.#hoisted.push(js`const ${name} = ${expression};`.toString());
    return name;
  }

  helper(name: HelperName): Code {
    this.#helpers.add(name);
    return id(name);
  }

  own(data: Code, name: string): Code {
    this.#memberNames.add(name);
    const inherited = js`${name} in ${id("objectPrototype")}`;
    return js`((${id("parsed")} && !(${inherited})) || ${this.helper("hasOwn")}(${data}, ${name}))`;
  }

  format(name: string): Code {
    let code = this.#formats.get(name);
    if (code === undefined) {
      code = id(formatCheck(name).fn);
      this.#formats.set(name, code);
    }
    return code;
  }
}
