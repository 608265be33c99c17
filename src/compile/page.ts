/**
 * The page for people (draft: Representation for Human Readers; A6), rendered at build time:
 * what the address is (`s.description`, the words of every door, else `p`), and — when the
 * form's generated validator is given — the form as controls a person fills, checked in the
 * browser by that same validator before one `fetch` POSTs the exact JSON, and registered as a
 * WebMCP tool; then, for programs, `p` (the HTTP actor's words), the messages `m` and `s`.
 *
 * @module
 */
import { html, raw } from "hono/html";
import { contentSecurityPolicy } from "../address/content-security-policy.ts";
import { isJsonObject } from "../json/is-json-object.ts";
import { stringifyJson } from "../json/stringify.ts";
import { FormDocument } from "./document.ts";
import { renderControls } from "./page/controls.ts";
import { type PageScript, pageScript } from "./page/script.ts";
import { ruleWords } from "./page/words.ts";

/** The members of an arrival document the page shows; other members are ignored (A3). */
export interface ArrivalForPage {
  /** System context: what this address is, and what to do. */
  readonly p: string;
  /** Prior messages, normally `{role, content}` objects. */
  readonly m: readonly unknown[];
  /** The form. */
  readonly s: unknown;
  readonly [member: string]: unknown;
}

/** Options of {@link buildArrivalPage}. */
export interface ArrivalPageOptions {
  /** The document title; default `s.title`, else the name, else `"GPT address"`. */
  readonly title?: string;
  /** The form's name (its file name), the WebMCP tool name; default `"address"`. */
  readonly name?: string;
  /**
   * The generated validator module of `s` (the output of `compileForm`). Without it the page
   * only describes the form and runs no script.
   */
  readonly validator?: string;
  /**
   * `"http"` (default): the page an address serves, which POSTs to its own URL
   * (`connect-src 'self'`). `"mcp-app"`: the same page for an MCP Apps host's sandboxed
   * iframe (`text/html;profile=mcp-app`), which cannot fetch (no `connect-src`) and sends the
   * act as the host's `tools/call` of the tool named `name` (`page/app-bridge.ts`).
   */
  readonly mode?: "http" | "mcp-app";
}

/** A built page. */
export interface ArrivalPage {
  /** The HTML document, to be served as `text/html; charset=utf-8`. */
  readonly html: string;
  /** Its Content-Security-Policy as a response field (with `frame-ancestors`). */
  readonly contentSecurityPolicy: string;
  /** The page script, when there is one. */
  readonly script?: PageScript;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
.content{white-space:pre-wrap}pre{background:#f4f4f4;padding:1rem;font-size:13px;white-space:pre-wrap;overflow-wrap:anywhere}
dt{font-weight:600}dd{margin:0 0 1rem 1rem}fieldset{border:1px solid #bbb;margin:.5rem 0;padding:.5rem .75rem}
legend{font-weight:600}.field{margin:.5rem 0}.field>label{display:block}.check{display:inline-block;margin-right:1rem}
input[type=text],input[type=url],input[type=email],textarea{display:block;width:100%;box-sizing:border-box;font:inherit}
.help{color:#555;font-size:14px;margin:.2rem 0}.error{color:#b00020;font-weight:600;margin:.2rem 0}
[aria-invalid=true]{border:2px solid #b00020}.req{color:#b00020}ol{padding-left:1.5rem}
button{font:inherit;margin:.25rem .5rem .25rem 0}#gpt-status{margin-top:1rem}`;

/**
 * Builds the page; see the module summary. Every value is escaped by `hono/html`; the only
 * script is the generated one, inline, allowed by its hash. Pure: the same arrival and
 * validator always give the same page, so its entity-tag is computed at build time.
 *
 * @param arrival - the arrival document `{p, m, s}`.
 * @param options - {@link ArrivalPageOptions}.
 * @throws {FormError} when a validator is given and `s` is not a form the compiler accepts.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-12.5.1 (Accept)
 * @see https://webmachinelearning.github.io/webmcp/ (WebMCP `registerTool`)
 */
export function buildArrivalPage(arrival: ArrivalForPage, options: ArrivalPageOptions = {}): ArrivalPage {
  const s = isJsonObject(arrival.s) ? arrival.s : {};
  const name = options.name ?? "address";
  const app = options.mode === "mcp-app";
  const title = options.title ?? (typeof s.title === "string" ? s.title : (options.name ?? "GPT address"));
  const about = typeof s.description === "string" ? s.description : undefined;
  const messages = arrival.m.map((message) => {
    const { role, content } = isJsonObject(message) ? message : { role: undefined, content: message };
    return html`<dt>${typeof role === "string" ? role : "message"}</dt>
<dd class="content">${typeof content === "string" ? content : JSON.stringify(content, null, 2)}</dd>
`;
  });
  let script: PageScript | undefined;
  let formPart: unknown = "";
  if (options.validator !== undefined) {
    const controls = renderControls(new FormDocument(arrival.s), title);
    script = pageScript(options.validator, controls.fields, {
      name,
      title,
      description: about ?? arrival.p,
      refs: controls.refs,
      tags: controls.tags,
      words: ruleWords(arrival.s),
      ...(app ? { app: 1 as const } : {}),
    });
    formPart = html`<h2 id="gpt-fill">Fill in the form</h2>
<p data-js>Filling in the form needs JavaScript. Without it, POST one JSON value that matches the JSON Schema below to this address.</p>
<form id="gpt-form" aria-labelledby="gpt-fill" novalidate hidden data-js>
<p class="help">Fields marked <span class="req">*</span> are required. The value is checked here with the address's own validator before it is sent.</p>
${raw(controls.root)}<details id="gpt-json-mode"><summary>JSON</summary>
<div class="field"><label>JSON value <textarea id="gpt-json" rows="14" spellcheck="false" aria-describedby="gpt-json-error"></textarea></label>
<p id="gpt-json-error" class="help" aria-live="polite"></p></div></details>
<p><button type="submit">Submit</button></p>
<div id="gpt-status" role="status"></div>
</form>
${raw(controls.templates)}`;
  }
  const policy = { scriptHashes: script === undefined ? [] : [script.hash], connectSelf: script !== undefined && !app };
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${STYLE}</style>
${script === undefined ? "" : raw(`<script type="module">${script.text}</script>\n`)}</head>
<body>
<main>
<h1>${title}</h1>
<p class="content">${about ?? arrival.p}</p>
${formPart}<h2>For programs</h2>
<p>This is a GPT address. A <code>GET</code> without <code>Accept: text/html</code> receives this document as JSON <code>{p, m, s}</code>; an act is a <code>POST</code> of one JSON value that validates against the form <code>s</code> below.</p>
${
  about === undefined
    ? ""
    : html`<h3>What the address tells them (<code>p</code>)</h3>
<p class="content">${arrival.p}</p>
`
}${
  messages.length > 0
    ? html`<h3>Example messages (<code>m</code>)</h3>
<dl>
${messages}</dl>
`
    : ""
}<details><summary>Show the JSON Schema (<code>s</code>)</summary>
<pre id="gpt-schema">${stringifyJson(arrival.s, 2)}</pre>
</details>
</main>
</body>
</html>
`;
  if (page instanceof Promise) throw new TypeError("buildArrivalPage: unexpected asynchronous content");
  return {
    html: page.toString(),
    contentSecurityPolicy: contentSecurityPolicy({ ...policy, field: true }),
    ...(script === undefined ? {} : { script }),
  };
}

/**
 * The HTML of {@link buildArrivalPage}.
 *
 * @param arrival - the arrival document `{p, m, s}`.
 * @param options - {@link ArrivalPageOptions}.
 * @returns the HTML document, to be served as `text/html; charset=utf-8`.
 */
export function renderArrivalPage(arrival: ArrivalForPage, options: ArrivalPageOptions = {}): string {
  return buildArrivalPage(arrival, options).html;
}
