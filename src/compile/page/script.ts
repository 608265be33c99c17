/**
 * The module script of the page for people, assembled at build time: the form's generated
 * validator (the very module the address validates POST bodies with), a validator compiled
 * from each field's own schema (to show every failing field, not only the first), the page
 * data and the runtime. One inline `<script type="module">`, allowed by its SHA-256 hash.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { stringifyJson } from "../../json/stringify.ts";
import { compileForm } from "../compile-form.ts";
import { FormError } from "../form-error.ts";
import { APP_BRIDGE } from "./app-bridge.ts";
import { RUNTIME } from "./runtime.ts";

/** What the runtime reads as `D`. */
export interface PageData {
  /** The tool name: the form's name. */
  readonly name: string;
  /** The tool title: `s.title`, else the name. */
  readonly title: string;
  /** The tool description: `s.description`, else `p`. */
  readonly description: string;
  /** Schema location of each `$ref` → the location it resolves to. */
  readonly refs: Readonly<Record<string, string>>;
  /** Schema location of each `anyOf`/`oneOf` alternative → its discriminating `[member, const]`. */
  readonly tags: Readonly<Record<string, readonly [string, unknown]>>;
  /** Keyword location → the rule in words. */
  readonly words: Readonly<Record<string, string>>;
  /** Schema location of a field → index of its check in `C`. */
  readonly fields: Readonly<Record<string, number>>;
  /** Present in the `mcp-app` page: acts go through the host's tool call (`app-bridge.ts`). */
  readonly app?: 1;
}

/** The assembled script and the `script-src` hash source that allows it. */
export interface PageScript {
  /** The script text, exactly as it stands between `<script type="module">` and `</script>`. */
  readonly text: string;
  /** Base64 SHA-256 of the UTF-8 bytes of {@link text}, for `'sha256-…'`. */
  readonly hash: string;
  /** UTF-8 bytes of the generated validator part. */
  readonly validatorBytes: number;
}

/**
 * A generated validator module as an expression: `validate` and `lastFailure` become the
 * members of an object, its declarations stay private to a function scope.
 *
 * @throws {TypeError} when the module is not the compiler's shape (exports other than
 *   `validate`, `validateParsed` and `lastFailure`).
 */
export function moduleExpression(source: string): string {
  // `validateParsed` stays in the module unexported: the page checks values it built itself with
  // the exact `validate`.
  const body = source.replace(/^export function (validate|validateParsed|lastFailure)\(/gm, "function $1(");
  if (/^\s*export\b/m.test(body) || /^\s*import\b/m.test(body))
    throw new TypeError("page script: a generated validator may only export validate, validateParsed and lastFailure");
  return `(() => {\n${body}\nreturn { validate, lastFailure };\n})()`;
}

/** Keeps `</script` and `<!--` out of script text (equal meaning inside strings and regexes). */
function inert(code: string): string {
  return code.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

/** JSON as a JavaScript expression that cannot end the script element. */
function jsonExpression(value: unknown): string {
  return stringifyJson(value)
    .replaceAll("<", "\\u003c")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

/**
 * Assembles the page script.
 *
 * @param validator - the generated validator module of the whole form (as the address runs it).
 * @param fieldSchemas - the schema of each field, by schema location; a field whose schema
 *   cannot be compiled on its own (a `$ref` inside it) gets no check of its own.
 * @param data - the page data without `fields`; with `app: 1`, the MCP Apps bridge follows the
 *   runtime (the `mcp-app` page).
 * @throws {TypeError} when the assembled text could end its script element.
 */
export function pageScript(
  validator: string,
  fieldSchemas: ReadonlyMap<string, unknown>,
  data: Omit<PageData, "fields">,
): PageScript {
  const checks: string[] = [];
  const byText = new Map<string, number>();
  const fields: Record<string, number> = {};
  for (const [pointer, schema] of fieldSchemas) {
    const key = stringifyJson(schema);
    let index = byText.get(key);
    if (index === undefined) {
      let source: string;
      try {
        source = compileForm(schema);
      } catch (error) {
        if (error instanceof FormError) continue;
        throw error;
      }
      index = checks.push(moduleExpression(source)) - 1;
      byText.set(key, index);
    }
    fields[pointer] = index;
  }
  const validatorPart = inert(moduleExpression(validator));
  // The runtime first: the same text at the start of every page, which a bundle holding several
  // pages compresses well. Leading indentation is only for reading the source.
  const text = [
    RUNTIME.replace(/^ +/gm, ""),
    ...(data.app === 1 ? [APP_BRIDGE.replace(/^ +/gm, "")] : []),
    `gptAddressPage(${validatorPart},`,
    `[${checks.map(inert).join(",\n")}],`,
    `${jsonExpression({ ...data, fields })});`,
  ].join("\n");
  if (/<\/script|<!--/i.test(text)) throw new TypeError("page script: the text could end its script element");
  return {
    text,
    hash: createHash("sha256").update(text, "utf8").digest("base64"),
    validatorBytes: new TextEncoder().encode(validatorPart).length,
  };
}
