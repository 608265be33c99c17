/**
 * The form-to-controls renderer: a form `s` becomes the HTML controls of the page for people,
 * at build time. Objects are fieldsets, strings text inputs or textareas, numbers number
 * inputs, booleans checkboxes, `enum` a select, an array of `enum` with `uniqueItems` a group
 * of checkboxes, arrays a list with "Add …"/"Remove …" buttons, `anyOf`/`oneOf` a select of
 * alternatives, an optional object an "Add …" button. Whatever has no control of its own (a
 * tuple, a node without `type`) is a JSON textarea. Repeated and chosen parts are `<template>`
 * elements the page script instantiates; they are rendered once per schema location, so a
 * recursive form stays finite.
 *
 * The markup is the contract with the page script (`runtime.ts`): `data-k` is the kind of a
 * node, `data-p` its member name in the enclosing object, `data-r` marks a required member,
 * `data-t` names the template(s) to instantiate, `data-v` holds JSON values (a `const`, the
 * members of an `enum`), `data-min`/`data-max` bound an array, `data-tags` the discriminating
 * `const` member of each alternative.
 *
 * @module
 */
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { isJsonObject } from "../../json/is-json-object.ts";
import { stringifyJson } from "../../json/stringify.ts";
import type { FormDocument } from "../document.ts";
import { childPointer } from "../pointer.ts";
import { keywordOf } from "../vocabulary.ts";
import { constraintWords } from "./words.ts";

type Html = HtmlEscapedString;
type Node = Readonly<Record<string, unknown>>;

/** Object properties nest inline at most this deep; deeper ones become JSON textareas. */
const MAX_INLINE_DEPTH = 24;

/**
 * The input type of each `format` a browser has a control for. A `date` input's value is
 * already an RFC 3339 full-date; `time` and `datetime-local` values lack the offset (and maybe
 * the seconds) RFC 3339 requires: the page script adds them (`data-f`, see `runtime.ts`).
 */
const NATIVE: Readonly<Record<string, string>> = {
  date: "date",
  time: "time",
  "date-time": "datetime-local",
  email: "email",
  uri: "url",
};

/** What {@link renderControls} produced. */
export interface Controls {
  /** The root node's controls. */
  readonly root: string;
  /** Every `<template>` the controls refer to. */
  readonly templates: string;
  /**
   * The schema locations shown as one field each (a text, number, boolean, `enum` or set),
   * with their schema: the page checks each field with a validator compiled from it.
   */
  readonly fields: ReadonlyMap<string, unknown>;
  /** Schema location of each `$ref` → the location it resolves to. */
  readonly refs: Record<string, string>;
  /** Schema location of each alternative shown → its discriminating `[member, const]`. */
  readonly tags: Record<string, [string, unknown]>;
}

const sync = (value: HtmlEscapedString | Promise<HtmlEscapedString>): Html => {
  if (value instanceof Promise) throw new TypeError("controls: unexpected asynchronous content");
  return value;
};

const json = (value: unknown): string => stringifyJson(value);

/** `blocks` → `block`, `items` → `item`; a name that is not a plain plural is kept. */
function singular(name: string): string {
  return /^[a-z][a-z-]*[^s]s$/i.test(name) ? name.slice(0, -1) : name;
}

/** Renders the controls of a form; see the module summary. */
export function renderControls(document: FormDocument, rootName: string): Controls {
  const templates: Html[] = [];
  const keys = new Map<string, string>();
  const fields = new Map<string, unknown>();
  const tags: Record<string, [string, unknown]> = {};

  /**
   * Follows `$ref`s that stand alone (beside keywords that constrain nothing, each keyword file's
   * `inert`), keeping the outer annotations.
   */
  function resolve(pointer: string): { pointer: string; node: unknown; title?: string; description?: string } {
    let at = pointer;
    let node = document.node(at);
    let title: string | undefined;
    let description: string | undefined;
    for (let hops = 0; hops < 64 && isJsonObject(node); hops++) {
      if (title === undefined && typeof node.title === "string") title = node.title;
      if (description === undefined && typeof node.description === "string") description = node.description;
      if (
        !Object.hasOwn(node, "$ref") ||
        !Object.keys(node).every((name) => name === "$ref" || keywordOf(name)?.inert === true || name.startsWith("$"))
      )
        break;
      at = document.refTarget(at);
      node = document.node(at);
    }
    return {
      pointer: at,
      node,
      ...(title === undefined ? {} : { title }),
      ...(description === undefined ? {} : { description }),
    };
  }

  function template(key: string, body: () => Html): string {
    const known = keys.get(key);
    if (known !== undefined) return known;
    const id = `gpt-t${keys.size}`;
    keys.set(key, id);
    templates.push(sync(html`<template id="${id}">${body()}</template>\n`));
    return id;
  }

  /** The name a node is shown by: its `title`, else the given name. */
  function label(resolved: { title?: string }, fallback: string): string {
    return resolved.title ?? fallback;
  }

  /**
   * The help text of a field: its `description` as written (the author's hint), then its
   * constraints in words (`constraintWords`); for a time, how its offset is chosen.
   */
  function help(node: Node, description: string | undefined, picker = false): Html | string {
    const words = constraintWords(node, picker);
    const parts = [
      description,
      words.length > 0 ? `${words.join("; ")}.`.replace(/^m/, "M") : undefined,
      picker && node.format !== "date" ? "Sent with this browser's offset from UTC." : undefined,
    ].filter((part) => part !== undefined);
    return parts.length === 0 ? "" : sync(html`<p class="help" data-help>${parts.join(" ")}</p>`);
  }

  const mark = (on: boolean): Html | string => (on ? sync(html`<span class="req" aria-hidden="true"> *</span>`) : "");
  /**
   * A control the person must fill: `aria-required`, not `required`. The form is `novalidate`
   * (the address's validator decides), and Chromium exposes an empty native-`required` select
   * or date/time input as invalid before the person has done anything.
   */
  const need = (on: boolean): Html | string => (on ? raw(' aria-required="true"') : "");

  function attributes(member: string | undefined, required: boolean): Html {
    return sync(html`${member === undefined ? "" : html` data-p="${member}"`}${required ? raw(" data-r") : ""}`);
  }

  /** The controls of the schema at `pointer`, shown as `name`, as member `member` of its object. */
  function node(pointer: string, name: string, member: string | undefined, required: boolean, depth: number): Html {
    const resolved = resolve(pointer);
    const schema = resolved.node;
    const shown = label(resolved, name);
    const attrs = attributes(member, required);
    if (!isJsonObject(schema)) return jsonField(shown, attrs, required, undefined);
    const kind = kindOf(schema);
    const description = resolved.description;
    switch (kind) {
      case "const":
        return sync(html`<div hidden data-k="const" data-v="${json(schema.const ?? null)}"${attrs}></div>`);
      case "choice":
        return choice(resolved.pointer, schema, shown, attrs, description);
      case "object":
        if (depth > MAX_INLINE_DEPTH) return jsonField(shown, attrs, required, description);
        return object(resolved.pointer, schema, shown, attrs, description, depth);
      case "array":
        return array(resolved.pointer, schema, shown, member ?? name, attrs, required, description);
      case "set": {
        fields.set(resolved.pointer, schema);
        const values = ((schema.items as Node).enum as unknown[]) ?? [];
        const must = required && typeof schema.minItems === "number" && schema.minItems > 0;
        return sync(html`<fieldset data-k="set" data-v="${json(values)}"${attrs}><legend>${shown}${mark(must)}</legend>
${values.map((value) => html`<label class="check"><input type="checkbox"> ${typeof value === "string" ? value : json(value)}</label>\n`)}${help(schema, description)}</fieldset>\n`);
      }
      case "enum": {
        fields.set(resolved.pointer, schema);
        const values = schema.enum as unknown[];
        return sync(
          html`<div class="field" data-k="enum" data-v="${json(values)}"${attrs}><label>${shown}${mark(required)} <select${need(required)}><option value="">${required ? "(choose)" : "(none)"}</option>${values.map(
            (value, index) =>
              html`<option value="${index}">${typeof value === "string" ? value : json(value)}</option>`,
          )}</select></label>${help(schema, description)}</div>\n`,
        );
      }
      case "boolean":
        fields.set(resolved.pointer, schema);
        if (required)
          return sync(
            html`<div class="field" data-k="boolean"${attrs}><label class="check"><input type="checkbox"> ${shown}</label>${help(schema, description)}</div>\n`,
          );
        return sync(
          html`<div class="field" data-k="boolean"${attrs}><label>${shown} <select><option value="">(not set)</option><option value="true">yes</option><option value="false">no</option></select></label>${help(schema, description)}</div>\n`,
        );
      case "number":
      case "integer": {
        fields.set(resolved.pointer, schema);
        const step = typeof schema.multipleOf === "number" ? schema.multipleOf : kind === "integer" ? 1 : "any";
        const bound = (name: string, value: unknown) =>
          typeof value === "number" || typeof value === "bigint" ? html` ${raw(name)}="${String(value)}"` : "";
        return sync(
          html`<div class="field" data-k="number"${attrs}><label>${shown}${mark(required)} <input type="number" step="${step}"${bound("min", schema.minimum)}${bound("max", schema.maximum)}${need(required)}></label>${help(schema, description)}</div>\n`,
        );
      }
      case "string": {
        fields.set(resolved.pointer, schema);
        const min = typeof schema.minLength === "number" ? schema.minLength : 0;
        const max = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
        const format = typeof schema.format === "string" ? schema.format : undefined;
        const type = (format !== undefined && Object.hasOwn(NATIVE, format) && NATIVE[format]) || "text";
        // A date, time or date-time input offers a picker: its words need not say "a date".
        const picker = type !== "text" && type !== "email" && type !== "url";
        const pattern =
          !picker && typeof schema.pattern === "string" && validInHtml(schema.pattern)
            ? html` pattern="${schema.pattern}"`
            : "";
        const common = html`${min > 0 && !picker ? html` minlength="${min}"` : ""}${need(required)} autocomplete="off"${picker ? "" : html` spellcheck="${schema.pattern === undefined && format === undefined ? "true" : "false"}"`}`;
        const long = (max === undefined || max > 200) && schema.pattern === undefined && format === undefined;
        const control = long
          ? html`<textarea rows="3"${common}></textarea>`
          : html`<input type="${type}"${pattern}${common}>`;
        const converted = format === "time" || format === "date-time" ? html` data-f="${format}"` : "";
        return sync(
          html`<div class="field" data-k="string"${converted}${attrs}><label>${shown}${mark(required)} ${control}</label>${help(schema, description, picker)}</div>\n`,
        );
      }
      default:
        return jsonField(shown, attrs, required, description);
    }
  }

  function jsonField(shown: string, attrs: Html, required: boolean, description: string | undefined): Html {
    return sync(
      html`<div class="field" data-k="json"${attrs}><label>${shown} (as JSON)${mark(required)} <textarea rows="3" spellcheck="false"${need(required)}></textarea></label>${description === undefined ? "" : html`<p class="help" data-help>${description}</p>`}</div>\n`,
    );
  }

  function object(
    pointer: string,
    schema: Node,
    shown: string,
    attrs: Html,
    description: string | undefined,
    depth: number,
  ): Html {
    const properties = isJsonObject(schema.properties) ? schema.properties : {};
    const needed = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const children = Object.keys(properties).map((name) => {
      const at = childPointer(pointer, "properties", name);
      const must = needed.has(name);
      const inner = resolve(at);
      const kind = isJsonObject(inner.node) ? kindOf(inner.node) : "json";
      if (!must && (kind === "object" || kind === "choice")) {
        const shownName = label(inner, name);
        const id = template(`optional ${at}`, () =>
          sync(
            html`${node(at, name, undefined, true, 0)}<button type="button" data-remove>Remove ${shownName}</button>`,
          ),
        );
        return sync(
          html`<div class="optional" data-k="optional" data-p="${name}" data-t="${id}"><button type="button" data-add>Add ${shownName}</button><div data-slot></div></div>\n`,
        );
      }
      return node(at, name, name, must, depth + 1);
    });
    return sync(html`<fieldset data-k="object"${attrs}><legend>${shown} <span data-n></span></legend>
${description === undefined ? "" : html`<p class="help" data-help>${description}</p>`}${children}</fieldset>\n`);
  }

  function array(
    pointer: string,
    schema: Node,
    shown: string,
    member: string,
    attrs: Html,
    required: boolean,
    description: string | undefined,
  ): Html {
    const at = childPointer(pointer, "items");
    const item = resolve(at);
    const itemName = item.title ?? singular(member);
    const id = template(`item ${at} ${itemName}`, () =>
      sync(
        html`<li>${node(at, itemName, undefined, true, 0)}<button type="button" data-remove>Remove ${itemName} <span data-n></span></button></li>`,
      ),
    );
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const max = typeof schema.maxItems === "number" ? html` data-max="${schema.maxItems}"` : "";
    return sync(html`<fieldset data-k="array" data-t="${id}" data-min="${min}"${max}${attrs}><legend>${shown}${mark(required && min > 0)}</legend>
${help(schema, description)}<ol></ol><button type="button" data-add>Add ${itemName}</button></fieldset>\n`);
  }

  function choice(pointer: string, schema: Node, shown: string, attrs: Html, description: string | undefined): Html {
    const keyword = Array.isArray(schema.anyOf) ? "anyOf" : "oneOf";
    const alternatives = (schema[keyword] as unknown[]).map((_, index) => {
      const at = childPointer(pointer, keyword, index);
      const inner = resolve(at);
      const tag = discriminator(inner.pointer);
      if (tag !== null) tags[at] = tag;
      const name = inner.title ?? (typeof tag?.[1] === "string" ? tag[1] : `choice ${index + 1}`);
      const id = template(`alternative ${at}`, () => node(at, name, undefined, true, 0));
      return { id, name, tag };
    });
    return sync(html`<fieldset data-k="choice" data-t="${json(alternatives.map((a) => a.id))}" data-tags="${json(alternatives.map((a) => a.tag))}"${attrs}><legend>${shown} <span data-n></span></legend>
${description === undefined ? "" : html`<p class="help" data-help>${description}</p>`}<label>${shown} type <select>${alternatives.map(
      (alternative, index) => html`<option value="${index}">${alternative.name}</option>`,
    )}</select></label><div data-slot></div></fieldset>\n`);
  }

  /** The first member of an alternative whose value is fixed by `const`: `["type", "heading"]`. */
  function discriminator(pointer: string): [string, unknown] | null {
    const schema = document.node(pointer);
    if (!isJsonObject(schema) || !isJsonObject(schema.properties)) return null;
    for (const name of Object.keys(schema.properties)) {
      const member = resolve(childPointer(pointer, "properties", name)).node;
      if (isJsonObject(member) && Object.hasOwn(member, "const")) return [name, member.const];
    }
    return null;
  }

  const refs: Record<string, string> = {};
  const walk = (schema: unknown, pointer: string): void => {
    if (!isJsonObject(schema)) return;
    if (Object.hasOwn(schema, "$ref")) refs[pointer] = document.refTarget(pointer);
    for (const [name, value] of Object.entries(schema))
      for (const [tokens, sub] of keywordOf(name)?.subschemas?.(value) ?? [])
        walk(sub, childPointer(pointer, name, ...tokens));
  };
  walk(document.root, "");
  const root = node("", rootName, undefined, true, 0);
  return { root: root.toString(), templates: templates.join(""), fields, refs, tags };
}

type Kind =
  | "const"
  | "choice"
  | "object"
  | "array"
  | "set"
  | "enum"
  | "boolean"
  | "number"
  | "integer"
  | "string"
  | "json";

/** Which control a schema node needs. */
function kindOf(schema: Node): Kind {
  if (Object.hasOwn(schema, "const")) return "const";
  if (Array.isArray(schema.enum))
    return schema.enum.every((v) => v === null || typeof v !== "object") ? "enum" : "json";
  const type = Array.isArray(schema.type) ? (schema.type.length === 1 ? schema.type[0] : undefined) : schema.type;
  if ((Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) && type === undefined) return "choice";
  if (type === "object" || (type === undefined && isJsonObject(schema.properties))) return "object";
  if (type === "array" || (type === undefined && Object.hasOwn(schema, "items"))) {
    if (Object.hasOwn(schema, "prefixItems") || !isJsonObject(schema.items)) return "json";
    const items = schema.items;
    if (
      schema.uniqueItems === true &&
      Array.isArray(items.enum) &&
      items.enum.every((v) => v === null || typeof v !== "object")
    )
      return "set";
    return "array";
  }
  if (type === "boolean" || type === "number" || type === "integer" || type === "string") return type;
  if (type === "null") return "const";
  return "json";
}

/** Whether a `pattern` means the same as an HTML `pattern` attribute (`v` flag, anchored). */
function validInHtml(pattern: string): boolean {
  if (!pattern.startsWith("^") || !pattern.endsWith("$")) return false;
  try {
    new RegExp(pattern, "v");
    return true;
  } catch {
    return false;
  }
}
