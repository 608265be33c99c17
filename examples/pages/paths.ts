/**
 * The paths the example server keeps for itself. Every form in `forms/` is served at
 * `/<name>`, so a form named like one of these would shadow it (a form `mcp` would answer
 * where the MCP door does); `npm run build` refuses such a form, and so does
 * `createExampleApp`.
 *
 * @module
 */

/** Path segment → what the example serves there. */
export const RESERVED_PATHS: Readonly<Record<string, string>> = {
  mcp: "the MCP door (/mcp)",
  pages: "the published pages (/pages/<id>)",
  metrics: "the counters (/metrics)",
  // No form can be named so (a name has no dot), but they are the server's own paths too.
  ".well-known": "the API catalog and the MCP server card (docs/discovery.md)",
  "llms.txt": "the list of addresses for language models (docs/discovery.md)",
};

/**
 * Why a form of this name cannot be served by the example, or `null` when it can.
 *
 * @param name - the form's name (its file name in `forms/` without `.json`).
 */
export function reservedPathReason(name: string): string | null {
  const what = Object.hasOwn(RESERVED_PATHS, name) ? RESERVED_PATHS[name] : undefined;
  return what === undefined ? null : `the example server keeps /${name} for ${what}: give the form another name`;
}
