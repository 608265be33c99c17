/**
 * gpt-address/ai: GPT addresses as AI SDK tools. Each address's form is fetched at contact and
 * becomes a `dynamicTool` whose input schema is the form (`jsonSchema`), projected and strict
 * where the named provider's profile allows it; a call is checked locally and acted on, and the
 * address's answer comes back as the tool's result, or as a tool error the model can act on
 * (nothing sent, 204 nothing done, 412 the new form, 429 when to try again).
 *
 * `ai` is an optional peer dependency.
 *
 * @see ../client/address-tool.ts (the core shared by every adapter)
 * @module
 */
import { dynamicTool, jsonSchema, type Tool } from "ai";
import { type AddressTool, type AddressToolOptions, contactAddress, contactAddresses } from "../client/address-tool.ts";

export {
  AddressToolError,
  type AddressToolOptions,
  type ArrivalCache,
} from "../client/address-tool.ts";

type JsonSchemaInput = Exclude<Parameters<typeof jsonSchema>[0], PromiseLike<unknown> | (() => unknown)>;

/**
 * The address at `url` as an AI SDK tool.
 *
 * @throws {ArrivalError} when the address publishes no usable form (or not an object form).
 * @example
 * ```ts
 * import { generateText, isStepCount } from "ai";
 * import { addressTool } from "gpt-address/ai";
 * const feedback = await addressTool("https://example.org/feedback", { actor: "openai" });
 * await generateText({ model, tools: { feedback }, stopWhen: isStepCount(3), prompt: "Rate the docs 5" });
 * ```
 */
export async function addressTool(url: string, options: AddressToolOptions = {}): Promise<Tool> {
  return aiTool(await contactAddress(url, options));
}

/** The AI SDK tool of a contacted address. */
function aiTool(address: AddressTool): Tool {
  return dynamicTool({
    // Read at each step: after a 412 the tool carries the form the address now publishes.
    description: () => address.description,
    inputSchema: jsonSchema(() => address.parameters as JsonSchemaInput),
    ...(address.strict ? { strict: true } : {}),
    execute: (input, { abortSignal }) => address.act(input, abortSignal ? { signal: abortSignal } : {}),
  });
}

/**
 * The addresses at `source` as a tool set, keyed by each tool's name (the form's title; a
 * repeated name gets `_2`, `_3`…): a list of URLs, or a site whose API catalog
 * (`/.well-known/api-catalog`, RFC 9727) lists them.
 *
 * @throws {ArrivalError} when a listed address publishes no usable form.
 * @example
 * ```ts
 * const tools = await addressTools(["https://example.org/page", "https://example.org/feedback"]);
 * const all = await addressTools("https://example.org"); // every address its catalog lists
 * ```
 */
export async function addressTools(
  source: string | readonly string[],
  options: Omit<AddressToolOptions, "name"> = {},
): Promise<Record<string, Tool>> {
  return Object.fromEntries(
    (await contactAddresses(source, options)).map((address) => [address.name, aiTool(address)]),
  );
}
