/**
 * The OpenAI actor: Chat Completions with Structured Outputs (`response_format` of type
 * `json_schema`, `strict: true`), through the official `openai` SDK. `baseURL` reaches any
 * OpenAI-compatible server (vLLM, SGLang, llama.cpp `llama-server`, LM Studio).
 *
 * @see https://platform.openai.com/docs/guides/structured-outputs
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

/** Options of {@link createOpenAIClient}. */
export interface OpenAIClientOptions {
  /** Model id, such as `gpt-5-mini` (required: no default is guessed). */
  readonly model: string;
  /** An OpenAI-compatible server's base URL, such as `http://127.0.0.1:8080/v1`. */
  readonly baseURL?: string;
  /** The key; default `OPENAI_API_KEY`. Optional with `baseURL` (local servers take any). */
  readonly apiKey?: string;
  /** The SDK's own retries of failed HTTP requests (default 2). */
  readonly maxRetries?: number;
  /** A fetch for the SDK to use (tests). */
  readonly fetch?: typeof fetch;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Creates the OpenAI client; reads the key now, so a missing key fails before any request.
 *
 * @throws {ActorSetupError} without a key (unless `baseURL` is given) or without the `openai` package.
 */
export async function createOpenAIClient(options: OpenAIClientOptions): Promise<ModelClient> {
  if (!options.model) throw new ActorSetupError("openai: --model is required");
  const env = options.env ?? process.env;
  const apiKey =
    options.apiKey ??
    (options.baseURL !== undefined
      ? env.OPENAI_API_KEY || "no-key-required"
      : requireKey("openai", ["OPENAI_API_KEY"], env));
  const { default: OpenAI } = await importOptional("openai", () => import("openai"));
  const sdk = new OpenAI({
    apiKey,
    baseURL: options.baseURL ?? env.OPENAI_BASE_URL ?? undefined,
    maxRetries: options.maxRetries ?? 2,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    provider: "openai",
    modelId: options.model,
    async generate(request: GenerateRequest) {
      let completion: Awaited<ReturnType<typeof sdk.chat.completions.create>>;
      try {
        completion = await sdk.chat.completions.create(
          {
            model: options.model,
            messages: [
              { role: "system", content: request.system },
              ...request.messages.map((m) => ({ role: m.role, content: m.content })),
            ],
            response_format: {
              type: "json_schema",
              json_schema: { name: request.schemaName, schema: request.schema, strict: true },
            },
          },
          { signal: request.signal },
        );
      } catch (error) {
        throw toModelError("openai", error);
      }
      const choice = completion.choices[0];
      const warnings: ClientWarning[] = [];
      if (choice?.message.refusal) {
        warnings.push({ type: "other", message: `openai: the model refused: ${choice.message.refusal}` });
      }
      if (choice?.finish_reason === "length") {
        warnings.push({ type: "other", message: "openai: the output was cut off at the token limit" });
      }
      return { text: choice?.message.content ?? "", warnings };
    },
  };
}
