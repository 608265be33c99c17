/**
 * The JSON-RPC messages the MCP door reads, each checked by a validator generated at build
 * time from its JSON Schema in `src/mcp/messages/` (`scripts/build-mcp.ts`), by the same form
 * compiler as the forms themselves. No other check of a message's shape exists.
 *
 * @module
 */
import * as initializeParams from "./generated/initialize-params.ts";
import * as message from "./generated/message.ts";
import * as requestEnvelope from "./generated/request-envelope.ts";
import * as requestParams from "./generated/request-params.ts";
import * as resourcesListParams from "./generated/resources-list-params.ts";
import * as resourcesReadParams from "./generated/resources-read-params.ts";
import * as taskParams from "./generated/task-params.ts";
import * as toolsCallParams from "./generated/tools-call-params.ts";
import * as toolsListParams from "./generated/tools-list-params.ts";
import type {
  InitializeParams,
  Message,
  RequestEnvelope,
  RequestParams,
  ResourcesListParams,
  ResourcesReadParams,
  TaskParams,
  ToolsCallParams,
  ToolsListParams,
} from "./generated/types.ts";

export type {
  InitializeParams,
  Message,
  RequestEnvelope,
  RequestParams,
  ResourcesListParams,
  ResourcesReadParams,
  TaskParams,
  ToolsCallParams,
  ToolsListParams,
};

/**
 * A generated validator: true when `value` has the shape; never throws, never mutates. Each is
 * its module's `validateParsed`: the door checks only values `parseJson` made (a message and its
 * members), for which it is exact, and faster than `validate` (src/compile/README.md).
 */
export type Guard<T> = (value: unknown) => value is T;

/** A JSON-RPC message: request, notification, or response (`message.schema.json`). */
export const isMessage = message.validateParsed as Guard<Message>;
/** `params` of `initialize` (`initialize-params.schema.json`). */
export const isInitializeParams = initializeParams.validateParsed as Guard<InitializeParams>;
/** `params` of a request with nothing but `_meta` (`request-params.schema.json`). */
export const isRequestParams = requestParams.validateParsed as Guard<RequestParams>;
/** `params` of `tools/list` (`tools-list-params.schema.json`). */
export const isToolsListParams = toolsListParams.validateParsed as Guard<ToolsListParams>;
/** `params` of `tools/call` (`tools-call-params.schema.json`). */
export const isToolsCallParams = toolsCallParams.validateParsed as Guard<ToolsCallParams>;
/** `params` of `resources/list` (`resources-list-params.schema.json`). */
export const isResourcesListParams = resourcesListParams.validateParsed as Guard<ResourcesListParams>;
/** `params` of `resources/read` (`resources-read-params.schema.json`). */
export const isResourcesReadParams = resourcesReadParams.validateParsed as Guard<ResourcesReadParams>;
/** `params` of `tasks/get`, `tasks/result`, `tasks/cancel`, `tasks/update` (`task-params.schema.json`). */
export const isTaskParams = taskParams.validateParsed as Guard<TaskParams>;
/** The 2026-07-28 per-request `_meta` envelope (`request-envelope.schema.json`). */
export const isRequestEnvelope = requestEnvelope.validateParsed as Guard<RequestEnvelope>;

/** A JSON-RPC request: a message with a `method` and an `id`. */
export type Request = Extract<Message, { method: string }> & { id: string | number };
