/**
 * The one primitive through which the compiler writes JavaScript: a tagged template whose
 * literal parts are code and whose substitutions are values, serialized safely.
 *
 * - a {@link Code} substitution is inserted as is (it was itself built by {@link js});
 * - a string becomes a string literal (JSON, with U+2028/U+2029 escaped);
 * - a finite number becomes a numeric literal, a `bigint` a BigInt literal (`9223372036854775807n`,
 *   compared with a number exactly), a boolean or null its literal;
 * - anything else throws: there is no way to splice unchecked text into generated code.
 *
 * @module
 */

/** A fragment of generated JavaScript, built only by {@link js}, {@link id} or {@link json}. */
export class Code {
  readonly #text: string;
  /** @internal Use {@link js}. */
  constructor(text: string, token: symbol) {
    if (token !== secret) throw new TypeError("Code is built by js``, id() or json() only");
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

const secret = Symbol("Code");

/** A value allowed in a {@link js} substitution. */
export type Substitution = Code | string | number | bigint | boolean | null;

/** Serializes a string as a JavaScript string literal, safe in any source position. */
export function stringLiteral(value: string): string {
  return JSON.stringify(value).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

function substitute(value: Substitution): string {
  if (value instanceof Code) return value.toString();
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
    return Object.is(value, -0) ? "-0" : JSON.stringify(value);
  }
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "boolean" || value === null) return String(value);
  throw new TypeError(`unsafe substitution: ${typeof value}`);
}

/** Builds code from a template literal; see the module summary for how values are serialized. */
export function js(strings: TemplateStringsArray, ...values: Substitution[]): Code {
  if (!Array.isArray(strings.raw)) throw new TypeError("js`` must be used as a template tag");
  let text = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) text += substitute(values[i] as Substitution) + (strings[i + 1] ?? "");
  return new Code(text, secret);
}

const reserved = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with yield let static implements interface package private protected public await arguments eval"
  ).split(" "),
);

/** An identifier, checked against a whitelist (ASCII word characters, not a reserved word). */
export function id(name: string): Code {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) || reserved.has(name)) {
    throw new TypeError(`not a safe identifier: ${JSON.stringify(name)}`);
  }
  return new Code(name, secret);
}

/** Joins fragments with a separator that is itself code. */
export function join(parts: ReadonlyArray<Code>, separator: Code): Code {
  return new Code(parts.map(String).join(separator.toString()), secret);
}

/**
 * A JSON value as an expression: a primitive as its literal, an array or object as
 * `JSON.parse("…")` (so a `"__proto__"` member stays an own member, as in the instance).
 */
export function json(value: unknown): Code {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return js`${value}`;
  }
  return js`JSON.parse(${JSON.stringify(value)})`;
}

/** Member access `object.name`, or `object["name"]` when the name is not a plain identifier. */
export function member(object: Code, name: string): Code {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && !reserved.has(name)
    ? js`${object}.${id(name)}`
    : js`${object}[${name}]`;
}
