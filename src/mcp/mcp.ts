/**
 * `mcp()`: the MCP door, every address also an MCP tool whose call takes the same stages as a
 * POST to the address. Streamable HTTP, stateless (no session, no SSE): one JSON-RPC message per
 * POST, answered with `application/json`; notifications and responses 202; GET and DELETE 405.
 * This file is the wiring; each concept is a file: `options.ts`, `guards.ts`, `govern.ts`,
 * `revisions.ts` (the methods), `tools.ts`, `answers.ts`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 * @module
 */
import type { Context, Env, Handler } from "hono";
import { admitAct, admitRate } from "../address/admission.ts";
import { reporter } from "../address/report.ts";
import { carriesBody, closesUnread, discardAct, parseAct, receiveAct } from "../address/verification.ts";
import { continuePending, type NodeMessage, nodeMessageOf } from "../body/node-message.ts";
import { mcpAnswers } from "./answers.ts";
import { governing } from "./govern.ts";
import { admittedHost, admittedOrigin, hostPolicy, mediaRefusal } from "./guards.ts";
import { readId } from "./jsonrpc.ts";
import { isMessage } from "./messages.ts";
import { type McpOptions, messageLimits, readLimits } from "./options.ts";
import { endpointOf, revisions } from "./revisions.ts";
import { type AnyMcpAddress, calledForm, prepareTools } from "./tools.ts";

export {
  DEFAULT_TOOLS_TTL_MS,
  LOOPBACK_HOSTS,
  type McpOptions,
  MESSAGE_MAX_BYTES,
  MESSAGE_MAX_COUNT,
  NAMED_CALL_ENVELOPE_BYTES,
} from "./options.ts";

/**
 * Creates the Hono handler of one MCP endpoint serving `addresses` as tools, one tool per
 * address in the order given (mount it with `app.all("/mcp", mcp(addresses))`).
 *
 * A POST passes the stages every door shares (`src/address/stages.ts`), with the transport's
 * guards first and the revision between the message and its method:
 * 1. guards (`guards.ts`): `Host` and `Origin` (DNS-rebinding protection): 403;
 * 2. admit: the client's arrival limit: 429; `Content-Type` other than `application/json`: 415;
 *    an `Accept` without JSON: 406;
 * 3. receive: the body under `maxBytes`, narrowed to a `tools/call`'s tool's bound once the tool
 *    is known (from `Mcp-Name`: `readLimits`; from the first bytes: `headLimit`), and any other
 *    method's to {@link MESSAGE_MAX_BYTES}: 413 (415 for a coded body, 400 for bad framing);
 * 4. verify the message: the strict parser, with the tools' member and item bounds (at least
 *    {@link MESSAGE_MAX_COUNT}): 400 with -32700; a batch or no JSON-RPC message (generated
 *    validator): 400 with -32600; anything but a `tools/call` over {@link MESSAGE_MAX_BYTES}: 413;
 * 5. a notification or a response: 202, nothing done;
 * 6. govern (`govern.ts`): the revision from the `_meta` envelope (2026-07-28), `initialize`'s
 *    negotiation, or `MCP-Protocol-Version`; a claim or field that disagrees: 400;
 * 7. the revision's method (`revisions.ts`): unknown -32601 (HTTP 404 under 2026-07-28, 200
 *    before), bad params or tool -32602; a `tools/call` admits its act (act limit, pin: 429,
 *    412), verifies the arguments against the form and performs the act;
 * 8. answer (`answers.ts`): JSON-RPC on 200 unless a stage above said otherwise.
 *
 * Never a 5xx for bad input: a fault inside a stage is logged and answered 500, without acting.
 *
 * @param addresses - the addresses as tools: `{form, act}` as given to `address()`, with an
 *   optional `toolName` and `outputSchema`.
 * @param options - {@link McpOptions}.
 * @returns a Hono handler for POST, GET, DELETE and OPTIONS of one path.
 * @throws {TypeError} when a tool name is invalid or repeated, or a form's `s` is not an
 *   object schema; {RangeError} when `maxBytes` or `ttlMs` is not a non-negative safe integer.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata
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
  const limits = messageLimits(tools, options);
  const policy = hostPolicy(options);
  const { rateLimit, development = false } = options;
  const name = options.name ?? "gpt-address";
  const report = reporter("mcp", "the MCP endpoint", options);
  const answers = mcpAnswers(name, report, development);
  const endpoint = endpointOf(tools, options, limits.ttlMs, report.reject);
  const byVersion = revisions<E>();

  /** POST: admit → receive → verify the message → govern → the method (a tool call: admit → verify → perform) → answer. */
  async function post(c: Context<E>, started: number, origin: string | null, incoming: NodeMessage | undefined) {
    const request = c.req.raw;
    // Every message is an arrival at the endpoint, counted before its body is read.
    const limited = admitRate(c, "arrival", rateLimit, name);
    const refused = limited === null ? null : await limited;
    if (refused !== null) {
      return answers.limited(request, started, refused, name, null, null, origin, discardAct(request, incoming));
    }
    const media = mediaRefusal(request.headers);
    if (media !== null) return answers.refused(request, started, media, null, null, origin, incoming);
    const bounds = readLimits(limits, request.headers, tools);
    const received = await receiveAct(request, bounds, incoming, incoming && continuePending(c.env));
    if (!received.ok) return answers.unreceived(request, started, received, origin, closesUnread(request, incoming));
    const bytes = received.value.byteLength;
    const parsed = parseAct(received.value, limits);
    if (!parsed.ok) return answers.unparsed(request, started, parsed, bytes, origin);
    const message = parsed.value;
    if (Array.isArray(message)) return answers.refused(request, started, "batch", null, bytes, origin);
    if (!isMessage(message))
      return answers.refused(request, started, "invalid-request", readId(message), bytes, origin);
    if (bytes > limits.otherMaxBytes && (!("method" in message) || message.method !== "tools/call")) {
      return answers.tooLarge(request, started, readId(message), bytes, origin);
    }
    // A notification, or a response to a request this stateless server never sent: accepted.
    if (!("method" in message) || message.id === undefined) return answers.accepted(origin);
    const { id, method, params } = message;
    const revision = governing(byVersion, request.headers, method, params);
    if (!("methods" in revision)) {
      return answers.refused(request, started, revision.code, id, bytes, origin, undefined, revision.error);
    }
    const handler = revision.methods.get(method);
    if (handler === undefined) return answers.methodNotFound(id, method, revision.modern, origin);
    // A tool call is an act: its client's act limit and its form's pin (If-Match) come first.
    const form = calledForm(tools, method, params);
    if (form !== undefined) {
      const admitted = admitAct(c, rateLimit, form);
      const refusal = admitted instanceof Promise ? await admitted : admitted;
      if (refusal !== null) return answers.limited(request, started, refusal, form.name, id, bytes, origin, false);
    }
    const answer = await handler({ id, params, c }, endpoint);
    return answers.answered(request, started, form?.name, id, answer, bytes, origin);
  }

  return async function mcpEndpoint(c: Context<E>): Promise<Response> {
    const started = Date.now();
    const request = c.req.raw;
    // On Node (@hono/node-server), the body is read from the message itself, as by `address()`.
    const incoming = nodeMessageOf(request, c.env);
    const host = admittedHost(request, policy);
    if (host === false) return answers.refused(request, started, "host-not-allowed", null, null, null, incoming);
    const origin = admittedOrigin(request, host, policy);
    if (origin === false) return answers.refused(request, started, "origin-not-allowed", null, null, null, incoming);
    switch (request.method) {
      case "POST":
        try {
          return await post(c, started, origin, incoming);
        } catch (error) {
          return answers.fault(request, started, error, origin);
        }
      case "OPTIONS":
        return answers.preflight(origin, carriesBody(request, incoming) && discardAct(request, incoming));
      default:
        // No SSE stream (GET) and no session to end (DELETE): stateless (transports, Streamable HTTP).
        return answers.notAllowed(request, started, origin, discardAct(request, incoming));
    }
  };
}
