/**
 * The MCP protocol revisions the door speaks, one typed method table each. A request is
 * answered by the table of the revision that governs it (chosen in `mcp.ts`); a method absent
 * from that table is "method not found", whatever another revision has.
 *
 * - 2025-06-18 and 2025-11-25: `initialize`, `ping`, `tools/list`, `tools/call`,
 *   `resources/list`, `resources/read` (the tools' MCP Apps pages); 2025-11-25 also the
 *   experimental tasks: `tasks/get`, `tasks/result`, `tasks/cancel` (`tasks.ts`).
 * - 2026-07-28: no handshake; `server/discover`, `tools/list`, `resources/list` and
 *   `resources/read` (with the cache hints `ttlMs` and `cacheScope`), `tools/call`, and the
 *   tasks extension's `tasks/get`, `tasks/update`, `tasks/cancel`; every complete result
 *   carries `resultType: "complete"` and the server's implementation under `_meta`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18
 * @see https://modelcontextprotocol.io/specification/2025-11-25
 * @module
 */
import type { Context, Env } from "hono";
import { performAct, RequestActContext } from "../address/perform.ts";
import type { RejectionCode } from "../address/rejection.ts";
import { validateAct } from "../address/verification.ts";
import { INVALID_PARAMS, type RequestId } from "./jsonrpc.ts";
import {
  isInitializeParams,
  isRequestParams,
  isResourcesListParams,
  isResourcesReadParams,
  isToolsCallParams,
  isToolsListParams,
} from "./messages.ts";
import type { McpOptions } from "./options.ts";
import {
  callAsTask,
  cancelTask,
  getTask,
  TASKS_EXTENSION,
  type TaskMode,
  taskResult,
  taskWait,
  updateTask,
} from "./tasks.ts";
import { type Answer, errorContent, type Members, performedMembers } from "./tool-result.ts";
import type { Tools } from "./tools.ts";

export type { Answer } from "./tool-result.ts";

/** The revisions before 2026-07-28, newest first: they begin with `initialize`. */
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18"] as const;
/** The revisions from 2026-07-28 on: no handshake, a `_meta` envelope on every request. */
export const MODERN_VERSIONS = ["2026-07-28"] as const;
/** Every revision this door speaks, newest first (`server/discover`'s `supportedVersions`). */
export const SUPPORTED_VERSIONS = [...MODERN_VERSIONS, ...LEGACY_VERSIONS] as const;

export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];
export type ModernVersion = (typeof MODERN_VERSIONS)[number];
export type ProtocolVersion = LegacyVersion | ModernVersion;

/** The `_meta` key of the server's implementation on a 2026-07-28 result. */
const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";

/** What a method needs of its endpoint; built once by `mcp()`. */
export interface Endpoint<E extends Env = Env> {
  readonly tools: Tools<E>;
  /** JSON text of the server's implementation, `{name, version, title?}`. */
  readonly serverInfo: string;
  /** JSON text of the `instructions` member with a leading comma, or `""`. */
  readonly instructions: string;
  /** `ttlMs` of a 2026-07-28 `tools/list` or `server/discover` result, in milliseconds. */
  readonly ttlMs: number;
  /** Development mode: an invalid act's tool result names the code and the failing keyword. */
  readonly development: boolean;
  /** Reports a rejected act (as `onReject` of `address()`); never throws. */
  readonly reject: (request: Request, code: RejectionCode, reason: string) => void;
}

/** One request as a method sees it, after the message was read, parsed and validated. */
export interface Call<E extends Env = Env> {
  readonly id: RequestId;
  /** The request's `params`, an object when present (the message validator checked that). */
  readonly params: Readonly<Record<string, unknown>> | undefined;
  readonly c: Context<E>;
}

/** A method of a revision. */
export type Method<E extends Env = Env> = (call: Call<E>, endpoint: Endpoint<E>) => Answer | Promise<Answer>;

/** The method table of 2025-06-18 (basic/lifecycle, basic/utilities/ping, server/tools). */
interface Methods20250618<E extends Env> {
  readonly initialize: Method<E>;
  readonly ping: Method<E>;
  readonly "tools/list": Method<E>;
  readonly "tools/call": Method<E>;
  readonly "resources/list": Method<E>;
  readonly "resources/read": Method<E>;
}
/** The method table of 2025-11-25: the same methods, and the experimental tasks (basic/utilities/tasks). */
interface Methods20251125<E extends Env> extends Methods20250618<E> {
  readonly "tasks/get": Method<E>;
  readonly "tasks/result": Method<E>;
  readonly "tasks/cancel": Method<E>;
}
/** The method table of 2026-07-28: `server/discover` instead of `initialize` and `ping`. */
interface Methods20260728<E extends Env> {
  readonly "server/discover": Method<E>;
  readonly "tools/list": Method<E>;
  readonly "tools/call": Method<E>;
  readonly "resources/list": Method<E>;
  readonly "resources/read": Method<E>;
  /** The tasks extension `io.modelcontextprotocol/tasks` (SEP-2663). */
  readonly "tasks/get": Method<E>;
  readonly "tasks/update": Method<E>;
  readonly "tasks/cancel": Method<E>;
}

/** A revision: its version, its era, and its methods by name (a `Map`: no prototype lookups). */
export interface Revision<E extends Env = Env> {
  readonly version: ProtocolVersion;
  readonly modern: boolean;
  readonly methods: ReadonlyMap<string, Method<E>>;
}

/**
 * The endpoint its methods see, built once by `mcp()`.
 *
 * @param options - `name`, `version`, `title` (`serverInfo`), `instructions` and `development`.
 * @param ttlMs - the resolved `ttlMs` (`messageLimits`).
 * @param reject - the endpoint's reporter's `reject`.
 */
export function endpointOf<E extends Env>(
  tools: Tools<E>,
  options: Pick<McpOptions<E>, "name" | "version" | "title" | "instructions" | "development">,
  ttlMs: number,
  reject: Endpoint<E>["reject"],
): Endpoint<E> {
  const serverInfo = JSON.stringify({
    name: options.name ?? "gpt-address",
    version: options.version ?? "0.1.0",
    ...(options.title === undefined ? {} : { title: options.title }),
  });
  const instructions =
    options.instructions === undefined ? "" : `,"instructions":${JSON.stringify(options.instructions)}`;
  return { tools, serverInfo, instructions, ttlMs, development: options.development === true, reject };
}

const invalidParams = (message: string): Answer => ({ error: { code: INVALID_PARAMS, message } });

/**
 * The capabilities of this server: tools, whose list never changes while it runs; when a tool
 * has an MCP Apps page, resources (the pages, which never change either) and the MCP Apps
 * extension (`io.modelcontextprotocol/ui`, with the MIME type of its pages); when a tool has
 * runs, the tasks of `mode`'s revision (2025-11-25: `tasks` with `cancel` and task-augmented
 * `tools/call`; 2026-07-28: the extension `io.modelcontextprotocol/tasks`).
 */
function capabilities<E extends Env>(endpoint: Endpoint<E>, mode: TaskMode | null): string {
  const tasks = mode !== null && endpoint.tools.withRuns.length > 0;
  const pages = endpoint.tools.resourcesByUri.size > 0;
  let text = `"tools":{"listChanged":false}`;
  if (pages) text += `,"resources":{"listChanged":false}`;
  if (tasks && mode === "experimental") text += `,"tasks":{"cancel":{},"requests":{"tools":{"call":{}}}}`;
  const extensions: string[] = [];
  if (pages) extensions.push(`"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}`);
  if (tasks && mode === "extension") extensions.push(`${JSON.stringify(TASKS_EXTENSION)}:{}`);
  if (extensions.length > 0) text += `,"extensions":{${extensions.join(",")}}`;
  return `{${text}}`;
}

/**
 * JSON-RPC error of a `resources/read` of an unknown URI before 2026-07-28 (server/resources,
 * Error Handling); 2026-07-28 answers it -32602 and forbids -32002 ("Error Codes").
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes
 */
const RESOURCE_NOT_FOUND = -32002;

/** `initialize` (2025-06-18, 2025-11-25): the requested version when spoken, else the newest legacy one. */
function initialize<E extends Env>(call: Call<E>, endpoint: Endpoint<E>): Answer {
  if (!isInitializeParams(call.params)) return invalidParams("Invalid initialize params");
  const requested = call.params.protocolVersion;
  const version = (LEGACY_VERSIONS as readonly string[]).includes(requested) ? requested : LEGACY_VERSIONS[0];
  return {
    result: `{"protocolVersion":${JSON.stringify(version)},"capabilities":${capabilities(endpoint, version === "2025-11-25" ? "experimental" : null)},"serverInfo":${endpoint.serverInfo}${endpoint.instructions}}`,
  };
}

function ping<E extends Env>(call: Call<E>): Answer {
  if (call.params !== undefined && !isRequestParams(call.params)) return invalidParams("Invalid ping params");
  return { result: "{}" };
}

/**
 * The tools array, whole: no cursor is ever issued, so any cursor is invalid. `tasks`: with the
 * tools' `execution.taskSupport` (2025-11-25).
 */
function listTools<E extends Env>(tasks: boolean) {
  return (call: Call<E>, endpoint: Endpoint<E>): Answer | string => {
    if (call.params !== undefined) {
      if (!isToolsListParams(call.params)) return invalidParams("Invalid tools/list params");
      if (call.params.cursor !== undefined) return invalidParams("Invalid cursor");
    }
    return `"tools":${tasks ? endpoint.tools.listTextTasks : endpoint.tools.listText}`;
  };
}

/** `resources/list`: the tools' MCP Apps pages, whole (no cursor is ever issued). */
function listResources<E extends Env>(call: Call<E>, endpoint: Endpoint<E>): Answer | string {
  if (call.params !== undefined) {
    if (!isResourcesListParams(call.params)) return invalidParams("Invalid resources/list params");
    if (call.params.cursor !== undefined) return invalidParams("Invalid cursor");
  }
  return `"resources":${endpoint.tools.resourcesText}`;
}

/**
 * `resources/read`: the exact HTML of a tool's MCP Apps page, built with its form.
 *
 * @param notFound - the error code of an unknown URI in the revision.
 */
function readResource<E extends Env>(notFound: number) {
  return (call: Call<E>, endpoint: Endpoint<E>): Answer | string => {
    if (!isResourcesReadParams(call.params)) return invalidParams("Invalid resources/read params");
    const resource = endpoint.tools.resourcesByUri.get(call.params.uri);
    if (resource === undefined) {
      return { error: { code: notFound, message: "Resource not found", data: { uri: call.params.uri } } };
    }
    return `"contents":${resource.contentsText}`;
  };
}

/**
 * `tools/call`: the arguments through the tool's generated validator, then its act.
 *
 * Absent `arguments` are the empty object (a tool called with no arguments). Invalid
 * arguments are a tool result with `isError: true` and a generic text (the code and the
 * failing keyword only in development mode); the act is not called. A throwing act is a tool
 * result with `isError: true` too (logged with `console.error`), as MCP reports tool
 * execution errors. Success: the act's consequence as text content, and as
 * `structuredContent` when it is a JSON object.
 *
 * @returns the members of the result object (without braces), or an error answer.
 */
function callTool<E extends Env>(mode: TaskMode | null) {
  return async (call: Call<E>, endpoint: Endpoint<E>): Promise<Members> => {
    if (!isToolsCallParams(call.params)) return invalidParams("Invalid tools/call params");
    const tool = endpoint.tools.byName.get(call.params.name);
    if (tool === undefined) return invalidParams(`Unknown tool: ${call.params.name}`);
    const request = call.c.req.raw;
    const outcome = validateAct(call.params.arguments ?? {}, tool.address.form);
    if (!outcome.ok) {
      endpoint.reject(request, outcome.code, outcome.reason);
      const text = endpoint.development
        ? `The arguments were rejected: ${outcome.code} at ${outcome.pointer ?? ""} of the input schema.`
        : "The arguments do not match the tool's input schema; nothing was done.";
      return { members: errorContent(text), code: outcome.code };
    }
    // perform: as a task when the tool has runs and the client can follow one (tasks.ts).
    const waitMs = taskWait(mode, tool, call.params);
    if (waitMs !== undefined) return callAsTask(mode!, tool, outcome.value, call, waitMs);
    const context = new RequestActContext(request.headers.get("gpt-actor"), call.c);
    return performedMembers(await performAct(tool.address.act, outcome.value, context, "tool", tool.name));
  };
}

/** Legacy results are the members in braces. */
function legacy<E extends Env>(
  members: (call: Call<E>, endpoint: Endpoint<E>) => Members | Promise<Members>,
): Method<E> {
  return async (call, endpoint) => {
    const answer = await members(call, endpoint);
    if (typeof answer === "string") return { result: `{${answer}}` };
    return "members" in answer ? { result: `{${answer.members}}`, code: answer.code } : answer;
  };
}

/** 2026-07-28 results also carry `resultType` and the server's implementation in `_meta`. */
function modern<E extends Env>(
  members: (call: Call<E>, endpoint: Endpoint<E>) => Members | Promise<Members>,
  cacheable: boolean,
): Method<E> {
  return async (call, endpoint) => {
    const answer = await members(call, endpoint);
    if (typeof answer !== "string" && !("members" in answer)) return answer;
    const cache = cacheable ? `,"ttlMs":${endpoint.ttlMs},"cacheScope":"public"` : "";
    const text = typeof answer === "string" ? answer : answer.members;
    const head = text === "" ? "" : `${text}${cache},`;
    const result = `{${head}"resultType":"complete","_meta":{${JSON.stringify(SERVER_INFO_META_KEY)}:${endpoint.serverInfo}}}`;
    return typeof answer === "string" ? { result } : { result, code: answer.code };
  };
}

/** `server/discover` (2026-07-28): the versions, capabilities and instructions of this server. */
function discover<E extends Env>(call: Call<E>, endpoint: Endpoint<E>): Answer | string {
  if (call.params !== undefined && !isRequestParams(call.params))
    return invalidParams("Invalid server/discover params");
  return `"supportedVersions":${JSON.stringify(SUPPORTED_VERSIONS)},"capabilities":${capabilities(endpoint, "extension")}${endpoint.instructions}`;
}

function table<E extends Env>(methods: object): ReadonlyMap<string, Method<E>> {
  return new Map(Object.entries(methods) as [string, Method<E>][]);
}

/**
 * The method table of every revision, by version.
 *
 * @returns a map from each of {@link SUPPORTED_VERSIONS} to its {@link Revision}.
 */
export function revisions<E extends Env>(): ReadonlyMap<ProtocolVersion, Revision<E>> {
  const v20250618: Methods20250618<E> = {
    initialize: legacy(initialize),
    ping: legacy(ping),
    "tools/list": legacy(listTools(false)),
    "tools/call": legacy(callTool(null)),
    "resources/list": legacy(listResources),
    "resources/read": legacy(readResource(RESOURCE_NOT_FOUND)),
  };
  const v20251125: Methods20251125<E> = {
    ...v20250618,
    "tools/list": legacy(listTools(true)),
    "tools/call": legacy(callTool("experimental")),
    "tasks/get": legacy(getTask("experimental")),
    "tasks/result": legacy(taskResult()),
    "tasks/cancel": legacy(cancelTask("experimental")),
  };
  const v20260728: Methods20260728<E> = {
    "server/discover": modern(discover, true),
    "tools/list": modern(listTools(false), true),
    "tools/call": modern(callTool("extension"), false),
    "resources/list": modern(listResources, true),
    "resources/read": modern(readResource(INVALID_PARAMS), true),
    "tasks/get": modern(getTask("extension"), false),
    "tasks/update": modern(updateTask(), false),
    "tasks/cancel": modern(cancelTask("extension"), false),
  };
  return new Map<ProtocolVersion, Revision<E>>([
    ["2025-06-18", { version: "2025-06-18", modern: false, methods: table(v20250618) }],
    ["2025-11-25", { version: "2025-11-25", modern: false, methods: table(v20251125) }],
    ["2026-07-28", { version: "2026-07-28", modern: true, methods: table(v20260728) }],
  ]);
}
