/**
 * The Anthropic actor: the Messages API with structured outputs (`output_config.format` of
 * type `json_schema`), through the official `@anthropic-ai/sdk`.
 *
 * @see https://platform.claude.com/docs/en/build-with-claude/structured-outputs
 * @module
 */
import {
  ActorSetupError,
  type ClientWarning,
  type GenerateRequest,
  importOptional,
  type ModelClient,
  requireKey,
} from "../model.ts";
import { toModelError } from "./sdk-error.ts";

/** Options of {@link createAnthropicClient}. */
export interface AnthropicClientOptions {
  /** Model id, such as `claude-sonnet-4-6` (required). */
  readonly model: string;
  /** Largest output, in tokens (default 4096). */
  readonly maxTokens?: number;
  /** Another base URL (a gateway; tests). */
  readonly baseURL?: string;
  /** The key; default `ANTHROPIC_API_KEY`. */
  readonly apiKey?: string;
  readonly maxRetries?: number;
  readonly fetch?: typeof fetch;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Creates the Anthropic client; reads the key now, before any request.
 *
 * @throws {ActorSetupError} without `ANTHROPIC_API_KEY` or without the `@anthropic-ai/sdk` package.
 */
export async function createAnthropicClient(options: AnthropicClientOptions): Promise<ModelClient> {
  if (!options.model) throw new ActorSetupError("anthropic: --model is required");
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? requireKey("anthropic", ["ANTHROPIC_API_KEY"], env);
  const { default: Anthropic } = await importOptional("@anthropic-ai/sdk", () => import("@anthropic-ai/sdk"));
  const sdk = new Anthropic({
    apiKey,
    baseURL: options.baseURL ?? env.ANTHROPIC_BASE_URL ?? undefined,
    maxRetries: options.maxRetries ?? 2,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    provider: "anthropic",
    modelId: options.model,
    async generate(request: GenerateRequest) {
      let message: Awaited<ReturnType<typeof sdk.messages.create>>;
      try {
        message = await sdk.messages.create(
          {
            model: options.model,
            max_tokens: options.maxTokens ?? 4096,
            system: request.system,
            messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
            output_config: { format: { type: "json_schema", schema: request.schema } },
            stream: false,
          },
          { signal: request.signal },
        );
      } catch (error) {
        throw toModelError("anthropic", error);
      }
      const warnings: ClientWarning[] = [];
      if (message.stop_reason === "refusal") warnings.push({ type: "other", message: "anthropic: the model refused" });
      if (message.stop_reason === "max_tokens") {
        warnings.push({ type: "other", message: "anthropic: the output was cut off at max_tokens" });
      }
      const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
      return { text, warnings };
    },
  };
}
