/**
 * The revision that governs a request (the MCP door's own stage, after the message was read,
 * parsed and validated): a 2026-07-28 `_meta` envelope claims its revision and must agree with
 * the request's fields; otherwise `initialize` negotiates, and any other request is governed
 * by its `MCP-Protocol-Version` (absent: 2025-06-18, the oldest spoken). Pure: a refusal is a
 * value the door answers with 400 (`answers.ts`).
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#protocol-version-header
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#protocol-version-header
 * @module
 */
import type { Env } from "hono";
import type { MessageRefusalCode } from "../address/act-log.ts";
import {
  HEADER_MISMATCH,
  INVALID_PARAMS,
  INVALID_REQUEST,
  type RpcError,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "./jsonrpc.ts";
import { isRequestEnvelope } from "./messages.ts";
import { mismatchedField } from "./request-metadata.ts";
import {
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  type ProtocolVersion,
  type Revision,
  SUPPORTED_VERSIONS,
} from "./revisions.ts";

/** A request's `params._meta` key that claims a 2026-07-28 (or later) revision. */
export const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";

/** Why no revision governs a request: answered 400 with `error`. */
export interface Ungoverned {
  readonly code: Extract<MessageRefusalCode, "protocol-version" | "header-mismatch">;
  readonly error: RpcError;
}

/**
 * The revision that governs a request, or why none does.
 *
 * @param byVersion - every revision's table (`revisions()`).
 * @param headers - the request's fields (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`).
 * @returns the {@link Revision}, or an {@link Ungoverned}: a malformed envelope (-32602), an
 *   `MCP-Protocol-Version` other than the claim (-32020), a claim no revision speaks (-32022),
 *   `Mcp-Method` or `Mcp-Name` disagreeing (-32020), a 2026-07-28 header without the envelope
 *   (-32602), an unsupported legacy header (-32600).
 */
export function governing<E extends Env>(
  byVersion: ReadonlyMap<ProtocolVersion, Revision<E>>,
  headers: Headers,
  method: string,
  params: Readonly<Record<string, unknown>> | undefined,
): Revision<E> | Ungoverned {
  const meta = params?._meta;
  const claimed =
    meta !== null && typeof meta === "object" && Object.hasOwn(meta, PROTOCOL_VERSION_META_KEY)
      ? (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY]
      : undefined;
  if (claimed !== undefined) {
    if (!isRequestEnvelope(meta)) {
      return { code: "protocol-version", error: { code: INVALID_PARAMS, message: "Invalid _meta envelope" } };
    }
    const version = meta[PROTOCOL_VERSION_META_KEY];
    // The version field against the claim first: a disagreement is HeaderMismatch whatever the
    // claim names (Protocol Version Header); a claim the field repeats but no revision speaks is
    // UnsupportedProtocolVersion; then Mcp-Method and Mcp-Name (Standard Request Headers).
    const field = mismatchedField(headers, version, method, params);
    if (field === "MCP-Protocol-Version") return mismatch(field);
    const revision = revisionIn(byVersion, MODERN_VERSIONS, version);
    if (revision === undefined)
      return unsupported(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", version);
    return field === null ? revision : mismatch(field);
  }
  if (method === "initialize") {
    // The handshake negotiates; the table is that of the version it will answer with.
    const requested = params?.protocolVersion;
    const version = (LEGACY_VERSIONS as readonly unknown[]).includes(requested) ? requested : LEGACY_VERSIONS[0];
    return byVersion.get(version as ProtocolVersion)!;
  }
  const header = headers.get("mcp-protocol-version");
  if (header === null) return byVersion.get("2025-06-18")!;
  if ((MODERN_VERSIONS as readonly string[]).includes(header)) {
    const message = `A ${header} request must carry the _meta envelope`;
    return { code: "protocol-version", error: { code: INVALID_PARAMS, message } };
  }
  return (
    revisionIn(byVersion, LEGACY_VERSIONS, header) ??
    unsupported(INVALID_REQUEST, "Unsupported MCP-Protocol-Version", header)
  );
}

/** The revision of `version` when `versions` (the versions one way of claiming may name) has it. */
function revisionIn<E extends Env>(
  byVersion: ReadonlyMap<ProtocolVersion, Revision<E>>,
  versions: readonly ProtocolVersion[],
  version: string,
): Revision<E> | undefined {
  return (versions as readonly string[]).includes(version) ? byVersion.get(version as ProtocolVersion) : undefined;
}

/**
 * A version no revision speaks: 400 with the versions supported. The 2026-07-28 envelope's
 * claim is refused with -32022, a legacy `MCP-Protocol-Version` header with -32600.
 */
function unsupported(code: number, message: string, requested: string): Ungoverned {
  return {
    code: "protocol-version",
    error: { code, message: `${message}: ${requested}`, data: { supported: SUPPORTED_VERSIONS, requested } },
  };
}

function mismatch(field: string): Ungoverned {
  return {
    code: "header-mismatch",
    error: { code: HEADER_MISMATCH, message: `${field} disagrees with the request body` },
  };
}
