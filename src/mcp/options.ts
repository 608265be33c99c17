/**
 * The options of `mcp()` and the limits resolved from them and the tools: the author-facing
 * side of the MCP door, kept apart from its wiring (`mcp.ts`).
 *
 * @module
 */
import type { Env } from "hono";
import type { ActLogEntry } from "../address/act-log.ts";
import type { RateLimit } from "../address/rate-limit.ts";
import type { Rejection } from "../address/rejection.ts";
import { DEFAULT_MAX_BYTES, type ParseLimits, verificationLimits } from "../address/verification.ts";
import type { HeadLimit } from "../body/read-body.ts";
import { leadingCall } from "./leading-call.ts";
import { decodeFieldValue } from "./request-metadata.ts";
import type { Tools } from "./tools.ts";

/** The host names a loopback server is reached by: the default of {@link McpOptions.allowedHosts}. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** The default `ttlMs` of `tools/list` (2026-07-28): 5 minutes, as the arrival's `max-age`. */
export const DEFAULT_TOOLS_TTL_MS = 300_000;

/** Options of {@link mcp}. */
export interface McpOptions<E extends Env = Env> {
  /** `serverInfo.name`. Default `"gpt-address"`. */
  readonly name?: string;
  /** `serverInfo.version`. Default `"0.1.0"`. */
  readonly version?: string;
  /** `serverInfo.title`, for people. */
  readonly title?: string;
  /** `instructions` of `initialize` and `server/discover`: how to use the tools, for the model. */
  readonly instructions?: string;
  /**
   * The largest JSON-RPC message accepted, in bytes, envelope included (V1). Default: the
   * largest tool's arguments (its form's own `maxBytes` default) plus {@link MESSAGE_MAX_BYTES}
   * for the envelope, at most 1 MiB (1,048,576). A larger one is answered 413 before it is
   * parsed. A message of any method but `tools/call` is held to {@link MESSAGE_MAX_BYTES} (or
   * this, when smaller). Left out, a `tools/call` is held to its tool's bound once the tool is
   * known (from `Mcp-Name`, or from the message's first bytes: `callHeadLimit`), 413 past it;
   * given, it is the bound of every `tools/call`, whatever its tool (an author who raised it
   * above the largest form's default meant calls that large to be read).
   */
  readonly maxBytes?: number;
  /** The time a message's whole body may take to arrive, in milliseconds. Default 5 s. */
  readonly bodyDeadlineMs?: number;
  /**
   * DNS-rebinding protection: the host names (no port; IPv6 in brackets) the `Host` field may
   * name, case-insensitively; any other is answered 403. Default {@link LOOPBACK_HOSTS}, right
   * for a server bound to loopback. A public deployment lists its own names
   * (`["mcp.example.com"]`), or passes `null` to accept any `Host` (then only same-origin and
   * {@link allowedOrigins} pass the `Origin` check).
   */
  readonly allowedHosts?: readonly string[] | null;
  /**
   * Origins (`https://app.example`) a browser-based client may call from, besides the
   * `http`/`https` origins of an allowed host. A request with any other `Origin` gets 403.
   * A request without `Origin` (not from a browser) is not judged by it.
   */
  readonly allowedOrigins?: readonly string[];
  /** `ttlMs` of a 2026-07-28 `tools/list` result, in milliseconds. Default {@link DEFAULT_TOOLS_TTL_MS}. */
  readonly ttlMs?: number;
  /**
   * Development mode (X3), off by default: an invalid act's tool result names the rejection
   * code and the failing keyword's pointer. Never for a public endpoint.
   */
  readonly development?: boolean;
  /**
   * Called once per rejected message or act, with its code and reason, as `onReject` of
   * `address()`: the message stages (`content-too-large`, `json-syntax:*`, …) and `schema` for
   * arguments the form refused. Protocol errors (an unknown method or tool) are not reported.
   * Exceptions it throws are logged and otherwise ignored.
   */
  readonly onReject?: (rejection: Rejection) => void;
  /**
   * Rate limits by client, as `rateLimit` of `address()` (and best the very same object, so
   * both doors share one budget): every message counts against `arrival` before it is read,
   * and a `tools/call` against `act` before its arguments are verified. A limited message is
   * answered 429 with `Retry-After` and a JSON-RPC error.
   */
  readonly rateLimit?: RateLimit<E>;
  /**
   * As `onLog` of `address()`, with `door: "mcp"`: one entry per tool call (its tool's form
   * as `address`), per rejected message and per refused one (429, 412, and the 400, 403, 405,
   * 406 and 415 of the transport, coded by `MessageRefusalCode`, under the endpoint's name),
   * and per fault (500); never the arguments.
   */
  readonly onLog?: (entry: ActLogEntry) => void;
}

/**
 * The largest message of any method but `tools/call`, and the room a `tools/call` has around
 * its arguments, in bytes: 64 KiB, far above any such message a client sends (`initialize`,
 * `tools/list`, `ping`: a few hundred bytes, a `_meta` included).
 */
export const MESSAGE_MAX_BYTES = 65_536;
/**
 * The most members of any object, and items of any array, a message may have where no tool's
 * form bounds more: the envelope's own objects (`params`, `_meta`, `capabilities`) are open in
 * MCP's schema, and hold a handful of members in any message a client sends.
 */
export const MESSAGE_MAX_COUNT = 256;
/** The depth of `arguments` inside a message: the message, then `params`. */
const ARGUMENTS_DEPTH = 2;
/** The least depth a message may nest to, so that `_meta` envelopes and capabilities fit. */
const MESSAGE_DEPTH = 16;

/** The bounds of one endpoint's messages, resolved once by {@link messageLimits}. */
export interface MessageLimits extends ParseLimits {
  /** The largest message read, in bytes (a `tools/call`'s). */
  readonly maxBytes: number;
  /** The largest message of a method other than `tools/call`, in bytes. */
  readonly otherMaxBytes: number;
  /** The deepest nesting of a message, counting the message itself. */
  readonly maxDepth: number;
  /** The most members of any object of a message. */
  readonly maxMembers: number;
  /** The most items of any array of a message. */
  readonly maxItems: number;
  /**
   * None: the parser reads the whole JSON-RPC envelope, whose other strings (`method`, `id`,
   * `_meta`, the arguments of a tool with an open form, other methods' params) no tool form
   * bounds; the tool's form still refuses an over-long argument string.
   */
  readonly maxStringLength: number;
  /** The time a message's whole body may take to arrive, in ms (`undefined`: `readBody`'s default). */
  readonly bodyDeadlineMs: number | undefined;
  /** `ttlMs` of a 2026-07-28 `tools/list` or `server/discover` result, in ms. */
  readonly ttlMs: number;
  /** The bound a message's first bytes decide (`callHeadLimit`), applied while it is read. */
  readonly headLimit: HeadLimit;
  /** Whether a `tools/call` is held to its tool's bound: `maxBytes` was not given. */
  readonly byTool: boolean;
}

/**
 * The room a `tools/call` named before its body (2026-07-28 `Mcp-Name`) has around its tool's
 * arguments, in bytes: 8 KiB, for the envelope (`jsonrpc`, `id`, `method`, `params.name`, a
 * `_meta` with the client's capabilities, a `task`).
 */
export const NAMED_CALL_ENVELOPE_BYTES = 8_192;

/**
 * The bounds to read one message under: the endpoint's, or, for a `tools/call` whose
 * `Mcp-Method` and `Mcp-Name` fields (MCP 2026-07-28, Standard Request Headers) name one of the
 * endpoint's tools before the body, that tool's arguments bound plus
 * {@link NAMED_CALL_ENVELOPE_BYTES} (never more than the endpoint's). A call to a small tool then
 * costs what its own form admits, not what the largest tool's does (issue 31: up to 63× at
 * the `feedback` tool of an endpoint that also serves `page`). Fields that disagree with the
 * body are refused later (400, -32020), so a lying `Mcp-Name` gains nothing but a 413.
 *
 * @param limits - the endpoint's, from {@link messageLimits}.
 * @param headers - the request's fields.
 * @param tools - the endpoint's tools.
 */
export function readLimits<E extends Env>(limits: MessageLimits, headers: Headers, tools: Tools<E>): MessageLimits {
  if (headers.get("mcp-method") !== "tools/call") return limits;
  const field = headers.get("mcp-name");
  const name = field === null ? null : decodeFieldValue(field);
  const tool = name === null ? undefined : tools.byName.get(name);
  if (tool === undefined || !limits.byTool) return limits;
  const maxBytes = calledToolBound(limits.maxBytes, tool);
  return maxBytes === limits.maxBytes ? limits : { ...limits, maxBytes };
}

/** The most bytes a `tools/call` of `tool` is read under: its arguments' bound and the envelope's room. */
function calledToolBound(maxBytes: number, tool: { readonly maxBytes: number }): number {
  return Math.min(maxBytes, tool.maxBytes + NAMED_CALL_ENVELOPE_BYTES);
}

/**
 * The bound a message's first {@link NAMED_CALL_ENVELOPE_BYTES} bytes decide while it is read
 * (`readBody`'s `headLimit`), for the 2025-era `tools/call` that names its tool only in the body
 * (issue 31: a call to the small `feedback` tool beside the 1 MiB `page` tool cost up to 63× its
 * own costliest valid call). Read by `leadingCall`:
 * - a method other than `tools/call`: `otherMaxBytes`;
 * - a `tools/call` whose `params.name` comes before its `arguments` (as the official SDKs write
 *   it): that tool's bound, as for a call named in `Mcp-Name`; a name no tool has: `otherMaxBytes`
 *   (the call is an error, its arguments unread);
 * - a name seen before the method: the larger of that tool's bound and `otherMaxBytes`;
 * - otherwise (the `arguments` first, escapes, or more than the head's bytes before the name):
 *   the endpoint's `maxBytes`, as before.
 *
 * With `byTool` false (the author gave `maxBytes`), a `tools/call` keeps `maxBytes`. A message
 * shorter than the head is never narrowed; no bound here is below the head's bytes unless
 * `maxBytes` is.
 */
function callHeadLimit<E extends Env>(
  maxBytes: number,
  otherMaxBytes: number,
  tools: Tools<E>,
  byTool: boolean,
): HeadLimit {
  return {
    bytes: NAMED_CALL_ENVELOPE_BYTES,
    limit(head) {
      const { method, name } = leadingCall(head);
      if (method !== undefined && method !== "tools/call") return otherMaxBytes;
      if (name === undefined || !byTool) return maxBytes;
      const tool = tools.byName.get(name);
      const called = tool === undefined ? otherMaxBytes : calledToolBound(maxBytes, tool);
      return method === undefined ? Math.max(called, otherMaxBytes) : called;
    },
  };
}

/**
 * Resolves the bounds of an endpoint's messages from its options and its tools' forms.
 *
 * @throws {RangeError} when `maxBytes` or `ttlMs` is not a non-negative safe integer.
 */
export function messageLimits<E extends Env>(tools: Tools<E>, options: McpOptions<E>): MessageLimits {
  const { maxBytes } = verificationLimits(
    { maxDepth: null, maxStringLength: null },
    { maxBytes: options.maxBytes ?? Math.min(DEFAULT_MAX_BYTES, tools.maxBytes + MESSAGE_MAX_BYTES) },
    "mcp()",
  );
  const ttlMs = options.ttlMs ?? DEFAULT_TOOLS_TTL_MS;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0)
    throw new RangeError(`mcp(): ttlMs must be a non-negative safe integer, got ${ttlMs}`);
  const otherMaxBytes = Math.min(maxBytes, MESSAGE_MAX_BYTES);
  return {
    maxBytes,
    otherMaxBytes,
    maxDepth: Math.max(MESSAGE_DEPTH, tools.maxDepth + ARGUMENTS_DEPTH),
    // The tools' own bounds where they are larger: a wide object is refused from the bytes,
    // whatever the method (the 1 MiB params of a `ping` cost 208 ms to build, issue 31).
    maxMembers: Math.max(MESSAGE_MAX_COUNT, tools.maxMembers),
    maxItems: Math.max(MESSAGE_MAX_COUNT, tools.maxItems),
    maxStringLength: Infinity,
    lineColumn: options.development === true,
    bodyDeadlineMs: options.bodyDeadlineMs,
    ttlMs,
    headLimit: callHeadLimit(maxBytes, otherMaxBytes, tools, options.maxBytes === undefined),
    byTool: options.maxBytes === undefined,
  };
}
