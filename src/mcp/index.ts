/**
 * The MCP door: `mcp()` serves addresses as MCP tools over stateless Streamable HTTP, through
 * the same verification core as `address()`.
 *
 * @module
 */
export { DEFAULT_TOOLS_TTL_MS, LOOPBACK_HOSTS, type McpOptions, mcp } from "./mcp.ts";
export { LEGACY_VERSIONS, MODERN_VERSIONS, type ProtocolVersion, SUPPORTED_VERSIONS } from "./revisions.ts";
export type { AnyMcpAddress, McpAddress } from "./tools.ts";
