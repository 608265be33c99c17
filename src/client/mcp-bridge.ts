/**
 * The MCP bridge: any GPT addresses (any origin, any implementation) as the tools of one MCP
 * server, for a client that speaks MCP over stdio (`gpt-address mcp <url…>`). It is an actor
 * like `gpt-address act`, on the same path: `retrieve` the arrival, `checkLocally` against the
 * compiled form, `postAct` the exact bytes.
 *
 * - `tools/list` reads each address at that moment (the contact): the tool's `inputSchema` is
 *   `s` (wrapped as `{value}` when `s` is not an object schema, since tool arguments are an
 *   object), its description `s.description`, else `p`.
 * - `tools/call` checks the arguments against the form last read (a failure names the pointer
 *   and keyword; nothing is sent), then POSTs them with `If-Match` of that arrival's ETag. 200:
 *   the answer as text and, when a JSON object, as `structuredContent`. 204: a tool error,
 *   nothing was done. 412: the form is read again, `notifications/tools/list_changed` is sent,
 *   and a tool error says the form changed. 429: one wait of `Retry-After` (bounded), one more
 *   try, then a tool error. 202 (asked for with `respondAsync`, or not): the run is followed
 *   (docs/runs.md) and its result is the answer; with a `progressToken` in the call's `_meta`,
 *   each step of the run's progress is a `notifications/progress`; the client's
 *   `notifications/cancelled` gives the act up (a run is `DELETE`d) and the call is not answered.
 *
 * JSON-RPC: each message is read by the strict parser and checked by the door's generated
 * message validators (src/mcp/messages.ts); the lifecycle of 2025-06-18 and 2025-11-25
 * (`initialize`, `ping`). A 2026-07-28 client probing with `server/discover` gets -32601 and
 * falls back to `initialize`, as the stdio binding says.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools
 * @module
 */
import { FormError } from "../compile/form-error.ts";
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import {
  errorText,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  resultText,
} from "../mcp/jsonrpc.ts";
import { isInitializeParams, isMessage, isToolsCallParams, isToolsListParams } from "../mcp/messages.ts";
import { LEGACY_VERSIONS } from "../mcp/revisions.ts";
import { type Answer, checkLocally, postAct } from "./act.ts";
import { type Arrival, retrieve } from "./arrival.ts";
import { compileValidator, type FormValidator } from "./form-validator.ts";
import { type Run, retryAfterSeconds } from "./run.ts";

/** Options of {@link createBridge}. */
export interface BridgeOptions {
  /** Writes a server-to-client notification (its JSON text, one line) to the transport. */
  readonly notify: (text: string) => void;
  /** Reports what the client is not told (an address that could not be read), one line. */
  readonly log?: (line: string) => void;
  /** The longest `Retry-After` waited once, in seconds. Default 10. */
  readonly maxWaitSeconds?: number;
  /** `serverInfo.version`. */
  readonly version?: string;
  /**
   * Ask for runs (`Prefer: respond-async[, wait=N]`, docs/runs.md). A `202` with `Location` is
   * followed either way, with progress notifications when the call has a `progressToken`.
   */
  readonly respondAsync?: boolean | { readonly wait?: number };
}

/** One MCP server over the given addresses. */
export interface Bridge {
  /** The tool names, by address, in the order given. */
  readonly names: readonly string[];
  /** Answers one message: the JSON text of its response, or `undefined` for a notification. */
  receive(bytes: Uint8Array): Promise<string | undefined>;
}

/** An address served as a tool, with the form last read. */
interface Address {
  readonly url: string;
  readonly name: string;
  arrival?: Arrival;
  /** The compiler's refusal when it cannot enforce the form (then nothing is sent). */
  validator?: FormValidator | FormError;
}

interface ToolResult {
  readonly content: readonly { readonly type: "text"; readonly text: string }[];
  readonly structuredContent?: unknown;
  readonly isError: boolean;
}

const LIST_CHANGED = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}';
const INSTRUCTIONS =
  "Each tool is a GPT address: calling it sends its arguments as one act to that address, once. A tool error says nothing was done.";
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const toolError = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true });

/**
 * A tool name for each URL: its last path segment (else its host), in MCP's characters
 * (`A-Z a-z 0-9 _ - .`, 1 to 128), made unique by a suffix.
 */
export function toolNames(urls: readonly string[]): string[] {
  const taken = new Set<string>();
  return urls.map((url) => {
    const parsed = new URL(url);
    const segment = parsed.pathname.split("/").filter(Boolean).at(-1) ?? parsed.host;
    const base =
      decodeURIComponent(segment)
        .replace(/[^A-Za-z0-9_.-]+/g, "_")
        .slice(0, 120) || "address";
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return name;
  });
}

/** Whether `s` can be a tool's `inputSchema` as it is (an object schema). */
const objectSchema = (s: unknown): boolean => isObject(s) && s.type === "object";

/** `s` as an `inputSchema`: itself, or `{value: s}` with its `$defs` kept at the top for its `$ref`s. */
function inputSchema(s: unknown): unknown {
  if (objectSchema(s)) return s;
  const { $defs, $schema, ...rest } = isObject(s) ? s : { $defs: undefined, $schema: undefined };
  const value = isObject(s) ? rest : s;
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: "object",
    additionalProperties: false,
    required: ["value"],
    properties: { value },
    ...($defs === undefined ? {} : { $defs }),
  };
}

/**
 * Creates the bridge over `urls` (http or https).
 *
 * @example
 * ```ts
 * const bridge = createBridge(["https://example.org/feedback"], { notify: (t) => process.stdout.write(`${t}\n`) });
 * const answer = await bridge.receive(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'));
 * ```
 */
export function createBridge(urls: readonly string[], options: BridgeOptions): Bridge {
  const names = toolNames(urls);
  const addresses = new Map<string, Address>(urls.map((url, i) => [names[i]!, { url, name: names[i]! }]));
  const maxWait = options.maxWaitSeconds ?? 10;
  /** The requests being answered, by id, for `notifications/cancelled`. */
  const inFlight = new Map<string | number, AbortController>();
  let actor = "gpt-address mcp";

  /** Reads the address now: its arrival and its validator. */
  async function read(address: Address): Promise<Arrival> {
    const arrival = await retrieve(address.url);
    let validator: FormValidator | FormError;
    try {
      validator = await compileValidator(arrival.document.s);
    } catch (error) {
      if (!(error instanceof FormError)) throw error;
      validator = error;
    }
    address.arrival = arrival;
    address.validator = validator;
    return arrival;
  }

  async function listTools(): Promise<unknown> {
    const reads = await Promise.allSettled([...addresses.values()].map(read));
    const tools: unknown[] = [];
    [...addresses.values()].forEach((address, i) => {
      const outcome = reads[i]!;
      if (outcome.status === "rejected") {
        options.log?.(`${address.url}: not listed: ${(outcome.reason as Error).message}`);
        return;
      }
      const { p, s } = outcome.value.document;
      const description = isObject(s) && typeof s.description === "string" ? s.description : p;
      const title = isObject(s) && typeof s.title === "string" ? s.title : undefined;
      tools.push({ name: address.name, ...(title ? { title } : {}), description, inputSchema: inputSchema(s) });
    });
    return { tools };
  }

  /** The address's answer as a tool result. */
  async function outcome(address: Address, answer: Answer): Promise<ToolResult> {
    const { status } = answer;
    if (answer.kind === "accepted") {
      const text = decoder.decode(answer.response.body);
      return {
        content: [{ type: "text", text }],
        ...(isObject(answer.json) ? { structuredContent: answer.json } : {}),
        isError: false,
      };
    }
    if (answer.kind === "refused") {
      return toolError(
        `The address refused the act (204): nothing was done. It does not say why; the arguments passed the local check, so check them against the tool's description and call it again with other arguments. ${address.url}`,
      );
    }
    if (answer.kind === "form-changed") {
      try {
        await read(address);
      } catch (error) {
        options.log?.(`${address.url}: the form changed and cannot be read again: ${(error as Error).message}`);
      }
      options.notify(LIST_CHANGED);
      return toolError(
        `The form of ${address.url} changed since it was read (412): nothing was done. List the tools again and call this one with arguments that fit its new form.`,
      );
    }
    const after = answer.response.headers["retry-after"];
    if (answer.kind === "rate-limited") {
      return toolError(`The address is rate limited (429)${after ? `; Retry-After: ${after}` : ""}: nothing was done.`);
    }
    if (answer.kind === "run-failed") {
      return toolError("The act was accepted and ran in the background, but it failed; the address does not say why.");
    }
    if (answer.kind === "run-cancelled") {
      return toolError("The act's run was cancelled before it ended; it was not completed.");
    }
    if (answer.kind === "run-gone") {
      return toolError(
        "The act was accepted to run in the background, but its run is gone (404); whether it was done is unknown.",
      );
    }
    return toolError(`The address answered ${status}: nothing is known to have been done.`);
  }

  /** A `notifications/progress` sender for `token`: the run's fraction (0 to 1, total 1), only when it grows. */
  function progressOf(token: string | number | undefined): ((run: Run) => void) | undefined {
    if (token === undefined) return undefined;
    let last = -1;
    return (run) => {
      const progress = run.status === "completed" ? 1 : (run.progress ?? 0);
      // MCP: progress MUST increase with each notification.
      if (progress <= last) return;
      last = progress;
      const message = run.statusMessage ?? run.status;
      options.notify(
        JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token, progress, total: 1, message },
        }),
      );
    };
  }

  async function callTool(
    address: Address,
    args: Readonly<Record<string, unknown>>,
    call: { readonly signal: AbortSignal; readonly progressToken?: string | number },
  ): Promise<ToolResult> {
    let arrival = address.arrival;
    try {
      arrival ??= await read(address);
    } catch (error) {
      return toolError(`The form of ${address.url} could not be read: ${(error as Error).message}. Nothing was sent.`);
    }
    const validator = address.validator;
    if (validator instanceof FormError || validator === undefined) {
      return toolError(
        `The form cannot be checked locally (/s${validator?.pointer ?? ""}: ${validator?.message}); nothing was sent.`,
      );
    }
    const value = objectSchema(arrival.document.s) ? args : args.value;
    if (value === undefined) return toolError('The arguments lack "value"; nothing was sent.');
    const bytes = encoder.encode(JSON.stringify(value));
    const failure = checkLocally(bytes, validator);
    if (failure !== null) {
      const where = failure.stage === "form" ? ` at ${failure.pointer} (${failure.keyword})` : `: ${failure.message}`;
      return toolError(
        `The arguments do not fit the form${where}; nothing was sent. Call the tool again with arguments its inputSchema accepts.`,
      );
    }
    const onProgress = progressOf(call.progressToken);
    const send = () =>
      postAct(arrival!, bytes, {
        pin: true,
        actor,
        signal: call.signal,
        ...(options.respondAsync === undefined ? {} : { respondAsync: options.respondAsync }),
        ...(onProgress === undefined ? {} : { onRun: onProgress }),
      });
    try {
      let answer = await send();
      if (answer.kind === "rate-limited") {
        const seconds = retryAfterSeconds(answer.response.headers["retry-after"]) ?? 1;
        if (seconds <= maxWait) {
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
          answer = await send();
        }
      }
      return await outcome(address, answer);
    } catch (error) {
      return toolError(`No answer from ${address.url}: ${(error as Error).message}. Whether it acted is unknown.`);
    }
  }

  async function answer(method: string, params: Readonly<Record<string, unknown>> | undefined, signal: AbortSignal) {
    switch (method) {
      case "initialize": {
        if (!isInitializeParams(params))
          return { error: { code: INVALID_PARAMS, message: "Invalid initialize params" } };
        actor = `${params.clientInfo.name}; via=gpt-address mcp`;
        const requested = params.protocolVersion;
        const protocolVersion = (LEGACY_VERSIONS as readonly string[]).includes(requested)
          ? requested
          : LEGACY_VERSIONS[0];
        return {
          result: {
            protocolVersion,
            capabilities: { tools: { listChanged: true } },
            serverInfo: { name: "gpt-address", version: options.version ?? "0.1.0" },
            instructions: INSTRUCTIONS,
          },
        };
      }
      case "ping":
        return { result: {} };
      case "tools/list":
        if (params !== undefined && (!isToolsListParams(params) || params.cursor !== undefined))
          return { error: { code: INVALID_PARAMS, message: "Invalid tools/list params" } };
        return { result: await listTools() };
      case "tools/call": {
        if (!isToolsCallParams(params))
          return { error: { code: INVALID_PARAMS, message: "Invalid tools/call params" } };
        const address = addresses.get(params.name);
        if (address === undefined) return { error: { code: INVALID_PARAMS, message: `Unknown tool: ${params.name}` } };
        const token = isObject(params._meta) ? params._meta.progressToken : undefined;
        const progressToken = typeof token === "string" || typeof token === "number" ? token : undefined;
        return {
          result: await callTool(address, params.arguments ?? {}, {
            signal,
            ...(progressToken === undefined ? {} : { progressToken }),
          }),
        };
      }
      default:
        return { error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } };
    }
  }

  return {
    names,
    async receive(bytes) {
      let message: unknown;
      try {
        message = parseJson(bytes);
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error;
        return errorText(null, { code: PARSE_ERROR, message: `Parse error: ${error.code}` });
      }
      if (!isMessage(message)) return errorText(null, { code: INVALID_REQUEST, message: "Invalid Request" });
      // The client cancels a request it made: its act is given up (a run is DELETEd).
      if ("method" in message && message.method === "notifications/cancelled" && message.id === undefined) {
        const requestId = isObject(message.params) ? message.params.requestId : undefined;
        if (typeof requestId === "string" || typeof requestId === "number") inFlight.get(requestId)?.abort();
        return undefined;
      }
      // Another notification (initialized) or a response: nothing to answer.
      if (!("method" in message) || message.id === undefined) return undefined;
      const id = message.id;
      const controller = new AbortController();
      inFlight.set(id, controller);
      try {
        const reply = await answer(message.method, message.params, controller.signal);
        // A cancelled request is not answered (MCP, Cancellation).
        if (controller.signal.aborted) return undefined;
        return "result" in reply ? resultText(id, JSON.stringify(reply.result)) : errorText(id, reply.error);
      } finally {
        if (inFlight.get(id) === controller) inFlight.delete(id);
      }
    },
  };
}
