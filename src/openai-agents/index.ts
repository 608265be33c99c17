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
import { type FunctionTool, tool } from "@openai/agents";
import { type AddressToolOptions, contactAddress, toolErrorMessage } from "../client/address-tool.ts";

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
  const address = await contactAddress(url, { actor: "openai", ...options });
  return tool({
    name: address.name,
    description: address.description,
    parameters: address.parameters as JsonParameters,
    strict: address.strict as false,
    execute: async (input: unknown, _context?: unknown, details?: { signal?: AbortSignal }) =>
      JSON.stringify(await address.act(input, details?.signal ? { signal: details.signal } : {})),
    errorFunction: (_context, error) => toolErrorMessage(error),
  });
}

/**
 * The addresses at `urls` as Agents SDK tools (a repeated name gets `_2`, `_3`…).
 *
 * @throws {ArrivalError} when an address publishes no usable form.
 */
export async function addressTools(
  urls: readonly string[],
  options: Omit<AddressToolOptions, "name"> = {},
  // biome-ignore lint/suspicious/noExplicitAny: as addressTool.
): Promise<FunctionTool<any, any, any>[]> {
  const names = new Set<string>();
  const tools = [];
  for (const url of urls) {
    const address = await contactAddress(url, { actor: "openai", ...options });
    let name = address.name;
    for (let n = 2; names.has(name); n++) name = `${address.name.slice(0, 60)}_${n}`;
    names.add(name);
    tools.push(await addressTool(url, { ...options, name }));
  }
  return tools;
}
