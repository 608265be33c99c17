/**
 * JSON-RPC 2.0 as the MCP door writes it: error codes and the text of responses. Results are
 * JSON text built once or by the door itself, spliced in unchanged, so that a tool's
 * `inputSchema` is sent as the very bytes of the form's `s`.
 *
 * @see https://www.jsonrpc.org/specification#error_object
 * @module
 */

/** Invalid JSON was received (JSON-RPC 2.0 §5.1); for us: anything the strict parser refuses. */
export const PARSE_ERROR = -32700;
/** The JSON sent is not a valid request object (a batch, a wrong `jsonrpc`, a missing `method`). */
export const INVALID_REQUEST = -32600;
/** The method does not exist in the revision the request is governed by. */
export const METHOD_NOT_FOUND = -32601;
/** Invalid method parameters, including an unknown tool name. */
export const INVALID_PARAMS = -32602;
/** The `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` field disagrees with the body (MCP 2026-07-28). */
export const HEADER_MISMATCH = -32020;
/** The client did not declare a capability the request needs (MCP 2026-07-28; the tasks extension). */
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
/** The request's protocol version is not one this server speaks (MCP 2026-07-28). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** A JSON-RPC request id: a string or an integer (MCP excludes `null`). */
export type RequestId = string | number;

/** A JSON-RPC error object. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  /** Extra information, JSON-serializable. */
  readonly data?: unknown;
}

/**
 * The text of a JSON-RPC success response.
 *
 * @param id - the request's id.
 * @param result - the JSON text of the result object, spliced in as is.
 */
export function resultText(id: RequestId, result: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
}

/**
 * The text of a JSON-RPC error response.
 *
 * @param id - the request's id, or `null` when it could not be read (parse error, invalid request).
 */
export function errorText(id: RequestId | null, error: RpcError): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error });
}

/** The `id` of something that is not a valid message, when it has a usable one; else `null`. */
export function readId(value: unknown): RequestId | null {
  if (value === null || typeof value !== "object" || !Object.hasOwn(value, "id")) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === "string" || Number.isSafeInteger(id) ? (id as RequestId) : null;
}
