/**
 * The page for people (draft: Representation for Human Readers; A6), rendered at build time.
 *
 * @module
 */
import { html } from "hono/html";
import { isJsonObject } from "../json/is-json-object.ts";

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

/** Options of {@link renderArrivalPage}. */
export interface ArrivalPageOptions {
  /** The document title; default `"GPT address"`. */
  readonly title?: string;
}

/**
 * No scripts, no external resources, no forms, no framing: the page only shows text and one
 * inline style sheet.
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
.content{white-space:pre-wrap}pre{background:#f4f4f4;padding:1rem;overflow:auto;font-size:13px}
dt{font-weight:600}dd{margin:0 0 1rem 1rem}`;

/**
 * Renders the arrival document as a complete, small HTML document: `p`, the messages `m`
 * and the form `s` pretty-printed. Every value is escaped by `hono/html`; the result holds no
 * script. Pure: the same arrival always gives the same string, so its entity-tag can be
 * computed at build time.
 *
 * @param arrival - the arrival document `{p, m, s}`.
 * @param options - {@link ArrivalPageOptions}.
 * @returns the HTML document, to be served as `text/html; charset=utf-8`.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-12.5.1 (Accept)
 */
export function renderArrivalPage(arrival: ArrivalForPage, options: ArrivalPageOptions = {}): string {
  const title = options.title ?? "GPT address";
  const messages = arrival.m.map((message) => {
    const { role, content } = isJsonObject(message) ? message : { role: undefined, content: message };
    return html`<dt>${typeof role === "string" ? role : "message"}</dt>
<dd class="content">${typeof content === "string" ? content : JSON.stringify(content, null, 2)}</dd>
`;
  });
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${title}</h1>
<p class="content">${arrival.p}</p>
${
  messages.length > 0
    ? html`<h2>Messages</h2>
<dl>
${messages}</dl>
`
    : ""
}<h2>Form</h2>
<p>This is a GPT address. A <code>GET</code> without <code>Accept: text/html</code> receives this document as JSON <code>{p, m, s}</code>; an act is a <code>POST</code> of one JSON value that validates against the form <code>s</code> below.</p>
<pre>${JSON.stringify(arrival.s, null, 2)}</pre>
</body>
</html>
`;
  if (page instanceof Promise) throw new TypeError("renderArrivalPage: unexpected asynchronous content");
  return page.toString();
}
