/**
 * A minimal MCP Apps host, run in Chromium by `mcp-apps.browser.test.ts` (bundled by esbuild
 * at test time): the official v2 client connects to the MCP door at `/mcp` of this origin, the
 * package's own host-side bridge (`AppBridge` + `PostMessageTransport` of
 * `@modelcontextprotocol/ext-apps/app-bridge`) loads the tool's UI resource into a sandboxed
 * iframe (`sandbox="allow-scripts"`: an opaque origin) and relays the page's requests —
 * `tools/call` to the server through the client. What happened is kept in `window.hostLog`.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, getToolUiResourceUri, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const log: unknown[] = [];
(window as unknown as { hostLog: unknown[] }).hostLog = log;

async function main(): Promise<void> {
  const toolName = new URL(location.href).searchParams.get("tool") ?? "feedback";
  const client = new Client({ name: "gpt-address-test-host", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === toolName);
  if (tool === undefined) throw new Error(`no tool ${toolName}`);
  const uri = getToolUiResourceUri(tool);
  if (uri === undefined) throw new Error(`the tool ${toolName} declares no UI`);
  const { contents } = await client.readResource({ uri });
  const [content] = contents;
  if (content === undefined || !("text" in content)) throw new Error("no HTML");
  log.push({ uri, mimeType: content.mimeType });

  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.title = `${toolName} form`;
  iframe.style.cssText = "width:100%;height:900px;border:1px solid #999";
  document.body.append(iframe);
  const bridge = new AppBridge(
    client,
    { name: "gpt-address-test-host", version: "1.0.0" },
    { serverTools: {}, openLinks: {} },
  );
  bridge.addEventListener("initialized", () => log.push({ event: "initialized" }));
  bridge.addEventListener("sizechange", (size) => log.push({ event: "sizechange", height: size.height }));
  bridge.onopenlink = async ({ url }) => {
    log.push({ event: "open-link", url });
    return {};
  };
  const window = iframe.contentWindow;
  if (window === null) throw new Error("no iframe window");
  // The bridge listens before the page runs: the page's ui/initialize is never missed.
  await bridge.connect(new PostMessageTransport(window, window));
  iframe.srcdoc = content.text;
}

main().then(
  () => log.push({ event: "loaded" }),
  (error: unknown) => log.push({ event: "error", message: String(error) }),
);
