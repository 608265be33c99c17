/**
 * The request metadata of MCP 2026-07-28's Streamable HTTP transport, checked against the
 * body: `MCP-Protocol-Version` against the `_meta` claim, `Mcp-Method` against `method`, and
 * `Mcp-Name` against `params.name` (`tools/call`, `prompts/get`), `params.uri`
 * (`resources/read`) or `params.taskId` (`tasks/*` of the tasks extension), after decoding the `=?base64?…?=` form. Pure: the door maps a
 * disagreement to 400 with `HeaderMismatch` (-32020).
 *
 * No `Mcp-Param-{Name}` field is ever compared: only a property annotated `x-mcp-header` in a
 * tool's `inputSchema` makes one "recognized", and the form compiler's closed vocabulary has no
 * `x-mcp-header`, so every such field is an unrecognized one, forwarded and ignored as the
 * transport says ("Server Behavior for Custom Headers"). Were one recognized, its value would
 * go through {@link decodeFieldValue} as `Mcp-Name`'s does.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata
 * @module
 */

/** The sentinel's markers (Value Encoding): case-sensitive, exactly these. */
const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** RFC 4648 §4 base64, padded, as the transport's examples and the SDKs require. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body member each method's `Mcp-Name` mirrors (Standard Request Headers, "Source Field"). */
const NAME_SOURCE: ReadonlyMap<string, "name" | "uri" | "taskId"> = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
  // The tasks extension (io.modelcontextprotocol/tasks, "Streamable HTTP: Routing Headers").
  ["tasks/get", "taskId"],
  ["tasks/update", "taskId"],
  ["tasks/cancel", "taskId"],
]);

/**
 * The value a `Mcp-Name` or `Mcp-Param-{Name}` field stands for: a value in the sentinel form
 * `=?base64?{base64 of the UTF-8 bytes}?=` decoded, any other value as it is.
 *
 * @returns the value, or `null` when the sentinel's content is not padded base64 of valid
 *   UTF-8 ("a header value contains invalid characters": a mismatch).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#value-encoding
 * @example
 * ```ts
 * decodeFieldValue("=?base64?SGVsbG8sIOS4lueVjA==?="); // "Hello, 世界"
 * ```
 */
export function decodeFieldValue(value: string): string | null {
  if (!value.startsWith(SENTINEL_PREFIX) || !value.endsWith(SENTINEL_SUFFIX)) return value;
  if (value.length < SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length) return null;
  const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!BASE64.test(encoded)) return null;
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The first standard request field of a 2026-07-28 request that disagrees with its body, in
 * the transport's order: `MCP-Protocol-Version` (absent, or not the `_meta` claim), then
 * `Mcp-Method`, then `Mcp-Name` (decoded) where the method has a name source.
 *
 * @param headers - the request's fields.
 * @param claimed - the `io.modelcontextprotocol/protocolVersion` of the request's `_meta`.
 * @returns the field's name, or `null` when all agree.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation
 */
export function mismatchedField(
  headers: Headers,
  claimed: string,
  method: string,
  params: Readonly<Record<string, unknown>> | undefined,
): string | null {
  // "The header value MUST match the io.modelcontextprotocol/protocolVersion field" (Protocol Version Header).
  if (headers.get("mcp-protocol-version") !== claimed) return "MCP-Protocol-Version";
  if (headers.get("mcp-method") !== method) return "Mcp-Method";
  const source = NAME_SOURCE.get(method);
  const named = source === undefined ? undefined : params?.[source];
  // A missing or non-string source member is the method's invalid params, answered in band.
  if (typeof named !== "string") return null;
  const field = headers.get("mcp-name");
  return field !== null && decodeFieldValue(field) === named ? null : "Mcp-Name";
}
