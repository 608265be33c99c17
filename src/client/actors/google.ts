/**
 * The Gemini actor: `generateContent` with `responseMimeType: application/json` and
 * `responseJsonSchema` (the JSON Schema path, not the OpenAPI `responseSchema` one), through
 * the official `@google/genai` SDK.
 *
 * @see https://ai.google.dev/gemini-api/docs/structured-output
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

/** Options of {@link createGoogleClient}. */
export interface GoogleClientOptions {
  /** Model id, such as `gemini-3-flash` (required). */
  readonly model: string;
  /** Another base URL (tests). */
  readonly baseURL?: string;
  /** The key; default `GEMINI_API_KEY`, then `GOOGLE_API_KEY`. */
  readonly apiKey?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Creates the Gemini client; reads the key now, before any request.
 *
 * @throws {ActorSetupError} without a key or without the `@google/genai` package.
 */
export async function createGoogleClient(options: GoogleClientOptions): Promise<ModelClient> {
  if (!options.model) throw new ActorSetupError("google: --model is required");
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? requireKey("google", ["GEMINI_API_KEY", "GOOGLE_API_KEY"], env);
  const { GoogleGenAI } = await importOptional("@google/genai", () => import("@google/genai"));
  const sdk = new GoogleGenAI({
    apiKey,
    ...(options.baseURL !== undefined ? { httpOptions: { baseUrl: options.baseURL } } : {}),
  });
  return {
    provider: "google",
    modelId: options.model,
    async generate(request: GenerateRequest) {
      let response: Awaited<ReturnType<typeof sdk.models.generateContent>>;
      try {
        response = await sdk.models.generateContent({
          model: options.model,
          contents: request.messages.map((m) => ({
            role: m.role === "assistant" ? "model" : "user",
            parts: [{ text: m.content }],
          })),
          config: {
            systemInstruction: request.system,
            responseMimeType: "application/json",
            responseJsonSchema: request.schema,
            ...(request.signal ? { abortSignal: request.signal } : {}),
          },
        });
      } catch (error) {
        throw toModelError("google", error);
      }
      const warnings: ClientWarning[] = [];
      const finish = response.candidates?.[0]?.finishReason;
      if (finish !== undefined && finish !== "STOP") {
        warnings.push({ type: "other", message: `google: generation ended with ${finish}` });
      }
      const parts = response.candidates?.[0]?.content?.parts ?? [];
      const text = parts
        .flatMap((part) => (typeof part.text === "string" && !part.thought ? [part.text] : []))
        .join("");
      return { text, warnings };
    },
  };
}
