/**
 * The answer stage of the MCP door (see `src/address/stages.ts`): every outcome of a message as
 * the `Response` the endpoint sends, with its report. In-band errors are JSON-RPC on 200; a
 * message refused before any method ran gets the HTTP status of one table
 * ({@link MESSAGE_REFUSALS}), and a body refused by the receive stage the status
 * `problemStatus` gives every door (413, 415, 400). Built once per endpoint by
 * {@link mcpAnswers}; without an `Origin` every header record is one frozen object.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
 * @module
 */
import type { MessageRefusalCode } from "../address/act-log.ts";
import type { Refused } from "../address/admission.ts";
import { problemStatus } from "../address/rejection.ts";
import type { Reporter } from "../address/report.ts";
import { closing, discardAct, type Refusal } from "../address/verification.ts";
import type { NodeMessage } from "../body/node-message.ts";
import {
  errorText,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  type RequestId,
  type RpcError,
  resultText,
} from "./jsonrpc.ts";
import type { Answer } from "./revisions.ts";

/** The methods of the endpoint's one path (stateless: no SSE stream to GET, no session to DELETE). */
export const ALLOW = "POST, OPTIONS";

const ALLOW_HEADERS =
  "Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID, GPT-Actor, If-Match";

/** A refusal before any method ran: its HTTP status and default JSON-RPC error. */
interface MessageRefusal {
  readonly status: number;
  readonly error: RpcError;
}

const refusal = (status: number, message: string): MessageRefusal => ({
  status,
  error: { code: INVALID_REQUEST, message },
});

/**
 * The one table of the transport's refusals, by {@link MessageRefusalCode} (`method-not-allowed`
 * is answered by {@link McpAnswers.notAllowed}). `protocol-version` and `header-mismatch`
 * always come with their own error (`govern.ts`).
 */
export const MESSAGE_REFUSALS: Readonly<Record<Exclude<MessageRefusalCode, "method-not-allowed">, MessageRefusal>> = {
  "host-not-allowed": refusal(403, "Forbidden: Host not allowed"),
  "origin-not-allowed": refusal(403, "Forbidden: Origin not allowed"),
  "content-type": refusal(415, "Content-Type must be application/json"),
  accept: refusal(406, "Accept must include application/json"),
  batch: refusal(400, "Batches are not supported"),
  "invalid-request": refusal(400, "Invalid Request"),
  "protocol-version": refusal(400, "Unsupported protocol version"),
  "header-mismatch": refusal(400, "A request field disagrees with the request body"),
};

/**
 * The fields of an answer without a body, and of a JSON answer (nosniff: see `http-answers.ts`).
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

/**
 * An answer's fields, as a record: @hono/node-server writes a record straight to Node's
 * response, where a list is first turned into an undici `Headers` per answer (as for
 * `address()`, issue 16). Without an Origin the record is one frozen object for every answer.
 */
export function fields(origin: string | null, contentType: boolean): Readonly<Record<string, string>> {
  if (origin === null) return contentType ? JSON_FIELDS : EMPTY_FIELDS;
  return { ...(contentType ? JSON_FIELDS : EMPTY_FIELDS), "Access-Control-Allow-Origin": origin, Vary: "Origin" };
}

/** A JSON answer (a JSON-RPC response's text). */
export function json(status: number, text: string, origin: string | null): Response {
  return new Response(text, { status, headers: fields(origin, true) });
}

/** An empty answer other than 204 (202, 405, 500), with `Content-Length: 0`. */
export function empty(status: number, origin: string | null, extra?: Readonly<Record<string, string>>): Response {
  const headers =
    origin === null && extra === undefined
      ? NO_CONTENT_FIELDS
      : { ...extra, ...fields(origin, false), "Content-Length": "0" };
  return new Response(null, { status, headers });
}

/** `answer`, saying `Connection: close` when `closes` (a body left unread, RFC 9112 §9.6). */
function closingWhen(answer: Response, closes: boolean): Response {
  return closes ? closing(answer) : answer;
}

function messageFor(status: number): string {
  if (status === 413) return "Message too large";
  if (status === 415) return "Content-Encoding not supported";
  return "Invalid message framing";
}

/**
 * The answers of one endpoint. `started` is `Date.now()` at the request's entry; `origin` the
 * admitted `Origin` (`guards.ts`), or `null`; `bytes` the message's size once read, else `null`.
 */
export interface McpAnswers {
  /**
   * A message refused before any method ran, logged under the endpoint's name; one refused
   * before reading (`bytes` null) has its body discarded and closes as `discardAct` says.
   *
   * @param error - the JSON-RPC error, when not the table's.
   * @param incoming - on Node, the unread message (`nodeMessageOf`).
   */
  refused(
    request: Request,
    started: number,
    code: Exclude<MessageRefusalCode, "method-not-allowed">,
    id: RequestId | null,
    bytes: number | null,
    origin: string | null,
    incoming?: NodeMessage,
    error?: RpcError,
  ): Response;
  /**
   * A message refused by admission (429 with `Retry-After`, or a tool's pin: 412), as JSON-RPC.
   * `address`: the name its entry is logged under; `closes`: with `Connection: close`.
   */
  limited(
    request: Request,
    started: number,
    refused: Refused,
    address: string,
    id: RequestId | null,
    bytes: number | null,
    origin: string | null,
    closes: boolean,
  ): Response;
  /** A body the receive stage refused (413, 415, 400), reported to `onReject`. */
  unreceived(request: Request, started: number, refusal: Refusal, origin: string | null, closes: boolean): Response;
  /** A message the strict parser refused: 400 with -32700, reported to `onReject`. */
  unparsed(request: Request, started: number, refusal: Refusal, bytes: number, origin: string | null): Response;
  /** A message other than `tools/call` over its own limit: 413, reported to `onReject`. */
  tooLarge(request: Request, started: number, id: RequestId | null, bytes: number, origin: string | null): Response;
  /** A notification or a response: 202, nothing done. */
  accepted(origin: string | null): Response;
  /**
   * A method the governing revision does not have: -32601, HTTP 404 under 2026-07-28 (how a
   * dual-era client tells a modern server), 200 before (there a 404 means "session expired").
   */
  methodNotFound(id: RequestId, method: string, modern: boolean, origin: string | null): Response;
  /**
   * A method's answer, JSON-RPC on 200. With `address` (a tool call) it is logged under the
   * tool's form: `invalid-params` for an error, else the answer's own code (`null`: acted on).
   */
  answered(
    request: Request,
    started: number,
    address: string | undefined,
    id: RequestId,
    answer: Answer,
    bytes: number | null,
    origin: string | null,
  ): Response;
  /** A fault inside a stage (never bad input): logged, 500 with no body, nothing acted on. */
  fault(request: Request, started: number, error: unknown, origin: string | null): Response;
  /** The CORS preflight; `closes` as for {@link limited}. */
  preflight(origin: string | null, closes: boolean): Response;
  /** A method other than POST and OPTIONS: 405 with `Allow`; `closes` as for {@link limited}. */
  notAllowed(request: Request, started: number, origin: string | null, closes: boolean): Response;
}

/**
 * Builds the answers of one endpoint.
 *
 * @param name - the endpoint's name: the log entries' `address` before a tool is known.
 * @param report - the endpoint's {@link Reporter}.
 * @param development - development mode (X3): a parse error names its code and reason.
 */
export function mcpAnswers(name: string, report: Reporter, development: boolean): McpAnswers {
  return {
    refused(request, started, code, id, bytes, origin, incoming, error) {
      const { status, error: standard } = MESSAGE_REFUSALS[code];
      report.log(request, started, name, status, code, bytes);
      const answer = json(status, errorText(id, error ?? standard), origin);
      return bytes === null ? closingWhen(answer, discardAct(request, incoming)) : answer;
    },
    limited(request, started, refused, address, id, bytes, origin, closes) {
      report.log(request, started, address, refused.status, refused.code, bytes);
      const limited = refused.status === 429;
      const error = {
        code: INVALID_REQUEST,
        message: limited ? "Too many requests" : "Precondition failed: the form changed",
      };
      const headers = limited
        ? {
            ...fields(origin, true),
            "Retry-After": String(refused.retryAfterSeconds),
            "Access-Control-Expose-Headers": "Retry-After",
          }
        : fields(origin, true);
      return closingWhen(new Response(errorText(id, error), { status: refused.status, headers }), closes);
    },
    unreceived(request, started, refusal, origin, closes) {
      report.reject(request, refusal.code, refusal.reason);
      const status = problemStatus(refusal.code).status;
      report.log(request, started, name, status, refusal.code, null);
      const error = { code: INVALID_REQUEST, message: messageFor(status) };
      return closingWhen(json(status, errorText(null, error), origin), closes);
    },
    unparsed(request, started, refusal, bytes, origin) {
      report.reject(request, refusal.code, refusal.reason);
      report.log(request, started, name, 400, refusal.code, bytes);
      const message = development ? `Parse error: ${refusal.code}: ${refusal.reason}` : "Parse error";
      return json(400, errorText(null, { code: PARSE_ERROR, message }), origin);
    },
    tooLarge(request, started, id, bytes, origin) {
      // Read whole, as a tool call may be this large, but beyond what any other message needs.
      report.reject(request, "content-too-large", `a message other than tools/call of ${bytes} bytes`);
      report.log(request, started, name, 413, "content-too-large", bytes);
      return json(413, errorText(id, { code: INVALID_REQUEST, message: messageFor(413) }), origin);
    },
    accepted: (origin) => empty(202, origin),
    methodNotFound(id, method, modern, origin) {
      const error = errorText(id, { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` });
      return json(modern ? 404 : 200, error, origin);
    },
    answered(request, started, address, id, answer, bytes, origin) {
      if ("error" in answer) {
        // A JSON-RPC error from tools/call is -32602 (no tool call, or no such tool): nothing was acted on.
        if (address !== undefined) report.log(request, started, address, 200, "invalid-params", bytes);
        return json(200, errorText(id, answer.error), origin);
      }
      if (address !== undefined) report.log(request, started, address, 200, answer.code ?? null, bytes);
      return json(200, resultText(id, answer.result), origin);
    },
    fault(request, started, error, origin) {
      // Only a fault inside a stage gets here (bad input is answered above): fail closed.
      console.error("gpt-address: the MCP endpoint threw", error);
      report.log(request, started, name, 500, "fault", null);
      return empty(500, origin);
    },
    preflight(origin, closes) {
      const headers = {
        Allow: ALLOW,
        "Access-Control-Allow-Methods": ALLOW,
        "Access-Control-Allow-Headers": ALLOW_HEADERS,
        "Access-Control-Max-Age": "86400",
        ...fields(origin, false),
      };
      return closingWhen(new Response(null, { status: 204, headers }), closes);
    },
    notAllowed(request, started, origin, closes) {
      report.log(request, started, name, 405, "method-not-allowed", null);
      return closingWhen(empty(405, origin, { Allow: ALLOW }), closes);
    },
  };
}
