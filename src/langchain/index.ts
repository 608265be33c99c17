/**
 * gpt-address/langchain: a GPT address as a LangChain tool whose input schema is the form (JSON
 * Schema), fetched at contact and projected for the named provider. A call is checked locally
 * (first, so that a bad call names the pointer and keyword) and acted on; the address's answer is
 * the tool's content, and any failure a `ToolMessage` with `status: "error"` the model can act on
 * (nothing sent, 204 nothing done, 412 the new form, 429 when to try again).
 *
 * `@langchain/core` is an optional peer dependency.
 *
 * @see ../client/address-tool.ts (the core shared by every adapter)
 * @module
 */
import { ToolMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { DynamicStructuredTool, ToolInputParsingException, type ToolSchemaBase } from "@langchain/core/tools";
import {
  type AddressTool,
  AddressToolError,
  type AddressToolOptions,
  contactAddress,
  contactAddresses,
  toolErrorMessage,
} from "../client/address-tool.ts";

export { AddressToolError, type AddressToolOptions, type ArrivalCache } from "../client/address-tool.ts";

/** A tool call as LangChain hands it over (`ToolCall`). */
interface ToolCallLike {
  readonly type?: "tool_call";
  readonly id?: string;
  readonly name: string;
  readonly args: unknown;
}
const isToolCall = (input: unknown): input is ToolCallLike =>
  typeof input === "object" && input !== null && (input as { type?: unknown }).type === "tool_call" && "args" in input;

type Schema = ToolSchemaBase;

/** A GPT address as a LangChain structured tool. */
export class GptAddressTool extends DynamicStructuredTool {
  static override lc_name(): string {
    return "GptAddressTool";
  }
  readonly address: AddressTool;

  constructor(address: AddressTool) {
    super({
      name: address.name,
      description: address.description,
      schema: address.parameters as Schema,
      func: async (input: unknown, _runManager?: unknown, config?: RunnableConfig) => {
        const id = (config as { toolCall?: { id?: string } } | undefined)?.toolCall?.id;
        try {
          return JSON.stringify(await address.act(input, config?.signal ? { signal: config.signal } : {}));
        } catch (error) {
          // After a 412 the tool carries the form the address now publishes (for the next bindTools).
          this.description = address.description;
          this.schema = address.parameters as Schema;
          // Invoked with bare arguments (no tool call to answer): the failure is thrown, as it is.
          if (id === undefined) {
            if (error instanceof AddressToolError) throw error;
            throw new Error(toolErrorMessage(error), { cause: error });
          }
          return this.errorMessage(id, toolErrorMessage(error));
        }
      },
    });
    this.address = address;
  }

  private errorMessage(id: string, content: string): ToolMessage {
    return new ToolMessage({ status: "error", content, tool_call_id: id, name: this.name });
  }

  /**
   * Arguments the form rejects are checked here first, before LangChain's own validator (whose
   * `ToolInputParsingException` names neither the pointer nor the keyword): a tool call gets a
   * `ToolMessage` with `status: "error"`, and bare arguments (no tool call to answer) throw an
   * {@link AddressToolError} `invalid` with the same message. Nothing is sent either way.
   *
   * @throws {AddressToolError} for bare arguments the form rejects, or an act that failed.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the base class's invoke is generic over its input and output.
  override async invoke(input: any, config?: any): Promise<any> {
    const call = isToolCall(input) ? input : undefined;
    const failure = this.address.check(call === undefined ? input : call.args);
    if (failure !== null) {
      const message = `Not sent, nothing was done: ${failure.message}. Call the tool again with a value the form accepts.`;
      if (call?.id !== undefined) return this.errorMessage(call.id, message);
      throw new AddressToolError("invalid", message, { failure });
    }
    try {
      return await super.invoke(input, config);
    } catch (error) {
      // LangChain's own check of the arguments (its JSON Schema validator) refused them.
      if (!(error instanceof ToolInputParsingException) || !isToolCall(input) || input.id === undefined) throw error;
      return this.errorMessage(input.id, `Not sent, nothing was done: ${error.message}.`);
    }
  }
}

/**
 * The address at `url` as a LangChain tool.
 *
 * @throws {ArrivalError} when the address publishes no usable form (or not an object form).
 * @example
 * ```ts
 * import { addressTool } from "gpt-address/langchain";
 * const feedback = await addressTool("https://example.org/feedback", { actor: "anthropic" });
 * const message = await model.bindTools([feedback]).invoke("Rate the docs 5");
 * for (const call of message.tool_calls ?? []) await feedback.invoke(call);
 * ```
 */
export async function addressTool(url: string, options: AddressToolOptions = {}): Promise<GptAddressTool> {
  return new GptAddressTool(await contactAddress(url, options));
}

/**
 * The addresses at `source` as LangChain tools (a repeated name gets `_2`, `_3`…): a list of
 * URLs, or a site whose API catalog (`/.well-known/api-catalog`, RFC 9727) lists them.
 */
export async function addressTools(
  source: string | readonly string[],
  options: Omit<AddressToolOptions, "name"> = {},
): Promise<GptAddressTool[]> {
  return (await contactAddresses(source, options)).map((address) => new GptAddressTool(address));
}
