/**
 * The Ollama actor: `/api/chat` with `format` set to the JSON Schema (llama.cpp's grammar
 * converter inside Ollama), through the official `ollama` package. No key; the host comes from
 * `OLLAMA_HOST` (default `http://127.0.0.1:11434`).
 *
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#request-structured-outputs
 * @module
 */
import {
  ActorSetupError,
  type ClientWarning,
  type GenerateRequest,
  importOptional,
  type ModelClient,
} from "../model.ts";
import { toModelError } from "./sdk-error.ts";

/** Options of {@link createOllamaClient}. */
export interface OllamaClientOptions {
  /** Model name, such as `llama3.2` (required). */
  readonly model: string;
  /** Ollama's URL; default `OLLAMA_HOST`, then `http://127.0.0.1:11434`. */
  readonly host?: string;
  readonly fetch?: typeof fetch;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Creates the Ollama client.
 *
 * @throws {ActorSetupError} without a model or without the `ollama` package.
 */
export async function createOllamaClient(options: OllamaClientOptions): Promise<ModelClient> {
  if (!options.model) throw new ActorSetupError("ollama: --model is required");
  const env = options.env ?? process.env;
  const { Ollama } = await importOptional("ollama", () => import("ollama"));
  const sdk = new Ollama({
    host: options.host ?? env.OLLAMA_HOST ?? "http://127.0.0.1:11434",
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    provider: "ollama",
    modelId: options.model,
    async generate(request: GenerateRequest) {
      let response: Awaited<ReturnType<typeof sdk.chat>>;
      const abort = () => sdk.abort();
      request.signal?.addEventListener("abort", abort, { once: true });
      try {
        response = await sdk.chat({
          model: options.model,
          stream: false,
          format: request.schema,
          messages: [
            { role: "system", content: request.system },
            ...request.messages.map((m) => ({ role: m.role, content: m.content })),
          ],
        });
      } catch (error) {
        throw toModelError("ollama", error);
      } finally {
        request.signal?.removeEventListener("abort", abort);
      }
      const warnings: ClientWarning[] = [];
      if (response.done_reason === "length") {
        warnings.push({ type: "other", message: "ollama: the output was cut off at the token limit" });
      }
      return { text: response.message.content, warnings };
    },
  };
}
