/**
 * The index of the example server for people: every address with its title and description.
 *
 * @module
 */
import { html } from "hono/html";
import { NO_SCRIPT_POLICY } from "../../src/address/content-security-policy.ts";

/** One address in the index. */
export interface IndexEntry {
  /** Its path on this server, `/<name>`. */
  readonly path: string;
  /** `s.title`, else the form's name. */
  readonly title: string;
  /** `s.description`, when the form has one. */
  readonly description?: string;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
li{margin:.75rem 0}`;

/**
 * Renders the index as a complete HTML document that runs no script. Every value is escaped.
 *
 * @param entries - the addresses, in the order shown.
 * @returns the HTML document, to be served as `text/html; charset=utf-8`.
 */
export function renderIndex(entries: readonly IndexEntry[]): string {
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${NO_SCRIPT_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GPT addresses</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>GPT addresses on this server</h1>
<p>Open an address to fill in its form. A program <code>GET</code>s it for the form as JSON and <code>POST</code>s an act.</p>
<p>For agents: the <a href="/.well-known/api-catalog">API catalog</a> (RFC 9727), <a href="/llms.txt">llms.txt</a> and the <a href="/.well-known/mcp/server-card.json">MCP server card</a> list the same addresses.</p>
<ul>
${entries.map(
  (entry) =>
    html`<li><a href="${entry.path}">${entry.title}</a>${entry.description === undefined ? "" : html`: ${entry.description}`}</li>\n`,
)}</ul>
</main>
</body>
</html>
`;
  if (document instanceof Promise) throw new TypeError("renderIndex: unexpected asynchronous content");
  return document.toString();
}
