/**
 * Renders an act of the page address (`forms/page.json`) as a complete HTML document.
 *
 * @module
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { NO_SCRIPT_POLICY } from "../../src/address/content-security-policy.ts";

/** A mark of a span, as the form enumerates them. */
export type Mark = "bold" | "italic" | "code" | "strike";

/** A run of text (the form's `$defs/span`). */
export interface Span {
  readonly text: string;
  readonly marks?: readonly Mark[];
  readonly href?: string;
}

/** A list at any of the form's unrolled depths (`$defs/list1` … `list3`). */
export interface List {
  readonly type: "list";
  readonly ordered: boolean;
  readonly items: readonly ListItem[];
}

/** An item of a list (`$defs/item1` … `item3`); the deepest items have no `children`. */
export interface ListItem {
  readonly spans: readonly Span[];
  readonly children?: List;
}

/** A block of the page (`$defs/block`). */
export type Block =
  | { readonly type: "heading"; readonly level: number; readonly spans: readonly Span[] }
  | { readonly type: "paragraph"; readonly spans: readonly Span[] }
  | List;

/**
 * A page, structurally: every valid act of the page form is one (the example app checks the
 * generated `Act` type against it at compile time).
 */
export interface PageDocument {
  readonly title: string;
  readonly blocks: readonly Block[];
}

const STYLE = `body{font:17px/1.6 Georgia,serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code{font:14px ui-monospace,monospace;background:#f1f1f1;padding:0 .2em}footer{margin-top:3rem;font:13px system-ui,sans-serif;color:#666}`;

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Links only to https, re-checked here although the form's pattern already requires it. */
const HTTPS = /^https:\/\//;

function span(s: Span): Html {
  let inner: Html = html`${s.text}`;
  const marks = s.marks ?? [];
  if (marks.includes("code")) inner = html`<code>${inner}</code>`;
  if (marks.includes("strike")) inner = html`<s>${inner}</s>`;
  if (marks.includes("italic")) inner = html`<em>${inner}</em>`;
  if (marks.includes("bold")) inner = html`<strong>${inner}</strong>`;
  if (s.href !== undefined && HTTPS.test(s.href)) {
    inner = html`<a href="${s.href}" rel="nofollow noopener noreferrer ugc">${inner}</a>`;
  }
  return inner;
}

const spans = (list: readonly Span[]): Html[] => list.map(span);

function list(l: List): Html {
  const items = l.items.map(
    (item) => html`<li>${spans(item.spans)}${item.children === undefined ? "" : list(item.children)}</li>`,
  );
  return l.ordered ? html`<ol>${items}</ol>` : html`<ul>${items}</ul>`;
}

/**
 * The `<h2>`–`<h4>` rank of each heading: level n is rank n + 1 below the page's own `<h1>`,
 * but never more than one rank below the heading before it, so the outline skips no rank
 * (WCAG 1.3.1; a page may well start at level 2).
 */
function headingRanks(blocks: readonly Block[]): Map<Block, number> {
  const ranks = new Map<Block, number>();
  let last = 1;
  for (const b of blocks) {
    if (b.type !== "heading") continue;
    last = Math.min(Math.max(b.level, 1) + 1, last + 1, 4);
    ranks.set(b, last);
  }
  return ranks;
}

function block(b: Block, ranks: Map<Block, number>): Html {
  switch (b.type) {
    case "heading":
      // The page title is the only <h1>.
      switch (ranks.get(b)) {
        case 2:
          return html`<h2>${spans(b.spans)}</h2>\n`;
        case 3:
          return html`<h3>${spans(b.spans)}</h3>\n`;
        default:
          return html`<h4>${spans(b.spans)}</h4>\n`;
      }
    case "paragraph":
      return html`<p>${spans(b.spans)}</p>\n`;
    case "list":
      return html`${list(b)}\n`;
  }
}

/**
 * Renders a page as a complete HTML document. Every text and attribute value is escaped by
 * `hono/html`; the document holds no script and loads nothing.
 *
 * @param page - a valid act of the page form.
 * @returns the HTML document, to be served as `text/html; charset=utf-8`.
 */
export function renderPage(page: PageDocument): string {
  const ranks = headingRanks(page.blocks);
  const document = html`<!doctype html>
<html lang="und">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${NO_SCRIPT_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<article>
<h1>${page.title}</h1>
${page.blocks.map((b) => block(b, ranks))}</article>
</main>
<footer>Published through a GPT address. The text above was written by whoever posted it.</footer>
</body>
</html>
`;
  if (document instanceof Promise) throw new TypeError("renderPage: unexpected asynchronous content");
  return document.toString();
}
