/**
 * gpt-address/openai-agents: a GPT address as an OpenAI Agents SDK function tool. The form is
 * fetched at contact and projected for OpenAI strict mode; the tool is `strict` when OpenAI's
 * published rules take the projection (the form decides), and sends the form as published,
 * not strict, otherwise. A call is checked locally and acted on; the address's answer, or a
 * tool error the model can act on, is the tool's output.
 *
 * `@openai/agents` is an optional peer dependency.
 *
 * @see ../client/address-tool.ts (the core shared by every adapter)
 * @module
 */
import { type FunctionTool, ModelBehaviorError, tool } from "@openai/agents";
import {
  type AddressTool,
  type AddressToolOptions,
  contactAddress,
  contactAddresses,
  toolErrorMessage,
} from "../client/address-tool.ts";

export { AddressToolError, type AddressToolOptions, type ArrivalCache } from "../client/address-tool.ts";

/** The SDK's type of a JSON Schema tool's parameters (an object schema). */
type JsonParameters = Extract<Parameters<typeof tool>[0], { strict: false }>["parameters"];

/**
 * The address at `url` as an Agents SDK tool (projected for `actor`, default `openai`).
 *
 * @throws {ArrivalError} when the address publishes no usable form (or not an object form).
 * @example
 * ```ts
 * import { Agent, run } from "@openai/agents";
 * import { addressTool } from "gpt-address/openai-agents";
 * const agent = new Agent({ name: "Reviewer", tools: [await addressTool("https://example.org/feedback")] });
 * await run(agent, "Rate the docs 5");
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's FunctionTool is generic over context and arguments.
export async function addressTool(url: string, options: AddressToolOptions = {}): Promise<FunctionTool<any, any, any>> {
  return agentsTool(await contactAddress(url, { actor: "openai", ...options }));
}

/** The Agents SDK tool of a contacted address. */
// biome-ignore lint/suspicious/noExplicitAny: as addressTool.
function agentsTool(address: AddressTool): FunctionTool<any, any, any> {
  return tool({
    name: address.name,
    description: address.description,
    parameters: address.parameters as JsonParameters,
    strict: address.strict as false,
    execute: async (input: unknown, _context?: unknown, details?: { signal?: AbortSignal }) =>
      JSON.stringify(await address.act(input, details?.signal ? { signal: details.signal } : {})),
    errorFunction: (_context, error) => agentsErrorMessage(error),
  });
}

/**
 * The tool output for a call that failed: the act's own message ({@link toolErrorMessage}), or,
 * for arguments the SDK could not parse as JSON (its `InvalidToolInputError`, a
 * `ModelBehaviorError` thrown before `execute`), that nothing was sent and what to send instead.
 */
function agentsErrorMessage(error: unknown): string {
  if (error instanceof ModelBehaviorError) {
    return "Not sent, nothing was done: the arguments are not JSON. Call the tool again with a JSON object the form accepts.";
  }
  return toolErrorMessage(error);
}

/**
 * The addresses at `source` as Agents SDK tools (a repeated name gets `_2`, `_3`…): a list of
 * URLs, or a site whose API catalog (`/.well-known/api-catalog`, RFC 9727) lists them.
 *
 * @throws {ArrivalError} when a listed address publishes no usable form.
 */
export async function addressTools(
  source: string | readonly string[],
  options: Omit<AddressToolOptions, "name"> = {},
  // biome-ignore lint/suspicious/noExplicitAny: as addressTool.
): Promise<FunctionTool<any, any, any>[]> {
  return (await contactAddresses(source, { actor: "openai", ...options })).map(agentsTool);
}
