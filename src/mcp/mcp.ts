/**
 * `mcp()`: the MCP door. Every address is also an MCP tool, and a tool call takes the same
 * verification path as a POST to the address: the whole JSON-RPC message is read under a size
 * limit and parsed by the strict parser (a duplicate name anywhere rejects it), the message and
 * its params are checked by validators generated from `src/mcp/messages/`, and the arguments
 * by the form's own generated validator before the same act runs.
 *
 * Transport: Streamable HTTP, stateless (no session id, no SSE stream): one JSON-RPC message
 * per POST, answered with `application/json`; notifications and responses get 202; GET and
 * DELETE get 405.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 * @module
 */
import type { Context, Env, Handler } from "hono";
import type { ActLogCode, ActLogEntry, MessageRefusalCode } from "../address/act-log.ts";
import { type Refused as Admission, admitPin, admitRate, emitLog } from "../address/admission.ts";
import { acceptWeights } from "../address/negotiate.ts";
import type { RateLimit } from "../address/rate-limit.ts";
import type { Rejection, RejectionCode } from "../address/rejection.ts";
import {
  carriesBody,
  closesUnread,
  closing,
  DEFAULT_MAX_BYTES,
  discardAct,
  parseAct,
  receiveAct,
  verificationLimits,
} from "../address/verification.ts";
import { continuePending, type NodeMessage, nodeMessageOf } from "../body/node-message.ts";
import {
  errorText,
  HEADER_MISMATCH,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  type RequestId,
  type RpcError,
  resultText,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "./jsonrpc.ts";
import { isMessage, isRequestEnvelope } from "./messages.ts";
import { mismatchedField } from "./request-metadata.ts";
import {
  type Endpoint,
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  type ProtocolVersion,
  type Revision,
  revisions,
  SUPPORTED_VERSIONS,
} from "./revisions.ts";
import { type AnyMcpAddress, prepareTools } from "./tools.ts";

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
   * this, when smaller): a larger one is answered 413 after it is parsed.
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

/** JSON-RPC errors the transport answers with an HTTP status, before any method runs. */
interface Refused {
  readonly status: number;
  /** The code its log entry carries. */
  readonly code: MessageRefusalCode;
  readonly id: RequestId | null;
  readonly error: RpcError;
}

/** A request's `params._meta` key that claims a 2026-07-28 (or later) revision. */
const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";

const ALLOW = "POST, OPTIONS";
/**
 * The fields of an answer without a body, and of a JSON answer (nosniff: see `address()`).
 * An empty answer other than 204 (202, 405, 500) says `Content-Length: 0` (RFC 9110 §8.6):
 * without it Node frames the empty body as chunked; a 204 never carries the field.
 */
const EMPTY_FIELDS: Readonly<Record<string, string>> = Object.freeze({ "Cache-Control": "no-store" });
const NO_CONTENT_FIELDS: Readonly<Record<string, string>> = Object.freeze({ ...EMPTY_FIELDS, "Content-Length": "0" });
const JSON_FIELDS: Readonly<Record<string, string>> = Object.freeze({
  "Cache-Control": "no-store",
  "Content-Type": "application/json",
  "X-Content-Type-Options": "nosniff",
});
const ALLOW_HEADERS =
  "Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID, GPT-Actor, If-Match";
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

/**
 * Creates the Hono handler of one MCP endpoint serving `addresses` as tools, one tool per
 * address in the order given (mount it with `app.all("/mcp", mcp(addresses))`).
 *
 * A POST is answered by, in order:
 * 1. `Host` and `Origin` checks (DNS-rebinding protection): 403;
 * 2. `Content-Type` other than `application/json`: 415; an `Accept` without JSON: 406;
 * 3. the body reader under `maxBytes`: 413 (415 for a coded body, 400 for bad framing);
 * 4. the strict parser over the whole message, with the tools' member and item bounds (at
 *    least {@link MESSAGE_MAX_COUNT}): 400 with JSON-RPC -32700;
 * 5. a batch or anything but a JSON-RPC message (generated validator): 400 with -32600;
 *    anything but a `tools/call` of more than {@link MESSAGE_MAX_BYTES}: 413 with -32600;
 * 6. a notification or a response: 202, nothing done;
 * 7. the revision: a `_meta` envelope naming `io.modelcontextprotocol/protocolVersion` selects
 *    2026-07-28 (a malformed envelope: 400 with -32602; an `MCP-Protocol-Version` other than
 *    the claim: 400 with -32020; a claim no revision speaks: 400 with -32022; `Mcp-Method`, or
 *    `Mcp-Name` once decoded from `=?base64?…?=`, disagreeing: 400 with -32020); otherwise
 *    `initialize` negotiates, and any other request is governed by its `MCP-Protocol-Version`
 *    (absent: 2025-06-18, the oldest spoken; unsupported: 400 with -32600);
 * 8. that revision's method table: unknown method -32601 (HTTP 404 under 2026-07-28, 200
 *    before), bad params or unknown tool -32602 with HTTP 200; else the method's result.
 *
 * Never a 5xx for bad input: a fault inside a stage is logged and answered 500 with no body,
 * without acting.
 *
 * @param addresses - the addresses as tools: `{form, act}` as given to `address()`, with an
 *   optional `toolName` and `outputSchema`.
 * @param options - {@link McpOptions}.
 * @returns a Hono handler for POST, GET, DELETE and OPTIONS of one path.
 * @throws {TypeError} when a tool name is invalid or repeated, or a form's `s` is not an
 *   object schema; {RangeError} when `maxBytes` or `ttlMs` is not a non-negative safe integer.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata
 *   ("Protocol Version Header", "Standard Request Headers", "Server Validation")
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes
 * @example
 * ```ts
 * const feedback = { form: forms.feedback, act: (value) => ({ received: true }) };
 * app.route("/feedback", address(feedback));
 * app.all("/mcp", mcp([feedback], { name: "example" }));
 * ```
 */
export function mcp<E extends Env = Env>(
  addresses: readonly AnyMcpAddress<E>[],
  options: McpOptions<E> = {},
): Handler<E> {
  const tools = prepareTools(addresses);
  const { maxBytes } = verificationLimits(
    { maxDepth: null, maxStringLength: null },
    { maxBytes: options.maxBytes ?? Math.min(DEFAULT_MAX_BYTES, tools.maxBytes + MESSAGE_MAX_BYTES) },
    "mcp()",
  );
  /** The largest message of a method other than `tools/call`. */
  const otherMaxBytes = Math.min(maxBytes, MESSAGE_MAX_BYTES);
  // The tools' own bounds where they are larger: a wide object is refused from the bytes,
  // whatever the method (the 1 MiB params of a `ping` cost 208 ms to build, issue 31).
  const maxMembers = Math.max(MESSAGE_MAX_COUNT, tools.maxMembers);
  const maxItems = Math.max(MESSAGE_MAX_COUNT, tools.maxItems);
  const ttlMs = options.ttlMs ?? DEFAULT_TOOLS_TTL_MS;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0)
    throw new RangeError(`mcp(): ttlMs must be a non-negative safe integer, got ${ttlMs}`);
  const maxDepth = Math.max(MESSAGE_DEPTH, tools.maxDepth + ARGUMENTS_DEPTH);
  const allowedHosts = options.allowedHosts === undefined ? LOOPBACK_HOSTS : options.allowedHosts;
  const hosts = allowedHosts === null ? null : new Set(allowedHosts.map((host) => host.toLowerCase()));
  const origins = new Set(options.allowedOrigins ?? []);
  const { onReject, onLog, rateLimit, development = false } = options;
  const endpointName = options.name ?? "gpt-address";
  /** Why each request in flight was not acted on (its last rejection, or a fault), for its log entry. */
  const rejected = new WeakMap<Request, RejectionCode | "fault" | "declined">();
  const serverInfo = JSON.stringify({
    name: options.name ?? "gpt-address",
    version: options.version ?? "0.1.0",
    ...(options.title === undefined ? {} : { title: options.title }),
  });

  function reject(request: Request, code: RejectionCode, reason: string): void {
    rejected.set(request, code);
    if (onReject === undefined) return;
    try {
      onReject({ code, reason, request });
    } catch (error) {
      console.error("gpt-address: onReject of the MCP endpoint threw", error);
    }
  }

  const endpoint: Endpoint<E> = {
    tools,
    serverInfo,
    instructions: options.instructions === undefined ? "" : `,"instructions":${JSON.stringify(options.instructions)}`,
    ttlMs,
    development,
    reject,
    fault: (request, code = "fault") => void rejected.set(request, code),
  };
  const byVersion = revisions<E>();

  /** The Origin allowed to read answers (echoed in CORS), `null` when absent, `false` when refused. */
  function checkOrigin(request: Request, host: string | null): string | null | false {
    const origin = request.headers.get("origin");
    if (origin === null) return null;
    if (origins.has(origin)) return origin;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin) return false;
    if (hosts !== null) return hosts.has(url.hostname.toLowerCase()) ? origin : false;
    // No host list: only the server's own origin (same host and port).
    return host !== null && url.host.toLowerCase() === host.toLowerCase() ? origin : false;
  }

  /**
   * An answer's fields, as a record: @hono/node-server writes a record straight to Node's
   * response, where a list is first turned into an undici `Headers` per answer (as for
   * `address()`, issue 16). Without an Origin the record is one frozen object for every answer.
   */
  function headers(origin: string | null, contentType: boolean): Readonly<Record<string, string>> {
    if (origin === null) return contentType ? JSON_FIELDS : EMPTY_FIELDS;
    return { ...(contentType ? JSON_FIELDS : EMPTY_FIELDS), "Access-Control-Allow-Origin": origin, Vary: "Origin" };
  }

  /** An empty answer other than 204 (202, 405, 500), with `Content-Length: 0`. */
  function empty(status: number, origin: string | null, extra?: Readonly<Record<string, string>>): Response {
    const fields =
      origin === null && extra === undefined
        ? NO_CONTENT_FIELDS
        : { ...extra, ...headers(origin, false), "Content-Length": "0" };
    return new Response(null, { status, headers: fields });
  }

  function json(status: number, text: string, origin: string | null): Response {
    return new Response(text, { status, headers: headers(origin, true) });
  }

  /**
   * `answer`, saying `Connection: close` when `closes` (a body left unread: `discardAct`,
   * `closesUnread`, RFC 9112 §9.6).
   */
  function closingWhen(answer: Response, closes: boolean): Response {
    return closes ? closing(answer) : answer;
  }

  /**
   * A message refused before any method ran, logged under the endpoint's name with its code;
   * one refused before reading has its body discarded and its answer closing as `discardAct`
   * says.
   *
   * @param bytes - the message's bytes when it was read, `null` when refused before reading.
   * @param incoming - with `bytes` null, on Node, the unread message (`nodeMessageOf`).
   */
  function refuseMessage(
    c: Context<E>,
    started: number,
    bytes: number | null,
    origin: string | null,
    refusal: Refused,
    incoming?: NodeMessage,
  ): Response {
    log(c, started, endpointName, refusal.status, refusal.code, bytes);
    const answer = json(refusal.status, errorText(refusal.id, refusal.error), origin);
    return bytes === null ? closingWhen(answer, discardAct(c.req.raw, incoming)) : answer;
  }

  /** A message refused by a limit (429 with `Retry-After`) or a form pin (412), as JSON-RPC. */
  function admission(refusal: Admission, id: RequestId | null, origin: string | null): Response {
    const limited = refusal.status === 429;
    const error = {
      code: INVALID_REQUEST,
      message: limited ? "Too many requests" : "Precondition failed: the form changed",
    };
    const fields = limited
      ? {
          ...headers(origin, true),
          "Retry-After": String(refusal.retryAfterSeconds),
          "Access-Control-Expose-Headers": "Retry-After",
        }
      : headers(origin, true);
    return new Response(errorText(id, error), { status: refusal.status, headers: fields });
  }

  function log(
    c: Context<E>,
    started: number,
    address: string,
    status: number,
    code: ActLogCode | null,
    bytes: number | null,
  ): void {
    if (onLog === undefined) return; // no hook: not even the fields are read
    emitLog(onLog, {
      started,
      address,
      door: "mcp",
      method: c.req.method,
      status,
      code,
      bytes,
      actor: c.req.header("gpt-actor") ?? null,
    });
  }

  async function post(c: Context<E>, origin: string | null, incoming: NodeMessage | undefined): Promise<Response> {
    const started = Date.now();
    const request = c.req.raw;
    // Every message is an arrival at the endpoint, counted before its body is read.
    const admitted = admitRate(c, "arrival", rateLimit, endpointName);
    const limited = admitted === null ? null : await admitted;
    if (limited !== null) {
      const closes = discardAct(request, incoming);
      log(c, started, endpointName, limited.status, limited.code, null);
      return closingWhen(admission(limited, null, origin), closes);
    }
    if (!isJsonMediaType(request.headers.get("content-type"))) {
      return refuseMessage(
        c,
        started,
        null,
        origin,
        {
          status: 415,
          code: "content-type",
          id: null,
          error: { code: INVALID_REQUEST, message: "Content-Type must be application/json" },
        },
        incoming,
      );
    }
    if (!acceptsJson(request.headers.get("accept"))) {
      return refuseMessage(
        c,
        started,
        null,
        origin,
        {
          status: 406,
          code: "accept",
          id: null,
          error: { code: INVALID_REQUEST, message: "Accept must include application/json" },
        },
        incoming,
      );
    }
    const received = await receiveAct(
      request,
      { maxBytes, bodyDeadlineMs: options.bodyDeadlineMs },
      incoming,
      incoming === undefined ? undefined : continuePending(c.env),
    );
    if (!received.ok) {
      reject(request, received.code, received.reason);
      const status =
        received.code === "content-too-large"
          ? 413
          : received.code === "content-encoding" || received.code === "transfer-encoding"
            ? 415
            : 400;
      log(c, started, endpointName, status, received.code, null);
      return closingWhen(
        json(status, errorText(null, { code: INVALID_REQUEST, message: messageFor(status) }), origin),
        closesUnread(request, incoming),
      );
    }
    // No string bound here: the parser reads the whole JSON-RPC envelope, whose other strings
    // (`method`, `id`, `_meta`, the arguments of a tool with an open form, other methods'
    // params) no tool form bounds; the tool's form still refuses an over-long argument string.
    const parsed = parseAct(received.value, {
      maxDepth,
      maxStringLength: Infinity,
      maxMembers,
      maxItems,
      lineColumn: development,
    });
    if (!parsed.ok) {
      reject(request, parsed.code, parsed.reason);
      log(c, started, endpointName, 400, parsed.code, received.value.byteLength);
      const message = development ? `Parse error: ${parsed.code}: ${parsed.reason}` : "Parse error";
      return json(400, errorText(null, { code: PARSE_ERROR, message }), origin);
    }
    const bytes = received.value.byteLength;
    const message = parsed.value;
    if (Array.isArray(message)) {
      return refuseMessage(c, started, bytes, origin, {
        status: 400,
        code: "batch",
        id: null,
        error: { code: INVALID_REQUEST, message: "Batches are not supported" },
      });
    }
    if (!isMessage(message)) {
      return refuseMessage(c, started, bytes, origin, {
        status: 400,
        code: "invalid-request",
        id: readId(message),
        error: { code: INVALID_REQUEST, message: "Invalid Request" },
      });
    }
    if (bytes > otherMaxBytes && (!("method" in message) || message.method !== "tools/call")) {
      // Read whole, as a tool call may be this large, but beyond what any other message needs.
      reject(request, "content-too-large", `a message other than tools/call of ${bytes} bytes`);
      log(c, started, endpointName, 413, "content-too-large", bytes);
      return json(413, errorText(readId(message), { code: INVALID_REQUEST, message: messageFor(413) }), origin);
    }
    // A notification, or a response to a request this stateless server never sent: accepted.
    if (!("method" in message) || message.id === undefined) return empty(202, origin);
    const { id, method, params } = message;
    const governed = governing(request, id, method, params);
    if ("status" in governed) return refuseMessage(c, started, bytes, origin, governed);
    const handler = governed.methods.get(method);
    if (handler === undefined) {
      // 2026-07-28 answers an unknown method 404 (Protocol Version Header: how a dual-era client
      // tells a modern server from a legacy one); in 2025-era traffic a 404 means "session
      // expired" and would make the client start over, so there it stays in band.
      const error = errorText(id, { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` });
      return json(governed.modern ? 404 : 200, error, origin);
    }
    // A tool call is an act: its client's act limit and its form's pin (If-Match) come first.
    const tool =
      method === "tools/call" && typeof params?.name === "string" ? tools.byName.get(params.name) : undefined;
    const address = tool?.address.form.name;
    if (address !== undefined) {
      const admitted = admitRate(c, "act", rateLimit, address);
      const refusal =
        (admitted === null ? null : await admitted) ?? admitPin(request.headers.get("if-match"), tool!.address.form);
      if (refusal !== null) {
        log(c, started, address, refusal.status, refusal.code, bytes);
        return admission(refusal, id, origin);
      }
    }
    const answer = await handler({ id, params, c }, endpoint);
    // A JSON-RPC error from tools/call is -32602 (no tool call, or no such tool): nothing was acted on.
    if (address !== undefined)
      log(c, started, address, 200, "error" in answer ? "invalid-params" : (rejected.get(request) ?? null), bytes);
    return json(200, "result" in answer ? resultText(id, answer.result) : errorText(id, answer.error), origin);
  }

  /** The revision of `version` when `versions` (the versions one way of claiming may name) has it. */
  function revisionIn(versions: readonly ProtocolVersion[], version: string): Revision<E> | undefined {
    return (versions as readonly string[]).includes(version) ? byVersion.get(version as ProtocolVersion) : undefined;
  }

  /** Step 7: the revision that governs a request, or why none does. */
  function governing(
    request: Request,
    id: RequestId,
    method: string,
    params: Readonly<Record<string, unknown>> | undefined,
  ): Revision<E> | Refused {
    const header = request.headers.get("mcp-protocol-version");
    const meta = params?._meta;
    const claimed =
      meta !== null && typeof meta === "object" && Object.hasOwn(meta, PROTOCOL_VERSION_META_KEY)
        ? (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY]
        : undefined;
    if (claimed !== undefined) {
      if (!isRequestEnvelope(meta)) {
        return {
          status: 400,
          code: "protocol-version",
          id,
          error: { code: INVALID_PARAMS, message: "Invalid _meta envelope" },
        };
      }
      const version = meta[PROTOCOL_VERSION_META_KEY];
      // The version field against the claim first: a disagreement is HeaderMismatch whatever the
      // claim names (Protocol Version Header); a claim the field repeats but no revision speaks is
      // UnsupportedProtocolVersion; then Mcp-Method and Mcp-Name (Standard Request Headers).
      const field = mismatchedField(request.headers, version, method, params);
      if (field === "MCP-Protocol-Version") return mismatch(id, field);
      const revision = revisionIn(MODERN_VERSIONS, version);
      if (revision === undefined) {
        return unsupported(id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", version);
      }
      if (field !== null) return mismatch(id, field);
      return revision;
    }
    if (method === "initialize") {
      // The handshake negotiates; the table is that of the version it will answer with.
      const requested = params?.protocolVersion;
      const version = (LEGACY_VERSIONS as readonly unknown[]).includes(requested) ? requested : LEGACY_VERSIONS[0];
      return byVersion.get(version as ProtocolVersion)!;
    }
    if (header === null) return byVersion.get("2025-06-18")!;
    if ((MODERN_VERSIONS as readonly string[]).includes(header)) {
      return {
        status: 400,
        code: "protocol-version",
        id,
        error: { code: INVALID_PARAMS, message: `A ${header} request must carry the _meta envelope` },
      };
    }
    return (
      revisionIn(LEGACY_VERSIONS, header) ??
      unsupported(id, INVALID_REQUEST, "Unsupported MCP-Protocol-Version", header)
    );
  }

  return async function mcpEndpoint(c: Context<E>): Promise<Response> {
    const started = Date.now();
    const request = c.req.raw;
    // On Node (@hono/node-server), the body is read from the message itself, as by `address()`.
    const incoming = nodeMessageOf(request, c.env);
    const host = request.headers.get("host") ?? hostOf(request.url);
    if (hosts !== null && (host === null || !hosts.has(hostName(host)))) {
      return refuseMessage(
        c,
        started,
        null,
        null,
        {
          status: 403,
          code: "host-not-allowed",
          id: null,
          error: { code: INVALID_REQUEST, message: "Forbidden: Host not allowed" },
        },
        incoming,
      );
    }
    const origin = checkOrigin(request, host);
    if (origin === false) {
      return refuseMessage(
        c,
        started,
        null,
        null,
        {
          status: 403,
          code: "origin-not-allowed",
          id: null,
          error: { code: INVALID_REQUEST, message: "Forbidden: Origin not allowed" },
        },
        incoming,
      );
    }
    switch (request.method) {
      case "POST":
        try {
          return await post(c, origin, incoming);
        } catch (error) {
          // Only a fault inside a stage gets here (bad input is answered above): fail closed.
          console.error("gpt-address: the MCP endpoint threw", error);
          log(c, started, endpointName, 500, "fault", null);
          return empty(500, origin);
        }
      case "OPTIONS":
        return closingWhen(
          new Response(null, {
            status: 204,
            headers: {
              Allow: ALLOW,
              "Access-Control-Allow-Methods": ALLOW,
              "Access-Control-Allow-Headers": ALLOW_HEADERS,
              "Access-Control-Max-Age": "86400",
              ...headers(origin, false),
            },
          }),
          carriesBody(request, incoming) && discardAct(request, incoming),
        );
      default:
        // No SSE stream (GET) and no session to end (DELETE): stateless (transports, Streamable HTTP).
        log(c, started, endpointName, 405, "method-not-allowed", null);
        return closingWhen(empty(405, origin, { Allow: ALLOW }), discardAct(request, incoming));
    }
  };
}

/**
 * A version no revision speaks: 400 with the versions supported. The 2026-07-28 envelope's
 * claim is refused with -32022, a legacy `MCP-Protocol-Version` header with -32600.
 */
function unsupported(id: RequestId, code: number, message: string, requested: string): Refused {
  return {
    status: 400,
    code: "protocol-version",
    id,
    error: { code, message: `${message}: ${requested}`, data: { supported: SUPPORTED_VERSIONS, requested } },
  };
}

function mismatch(id: RequestId, field: string): Refused {
  return {
    status: 400,
    code: "header-mismatch",
    id,
    error: { code: HEADER_MISMATCH, message: `${field} disagrees with the request body` },
  };
}

function messageFor(status: number): string {
  if (status === 413) return "Message too large";
  if (status === 415) return "Content-Encoding not supported";
  return "Invalid message framing";
}

/** The `id` of something that is not a valid message, when it has a usable one; else `null`. */
function readId(value: unknown): RequestId | null {
  if (value === null || typeof value !== "object" || !Object.hasOwn(value, "id")) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === "string" || Number.isSafeInteger(id) ? (id as RequestId) : null;
}

/** The host name of a `Host` field value (RFC 9110 §7.2), port removed, lower case. */
function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.lastIndexOf(":");
  return colon === -1 ? value : value.slice(0, colon);
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** Whether a `Content-Type` is `application/json` (parameters such as `charset` ignored). */
function isJsonMediaType(field: string | null): boolean {
  if (field === null) return false;
  const essence = field.split(";", 1)[0]!.trim().toLowerCase();
  return essence === "application/json";
}

/**
 * Whether an `Accept` field admits `application/json` (the weight of its most specific matching
 * range above 0, RFC 9110 §12.5.1: `application/json;q=0, *\/*` does not); an absent one admits
 * anything.
 */
function acceptsJson(field: string | null): boolean {
  return field === null || acceptWeights(field.toLowerCase()).json > 0;
}
