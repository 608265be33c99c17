/**
 * A tool result (2025-11-25, server/tools, Tool Result), as the members of its JSON object: an
 * act's consequence as text content and as `structuredContent`, or a tool error (`isError:
 * true`) that says in words why nothing (more) was done. Shared by `tools/call` and the tasks
 * that carry a tool call's result (`tasks.ts`).
 *
 * @module
 */
import type { ActDeclined } from "../address/act.ts";
import type { ActLogCode } from "../address/act-log.ts";
import type { Unperformed } from "../address/perform.ts";
import type { RpcError } from "./jsonrpc.ts";

/**
 * A method's answer: the JSON text of its result object, or a JSON-RPC error. A tool call's
 * result that was not acted on carries the code its log entry gives (`schema`, `declined`,
 * `fault`, `run-quota`); absent, the act was performed (or became a task).
 */
export type Answer = { readonly result: string; readonly code?: ActLogCode } | { readonly error: RpcError };

/** The members of a result object (without braces) that was not acted on, and why. */
export interface Unacted {
  readonly members: string;
  readonly code: ActLogCode;
}

/** What a method's body returns: members of its result, members not acted on, or an answer. */
export type Members = string | Unacted | Answer;

/** What a tool error says of an act whose handler threw. */
export const FAILED_TEXT = "The act failed on the server; try again later.";

/** The tool result of a verified act after the perform stage: its consequence, or why not. */
export function performedMembers(performed: string | Unperformed): string | Unacted {
  if (typeof performed === "string") return toolResult(performed);
  const text = performed.code === "declined" ? declinedText(performed.declined) : FAILED_TEXT;
  return { members: errorContent(text), code: performed.code };
}

/** The members of a tool result carrying an act's consequence (JSON text): as text, and as `structuredContent` when an object. */
export function toolResult(json: string): string {
  const structured = json.startsWith("{") ? `,"structuredContent":${json}` : "";
  return `"content":[{"type":"text","text":${JSON.stringify(json)}}]${structured},"isError":false`;
}

/** What a tool result says of an act its handler declined (the HTTP door's status, in words). */
export function declinedText(error: ActDeclined): string {
  switch (error.status) {
    case 503:
      return `The server cannot do this now; nothing was done. Try again${error.retryAfterSeconds === undefined ? " later" : ` in ${error.retryAfterSeconds} s`}.`;
    case 413:
      return "The arguments are valid, but what they make is larger than the server keeps; nothing was done.";
    case 400:
      return "The request was malformed; nothing was done.";
  }
}

export function errorContent(text: string): string {
  return `"content":[{"type":"text","text":${JSON.stringify(text)}}],"isError":true`;
}
