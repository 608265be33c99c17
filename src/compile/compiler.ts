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
import { type EvaluatedKind, evaluationPlan } from "./evaluated.ts";
import { formatCheck, formatSources } from "./formats/index.ts";
import { helperSources } from "./helpers/index.ts";
import type { Compiler, HelperName, InstanceType } from "./keyword.ts";
import { typeTest } from "./keywords/type-guards.ts";
import { childPointer, parsePointer } from "./pointer.ts";
import { type Code, id, join, js, json } from "./safe-format.ts";
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

/** The `unevaluated*` keywords, what they read, and the instance type they constrain. */
const unevaluatedKeywords: ReadonlyArray<[string, EvaluatedKind, InstanceType]> = [
  ["unevaluatedProperties", "properties", "object"],
  ["unevaluatedItems", "items", "array"],
];

/** Keywords that never constrain anything by themselves (each keyword file says `inert`). */
const inert = new Set(vocabulary.filter((keyword) => keyword.inert).map((keyword) => keyword.name));

/** Builds the generated module for one document. */
export class ModuleCompiler implements Compiler {
  readonly document: FormDocument;
  readonly #functions = new Map<string, Code>();
  readonly #names = new Set<string>();
  /** The next numeric suffix to try for each function-name stem (see {@link functionFor}). */
  readonly #suffixes = new Map<string, number>();
  readonly #queue: string[] = [];
  readonly #bodies: string[] = [];
  readonly #active = new Set<string>();
  readonly #hoisted: string[] = [];
  readonly #regexes = new Map<string, Code>();
  readonly #helpers = new Set<HelperName>();
  readonly #formats = new Map<string, Code>();
  /** The member names whose presence the module reads (see {@link own}). */
  readonly #memberNames = new Set<string>();
  /**
   * Results recorded for an enclosing `unevaluated*` check (src/compile/evaluated.ts), by
   * schema pointer and instance expression: the variable that holds each.
   */
  readonly #recorded = new Map<string, Code>();
  /**
   * Schema locations whose code must be inlined for a record inside them to be set, by schema
   * pointer and instance expression: the `unevaluated*` keyword that needs it, and how many do.
   */
  readonly #carriers = new Map<string, { keyword: string; count: number }>();
  /** Labels of the blocks being emitted by {@link record}, innermost last: a failure leaves the innermost. */
  readonly #labels: Code[] = [];

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
    // Resumed where the stem's last name was found, so that many names of one stem (a wide
    // `properties` of non-ASCII names) are found in linear time.
    let n = this.#suffixes.get(stem) ?? 2;
    while (this.#names.has(name)) name = `${stem}${n++}`;
    this.#suffixes.set(stem, n);
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
    if (this.#recursesInPlace(schema, pointer)) {
      // Its check reads records set inside a schema being emitted around it (a recursive
      // form): inlining that schema again would never end, so this node is a function, whose
      // body inlines it afresh.
      body.line(js`if (!${this.#functionFor(pointer)}(${data})) ${this.#leave()}`);
      return;
    }
    this.#active.add(pointer);
    const planned = this.#plan(schema, pointer, data, body);
    try {
      this.#emitNode(schema, pointer, data, body);
    } finally {
      this.#active.delete(pointer);
      for (const key of planned.recorded) this.#recorded.delete(key);
      for (const key of planned.carriers) {
        const carrier = this.#carriers.get(key);
        if (carrier !== undefined && --carrier.count === 0) this.#carriers.delete(key);
      }
    }
  }

  /** The `unevaluated*` keywords of the node that its code emits (the instance type allows them). */
  #unevaluated(schema: Readonly<Record<string, unknown>>): Array<[string, EvaluatedKind]> {
    const types = schema.type === undefined ? undefined : ([] as unknown[]).concat(schema.type);
    return unevaluatedKeywords
      .filter(([keyword]) => Object.hasOwn(schema, keyword) && schema[keyword] !== true)
      .filter(([, , group]) => types === undefined || types.some((name) => groupOf[name as string] === group))
      .map(([keyword, kind]) => [keyword, kind]);
  }

  /** Would the node's `unevaluated*` check inline a schema already being emitted? */
  #recursesInPlace(schema: Readonly<Record<string, unknown>>, pointer: string): boolean {
    return this.#unevaluated(schema).some(([, kind]) => {
      const plan = evaluationPlan(this.document, pointer, kind);
      return !plan.evaluation.all && [...plan.carriers].some((carrier) => this.#active.has(carrier));
    });
  }

  /**
   * For a node with `unevaluatedProperties` or `unevaluatedItems`: declares, before the node's
   * code, a variable for each result its check reads (a branch or `if` validated, a `contains`
   * matched), which the keywords that compute those results set where they compute them
   * ({@link recorded}); and marks the schema locations to inline so that they can. Nothing for
   * any other node: a form without these keywords compiles as before.
   */
  #plan(
    schema: Readonly<Record<string, unknown>>,
    pointer: string,
    data: Code,
    body: Body,
  ): { recorded: string[]; carriers: string[] } {
    const planned = { recorded: [] as string[], carriers: [] as string[] };
    for (const [keyword, kind] of this.#unevaluated(schema)) {
      const plan = evaluationPlan(this.document, pointer, kind);
      if (plan.evaluation.all) continue;
      for (const [pointers, initial] of [
        [plan.results, js`false`],
        [plan.matches, js`undefined`],
      ] as const) {
        for (const result of pointers) {
          const key = `${result}\u0000${data}`;
          if (this.#recorded.has(key)) continue;
          const variable = body.local("r");
          body.line(js`let ${variable} = ${initial};`);
          this.#recorded.set(key, variable);
          planned.recorded.push(key);
        }
      }
      for (const carrier of plan.carriers) {
        const key = `${carrier}\u0000${data}`;
        const known = this.#carriers.get(key);
        if (known === undefined) this.#carriers.set(key, { keyword: childPointer(pointer, keyword), count: 1 });
        else known.count += 1;
        planned.carriers.push(key);
      }
    }
    return planned;
  }

  recorded(pointer: string, data: Code): Code | undefined {
    return this.#recorded.get(`${pointer}\u0000${data}`);
  }

  record(pointer: string, data: Code, body: Body): Code {
    const variable = this.recorded(pointer, data);
    if (variable === undefined) throw new Error(`no result is recorded for ${pointer}`);
    const schema = this.document.node(pointer);
    if (schema === false) return variable;
    if (schema === true) {
      body.line(js`${variable} = true;`);
      return variable;
    }
    const label = body.local("b");
    body.open(js`${label}: {`);
    this.#labels.push(label);
    try {
      this.inline(pointer, data, body);
    } finally {
      this.#labels.pop();
    }
    body.line(js`${variable} = true;`);
    body.close();
    return variable;
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
    const carrier = this.#carriers.get(`${pointer}\u0000${data}`);
    if (carrier !== undefined) {
      // A record the check reads is set inside: the code must be here, not in a function. (A
      // node whose carriers are being emitted is itself a function: see `inline`.)
      if (this.#active.has(pointer)) throw new Error(`${carrier.keyword}: ${pointer} is inlined inside itself`);
      this.inline(pointer, data, body);
      return;
    }
    // Inline a definition referenced once: it is compiled nowhere else. Anything else is a call,
    // so no location's code is ever duplicated.
    const definition = (parsePointer(pointer) ?? []).at(-2) === "$defs";
    if (definition && this.document.refCount(pointer) === 1 && !this.#active.has(pointer))
      this.inline(pointer, data, body);
    else body.line(js`if (!${this.#functionFor(pointer)}(${data})) ${this.#leave()}`);
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
    const label = this.#labels.at(-1);
    return label === undefined ? js`return fail(${at});` : js`break ${label};`;
  }

  leave(): Code {
    return this.#leave();
  }

  memberChecks(schemas: ReadonlyArray<readonly [name: string, pointer: string, checkedAt: string]>): Code {
    const entries = schemas.map(([name, , checkedAt]) => js`[${name}, ${this.#functionFor(checkedAt)}]`);
    const checks = id(`c${this.#hoisted.length}`);
    this.#hoisted.push(js`const ${checks} = new Map([${join(entries, js`, `)}]);`.toString());
    // The cache of `checkMembers`: 16 (name, check) pairs, none yet (`null` is no name).
    const seen = id(`c${this.#hoisted.length}`);
    this.#hoisted.push(js`const ${seen} = new Array(32).fill(null);`.toString());
    const moved = schemas
      .filter(([, pointer, checkedAt]) => checkedAt !== pointer)
      .map(([name, pointer, checkedAt]) => js`[${name}, [${checkedAt.length}, ${pointer}]]`);
    const pointers = id(`c${this.#hoisted.length}`);
    this.#hoisted.push(js`const ${pointers} = new Map([${join(moved, js`, `)}]);`.toString());
    return js`${checks}, ${seen}, ${pointers}`;
  }

  /** The statement that fails without naming a keyword (the callee named it). */
  #leave(): Code {
    const label = this.#labels.at(-1);
    return label === undefined ? js`return false;` : js`break ${label};`;
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
