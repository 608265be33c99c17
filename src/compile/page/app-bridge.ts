/**
 * The app side of the MCP Apps bridge, for the page variant a chat client shows in its
 * sandboxed iframe (`text/html;profile=mcp-app`). Inside that sandbox the page cannot fetch
 * (`connect-src 'none'`): it asks the host, over `postMessage` JSON-RPC 2.0, to call the
 * address's tool with the value, so the value enters by the MCP door's strict path.
 *
 * Our own implementation of the few documented messages the form needs (the package's App
 * class is 34 KB minified plus zod and the MCP SDK core, several times the page budget):
 *
 * - View → host requests: `ui/initialize` `{appInfo, appCapabilities, protocolVersion}`,
 *   then `tools/call` `{name, arguments}` and `ui/open-link` `{url}`.
 * - View → host notifications: `ui/notifications/initialized`, `ui/notifications/size-changed`.
 * - Host → view: responses by `id`; `ui/notifications/tool-input` (the model's arguments fill
 *   the form); `ui/resource-teardown` and `ping` answered `{}`; any other request -32601.
 *
 * Messages are taken only from `window.parent` (the host). Plain JavaScript in a string, as
 * `runtime.ts`; it is appended after the runtime only in the `mcp-app` page.
 *
 * @see https://github.com/modelcontextprotocol/ext-apps (spec.types.ts, 2026-01-26)
 * @module
 */

/** The MCP Apps protocol version the bridge asks for (`LATEST_PROTOCOL_VERSION` of ext-apps 2.0.4). */
export const APP_PROTOCOL_VERSION = "2026-01-26";

/**
 * `gptAddressBridge(D, onInput)`: starts the handshake and returns `{callTool(value), openLink(url)}`,
 * each a promise of the host's result (rejected with the host's error message).
 */
export const APP_BRIDGE: string = String.raw`function gptAddressBridge(D, onInput) {
const host = window.parent;
const waiting = new Map();
let next = 0;
const post = (m) => host.postMessage(Object.assign({ jsonrpc: "2.0" }, m), "*");
function request(method, params) {
  const id = ++next;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    post({ id, method, params });
  });
}
window.addEventListener("message", (event) => {
  const m = event.data;
  if (event.source !== host || typeof m !== "object" || m === null || m.jsonrpc !== "2.0") return;
  if (typeof m.method !== "string") {
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.error) w.reject(new Error(String(m.error.message)));
    else w.resolve(m.result);
  } else if (m.id !== undefined) {
    if (m.method === "ui/resource-teardown" || m.method === "ping") post({ id: m.id, result: {} });
    else post({ id: m.id, error: { code: -32601, message: "Method not found" } });
  } else if (m.method === "ui/notifications/tool-input" && m.params && typeof m.params.arguments === "object") onInput(m.params.arguments);
});
const ready = request("ui/initialize", {
  appInfo: { name: D.name, version: "1" },
  appCapabilities: {},
  protocolVersion: "${APP_PROTOCOL_VERSION}",
}).then(() => {
  post({ method: "ui/notifications/initialized" });
  const root = document.documentElement;
  const size = () => post({ method: "ui/notifications/size-changed", params: { width: root.scrollWidth, height: root.scrollHeight } });
  new ResizeObserver(size).observe(root);
});
return {
  callTool: (value) => ready.then(() => request("tools/call", { name: D.name, arguments: value })),
  openLink: (url) => ready.then(() => request("ui/open-link", { url })),
};
}
`;
