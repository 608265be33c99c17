/**
 * Tasks on the MCP door: a run (docs/runs.md) rendered as an MCP task. A `tools/call` whose act
 * goes long becomes a task through the shared perform stage (`performRun`, the one place a run
 * is created, after the arguments passed the form); the task's methods read and cancel the run.
 * Two revisions, two shapes of the same run:
 *
 * - **2025-11-25, experimental tasks** (basic/utilities/tasks): a client asks with the `task`
 *   param of `tools/call`, and gets a `CreateTaskResult` (`{task}`) at once; `tasks/get` (the
 *   task: `ttl`, `pollInterval`), `tasks/result` (the tool result, waited for, with the
 *   `io.modelcontextprotocol/related-task` meta), `tasks/cancel` (the task; -32602 when terminal).
 *   A tool result with `isError: true` is a `failed` task there.
 * - **2026-07-28, the extension `io.modelcontextprotocol/tasks`** (SEP-2663): a client that
 *   names it in its request's capabilities may get `resultType: "task"` (`ttlMs`,
 *   `pollIntervalMs`) when the act has not finished within `maxWaitMs`; `tasks/get` carries the
 *   tool result once `completed` (a failed act is a `completed` task with an `isError` result:
 *   `failed` is for JSON-RPC errors only); `tasks/cancel` and `tasks/update` acknowledge; a
 *   client that did not name the extension gets -32021 from them.
 *
 * A task id is its run's (128 random bits): whoever holds it can read and cancel the task, and
 * an unknown or expired one is -32602 whatever the reason.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 * @see https://modelcontextprotocol.io/seps/2663-tasks-extension
 * @module
 */
import type { Env } from "hono";
import { performRun, waitUntilOf } from "../address/perform.ts";
import { cancelRun, readRun } from "../run/engine.ts";
import { isTerminal, type Run, type RunStore } from "../run/run.ts";
import { INVALID_PARAMS, MISSING_REQUIRED_CLIENT_CAPABILITY } from "./jsonrpc.ts";
import { isTaskParams } from "./messages.ts";
import type { Call, Endpoint } from "./revisions.ts";
import { type Answer, errorContent, FAILED_TEXT, type Members, performedMembers, toolResult } from "./tool-result.ts";
import type { Tool } from "./tools.ts";

/** Which tasks a revision has: 2025-11-25's experimental ones, or 2026-07-28's extension. */
export type TaskMode = "experimental" | "extension";

/** The extension's identifier (SEP-2663, "Extension Identifier"). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";
const RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task";
const CANCELLED_TEXT = "The act was cancelled; it may have been done in part.";

const notFound: Answer = { error: { code: INVALID_PARAMS, message: "Failed to retrieve task: Task not found" } };
const missingCapability: Answer = {
  error: {
    code: MISSING_REQUIRED_CLIENT_CAPABILITY,
    message: "Missing required client capability",
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  },
};

/** Whether a 2026-07-28 request's `_meta` capabilities name the tasks extension. */
export function declaresTasks(params: Readonly<Record<string, unknown>> | undefined): boolean {
  const capabilities = member(params?._meta, CLIENT_CAPABILITIES_META_KEY);
  const extensions = member(capabilities, "extensions");
  const tasks = member(extensions, TASKS_EXTENSION);
  return tasks !== null && typeof tasks === "object";
}

function member(value: unknown, name: string): unknown {
  return value !== null && typeof value === "object" && Object.hasOwn(value, name)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/**
 * How long a `tools/call` may wait before it becomes a task, in ms, or `undefined` when it may
 * not (the tool has no runs, or the client cannot follow a task): 2025-11-25 with the `task`
 * param: 0 (a `CreateTaskResult` at once); 2026-07-28 with the extension: the tool's `maxWaitMs`.
 */
export function taskWait<E extends Env>(
  mode: TaskMode | null,
  tool: Tool<E>,
  params: Readonly<Record<string, unknown>>,
): number | undefined {
  if (mode === null || tool.runs === undefined) return undefined;
  if (mode === "extension") return declaresTasks(params) ? tool.runs.maxWaitMs : undefined;
  const task = params.task;
  return task !== null && typeof task === "object" ? 0 : undefined;
}

/**
 * Performs a verified tool call as a run (`performRun`) and answers it: as a task when it has
 * not finished (and always on 2025-11-25, which asked for one), else as the tool result the call
 * would have had; a full store is a tool error saying when to try again.
 */
export async function callAsTask<E extends Env>(
  mode: TaskMode,
  tool: Tool<E>,
  value: unknown,
  call: Call<E>,
  waitMs: number,
): Promise<Members> {
  const runs = tool.runs!;
  const request = call.c.req.raw;
  const plan = {
    runs: runs.storeOf(call.c),
    waitMs,
    pollIntervalMs: runs.pollIntervalMs,
    maxResultBytes: runs.maxResultBytes,
    // 2025-11-25 answers every run as a task (its id is the client's); 2026-07-28 a finished one as its result.
    forgetsAnswered: mode === "extension",
    signal: request.signal,
    waitUntil: waitUntilOf(call.c),
  };
  const ran = await performRun(
    tool.address.act,
    value,
    request.headers.get("gpt-actor"),
    call.c,
    plan,
    "tool",
    tool.name,
  );
  switch (ran.kind) {
    case "finished":
      return mode === "experimental" ? `"task":${taskText(mode, ran.run)}` : performedMembers(ran.outcome);
    case "running":
      // A task is a result of its own kind (resultType "task"), not the members of a complete one.
      return mode === "experimental"
        ? `"task":${taskText(mode, ran.run)}`
        : { result: `{"resultType":"task",${taskText(mode, ran.run).slice(1)}` };
    case "quota": {
      const text = `The server cannot do this now; nothing was done. Try again in ${ran.retryAfterSeconds} s.`;
      return { members: errorContent(text), code: "run-quota" };
    }
    case "reused":
      throw new Error("a tool call made no Idempotency-Key claim"); // cannot happen: a fault
  }
}

/** The JSON text of a run as a task of `mode`'s revision (without what its status carries). */
function taskText(mode: TaskMode, run: Run): string {
  const message = run.statusMessage === undefined ? {} : { statusMessage: run.statusMessage };
  const times = { createdAt: run.createdAt, lastUpdatedAt: run.lastUpdatedAt };
  if (mode === "experimental") {
    const { taskId, status, ttlMs: ttl, pollIntervalMs: pollInterval } = run;
    return JSON.stringify({ taskId, status, ...message, ...times, ttl, pollInterval });
  }
  // A failed act is a completed task with a tool error (SEP-2663: `failed` is for JSON-RPC errors).
  const status = run.status === "failed" ? "completed" : run.status;
  return JSON.stringify({
    taskId: run.taskId,
    status,
    ...message,
    ...times,
    ttlMs: run.ttlMs,
    pollIntervalMs: run.pollIntervalMs,
  });
}

/** The members of the tool result a terminal run carries. */
function resultMembers(run: Run): string {
  if (run.status === "completed") return toolResult(JSON.stringify(run.result ?? null));
  return errorContent(run.status === "cancelled" ? CANCELLED_TEXT : FAILED_TEXT);
}

/** The run `taskId` names, in the first store of the endpoint's tools that has it. */
async function findRun<E extends Env>(call: Call<E>, endpoint: Endpoint<E>, taskId: string) {
  const seen = new Set<RunStore>();
  for (const tool of endpoint.tools.withRuns) {
    const store = tool.runs!.storeOf(call.c);
    if (seen.has(store)) continue;
    seen.add(store);
    const run = await readRun(store, taskId);
    if (run !== null) return { store, run };
  }
  return null;
}

/** The task methods of `mode`'s revision, each checking its params and (2026-07-28) the client's capability. */
function method<E extends Env>(
  mode: TaskMode,
  body: (call: Call<E>, endpoint: Endpoint<E>, taskId: string) => Promise<Members>,
) {
  return (call: Call<E>, endpoint: Endpoint<E>): Promise<Members> | Members => {
    if (mode === "extension" && !declaresTasks(call.params)) return missingCapability;
    if (!isTaskParams(call.params)) return { error: { code: INVALID_PARAMS, message: "Invalid task params" } };
    return body(call, endpoint, call.params.taskId);
  };
}

/** `tasks/get`: the task; on 2026-07-28 with the tool result once it is done. */
export function getTask<E extends Env>(mode: TaskMode) {
  return method<E>(mode, async (call, endpoint, taskId) => {
    const found = await findRun(call, endpoint, taskId);
    if (found === null) return notFound;
    const task = taskText(mode, found.run).slice(1, -1);
    const done = mode === "extension" && isTerminal(found.run.status) && found.run.status !== "cancelled";
    return done ? `${task},"result":{${resultMembers(found.run)}}` : task;
  });
}

/**
 * `tasks/cancel`: on 2025-11-25 the task after the cancel (-32602 when it was terminal already);
 * on 2026-07-28 an empty acknowledgement. The act sees its signal aborted.
 */
export function cancelTask<E extends Env>(mode: TaskMode) {
  return method<E>(mode, async (call, endpoint, taskId) => {
    const found = await findRun(call, endpoint, taskId);
    if (found === null) return notFound;
    if (mode === "experimental" && isTerminal(found.run.status)) {
      return { error: { code: INVALID_PARAMS, message: `Cannot cancel task: already ${found.run.status}` } };
    }
    const cancelled = await cancelRun(found.store, taskId);
    if (cancelled === null) return notFound;
    return mode === "experimental" ? taskText(mode, cancelled).slice(1, -1) : "";
  });
}

/** `tasks/update` (2026-07-28): acknowledged; no task of this server ever waits for input. */
export function updateTask<E extends Env>() {
  return method<E>("extension", async (call, endpoint, taskId) =>
    (await findRun(call, endpoint, taskId)) === null ? notFound : "",
  );
}

/**
 * `tasks/result` (2025-11-25): the tool result, once the task is terminal (waited for, reading
 * the run every `pollIntervalMs`, at most 1 s, until then or until the request ends), with the
 * related-task meta.
 */
export function taskResult<E extends Env>() {
  return method<E>("experimental", async (call, endpoint, taskId) => {
    const signal = call.c.req.raw.signal;
    let found = await findRun(call, endpoint, taskId);
    while (found !== null && !isTerminal(found.run.status)) {
      if (signal.aborted) return { error: { code: INVALID_PARAMS, message: "The request ended before the task" } };
      await new Promise((resolve) => setTimeout(resolve, Math.min(found!.run.pollIntervalMs, 1_000)));
      const run = await readRun(found.store, taskId);
      found = run === null ? null : { store: found.store, run };
    }
    if (found === null) return notFound;
    const related = `"_meta":{${JSON.stringify(RELATED_TASK_META_KEY)}:{"taskId":${JSON.stringify(taskId)}}}`;
    return `${resultMembers(found.run)},${related}`;
  });
}
