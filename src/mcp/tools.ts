/**
 * One MCP tool per address: the tool list precomputed once from the forms (as the arrival is),
 * each `inputSchema` the very bytes of the form's `s`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools
 * @module
 */
import type { Env } from "hono";
import type { CompiledForm } from "../address/form.ts";
import type { ActContext, RunsOptions } from "../address/options.ts";
import { type ResolvedRuns, resolveRuns } from "../address/perform.ts";
import { verificationLimits } from "../address/verification.ts";
import { parseJson } from "../json/parse.ts";
import { stringifyJson } from "../json/stringify.ts";

/**
 * One address served as an MCP tool: the same form and act as its HTTP door, so that the
 * options object given to `address()` can be given here unchanged.
 */
export interface McpAddress<Act, E extends Env = Env> {
  /** The compiled form: its `s` is the tool's `inputSchema`, its validator checks `arguments`. */
  readonly form: CompiledForm<Act>;
  /**
   * Performs a valid act, exactly as for `address()`: called only with arguments that passed
   * the form's generated validator; its return value is the act's consequence (R1), sent as
   * the tool result's `structuredContent` (when a JSON object) and as its text content.
   */
  readonly act: (value: Act, context: ActContext<E>) => unknown;
  /**
   * The tool's name. Default: the form's name. MCP tool names are 1 to 128 characters of
   * `A-Z a-z 0-9 _ - .` (2025-11-25, server/tools, Tool Names).
   */
  readonly toolName?: string;
  /**
   * A JSON Schema of the act's consequence, declared as the tool's `outputSchema`; clients
   * check `structuredContent` against it. Declare one only for an act whose result is
   * always a JSON object valid against it.
   */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /**
   * Runs (docs/runs.md), as `runs` of `address()` (the same object may be given to both): a
   * call from a client that can follow a task (the tasks extension of 2026-07-28 declared in its
   * request's capabilities, or a 2025-11-25 `task` param) whose act has not finished within
   * `maxWaitMs` (2025-11-25: at once, as that revision asks) is answered with a task, polled
   * with `tasks/get` and cancelled with `tasks/cancel`. A client without tasks waits as before.
   */
  readonly runs?: RunsOptions<E>;
}

/**
 * An address of any act type, as a list of tools holds them: the form's validator decides
 * what reaches each act, so the list need not know the act types.
 */
// biome-ignore lint/suspicious/noExplicitAny: McpAddress is invariant in Act (a validator's type predicate and an act's parameter); each entry was typed where it was written.
export type AnyMcpAddress<E extends Env = Env> = McpAddress<any, E>;

/** A tool as the door serves it. */
export interface Tool<E extends Env = Env> {
  readonly name: string;
  readonly address: AnyMcpAddress<E>;
  /** The depth bound of its arguments, from its form (as for the HTTP door). */
  readonly maxDepth: number;
  /** The largest arguments its form admits, in bytes (the HTTP door's `maxBytes` default). */
  readonly maxBytes: number;
  /** Its runs, resolved, when it has any. */
  readonly runs: ResolvedRuns<E> | undefined;
}

/** The MIME type of an MCP Apps page (`RESOURCE_MIME_TYPE` of `@modelcontextprotocol/ext-apps`). */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** A tool's MCP Apps page, served by `resources/read`. */
export interface AppResource {
  readonly uri: string;
  /** The JSON text of the `contents` array of its `resources/read` result. */
  readonly contentsText: string;
}

/** The tools of one endpoint, precomputed. */
export interface Tools<E extends Env = Env> {
  /** The JSON text of the `resources` array of a `resources/list` result: the tools' pages. */
  readonly resourcesText: string;
  /** The pages by `ui://<name>/form` URI; a `Map`, so that no URI reaches `Object.prototype`. */
  readonly resourcesByUri: ReadonlyMap<string, AppResource>;
  /** By name; a `Map`, so that no name reaches `Object.prototype`. */
  readonly byName: ReadonlyMap<string, Tool<E>>;
  /** The JSON text of the `tools` array of a `tools/list` result, in the order given. */
  readonly listText: string;
  /**
   * The same for 2025-11-25, whose tools with runs say `execution.taskSupport: "optional"`
   * (2025-11-25, server/tools, Tool; basic/utilities/tasks). The same text when none has runs.
   */
  readonly listTextTasks: string;
  /** The tools with runs (the stores a task may be in: `tasks/get` looks in each). */
  readonly withRuns: readonly Tool<E>[];
  /** The deepest nesting any tool's arguments may have, counting from the arguments object. */
  readonly maxDepth: number;
  /** The most members of any object of any tool's arguments (`Infinity` when a form bounds none). */
  readonly maxMembers: number;
  /** The most items of any array of any tool's arguments (`Infinity` when a form bounds none). */
  readonly maxItems: number;
  /** The largest arguments of any tool, in bytes: the greatest of the forms' `maxBytes` defaults. */
  readonly maxBytes: number;
}

/**
 * The form a message acts on: the called tool's, for a `tools/call` naming a tool of `tools`
 * (its act limit and pin are admitted before the call); `undefined` for any other message.
 */
export function calledForm<E extends Env>(
  tools: Tools<E>,
  method: string,
  params: Readonly<Record<string, unknown>> | undefined,
): CompiledForm | undefined {
  if (method !== "tools/call" || typeof params?.name !== "string") return undefined;
  return tools.byName.get(params.name)?.address.form;
}

/** MCP's tool-name rule (2025-11-25, server/tools, Tool Names). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Precomputes the tools of an endpoint from its addresses, in the order given.
 *
 * Each tool is `{name, title, description, inputSchema}` with `title` the form's `s.title`
 * (when a string), `description` its `s.description` (when a string, else `p`: `p` speaks to
 * the HTTP actor, who POSTs; docs/mcp.md, "Words"), and `inputSchema` the text of `s` cut from the
 * arrival document, so that the bytes are those GET serves. A tool named as its form, whose
 * form was built with its MCP Apps page (`appPage`), declares that page as its UI
 * (`_meta.ui.resourceUri` = `ui://<name>/form`, MCP Apps extension) and lists it as a
 * resource of type `text/html;profile=mcp-app` (the page calls the tool by the form's name,
 * so a tool renamed by `toolName` declares no UI).
 *
 * @throws {TypeError} when a name breaks MCP's rule or is given twice, or when a form's `s`
 *   is not an object schema (`"type": "object"`, required of an MCP `inputSchema`);
 *   {RangeError} when a tool's `runs` has a bad `maxWaitMs` or `pollIntervalMs`.
 */
export function prepareTools<E extends Env>(addresses: readonly AnyMcpAddress<E>[]): Tools<E> {
  const byName = new Map<string, Tool<E>>();
  const entries: string[] = [];
  const entriesTasks: string[] = [];
  const withRuns: Tool<E>[] = [];
  const resources: string[] = [];
  const resourcesByUri = new Map<string, AppResource>();
  let maxDepth = 1;
  let maxMembers = 0;
  let maxItems = 0;
  let maxBytes = 0;
  for (const address of addresses) {
    const { form } = address;
    const name = address.toolName ?? form.name;
    if (!TOOL_NAME.test(name)) throw new TypeError(`mcp(): the tool name ${JSON.stringify(name)} breaks ${TOOL_NAME}`);
    if (byName.has(name)) throw new TypeError(`mcp(): two tools are named ${JSON.stringify(name)}`);
    // The arrival text is the form file's: an int64 bound in it is read exactly (bigint).
    const arrival = parseJson(new TextEncoder().encode(form.arrival), { maxDepth: 256, bigIntegers: true }) as {
      p: string;
      s: Record<string, unknown>;
    };
    const s = arrival.s;
    if (s === null || typeof s !== "object" || s.type !== "object") {
      throw new TypeError(`mcp(): the form "${form.name}" is not an object schema ("type": "object"), as MCP requires`);
    }
    // The arrival text is stringifyJson of the parsed form file, so s's text is a slice of it.
    const inputSchema = stringifyJson(s);
    if (!form.arrival.includes(`"s":${inputSchema}`)) {
      throw new TypeError(`mcp(): the arrival of "${form.name}" is not in its canonical form`);
    }
    const limits = verificationLimits(form, {}, "mcp()");
    maxDepth = Math.max(maxDepth, limits.maxDepth);
    maxMembers = Math.max(maxMembers, limits.maxMembers);
    maxItems = Math.max(maxItems, limits.maxItems);
    maxBytes = Math.max(maxBytes, limits.maxBytes);
    const title = typeof s.title === "string" ? `"title":${JSON.stringify(s.title)},` : "";
    const description = typeof s.description === "string" ? s.description : arrival.p;
    const output = address.outputSchema === undefined ? "" : `,"outputSchema":${JSON.stringify(address.outputSchema)}`;
    let ui = "";
    if (form.appPage !== undefined && name === form.name) {
      const uri = `ui://${name}/form`;
      ui = `,"_meta":{"ui":{"resourceUri":${JSON.stringify(uri)}}}`;
      const about = `"mimeType":${JSON.stringify(APP_MIME_TYPE)}`;
      resources.push(
        `{"uri":${JSON.stringify(uri)},"name":${JSON.stringify(`${name} form`)},${title}"description":${JSON.stringify(`The form of the address ${name}, for a person to fill in.`)},${about}}`,
      );
      resourcesByUri.set(uri, {
        uri,
        contentsText: `[{"uri":${JSON.stringify(uri)},${about},"text":${JSON.stringify(form.appPage)}}]`,
      });
    }
    const entry = `{"name":${JSON.stringify(name)},${title}"description":${JSON.stringify(description)},"inputSchema":${inputSchema}${output}${ui}`;
    entries.push(`${entry}}`);
    entriesTasks.push(address.runs === undefined ? `${entry}}` : `${entry},"execution":{"taskSupport":"optional"}}`);
    const runs = address.runs && resolveRuns(address.runs, "mcp()");
    const tool = { name, address, maxDepth: limits.maxDepth, maxBytes: limits.maxBytes, runs };
    byName.set(name, tool);
    if (tool.runs !== undefined) withRuns.push(tool);
  }
  return {
    byName,
    listText: `[${entries.join(",")}]`,
    listTextTasks: `[${entriesTasks.join(",")}]`,
    withRuns,
    resourcesText: `[${resources.join(",")}]`,
    resourcesByUri,
    maxDepth,
    maxMembers,
    maxItems,
    maxBytes,
  };
}
