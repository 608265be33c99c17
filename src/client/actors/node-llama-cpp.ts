/**
 * The local actor: a GGUF model run in-process by `node-llama-cpp` (llama.cpp), its output
 * constrained by a grammar that node-llama-cpp builds from the projected form
 * (`createGrammarForJsonSchema`). No network, no key.
 *
 * llama.cpp decodes tokens to text; a token sequence whose bytes are not valid UTF-8 comes out
 * with U+FFFD in their place, so a U+FFFD in the output is reported as `invalidUtf8` (the
 * caller treats it as a failed attempt and never sends it).
 *
 * @see https://node-llama-cpp.withcat.ai/guide/grammar
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

/** Options of {@link createNodeLlamaCppClient}. */
export interface NodeLlamaCppClientOptions {
  /** Path of the GGUF file (required). */
  readonly modelPath: string;
  /** Context size in tokens (default 4096). */
  readonly contextSize?: number;
  /** CPU threads (default 1: on a shared machine more threads mostly wait for each other). */
  readonly threads?: number;
  /** Largest output, in tokens (default 2048). */
  readonly maxTokens?: number;
  /** Sampling temperature (default 0.8). */
  readonly temperature?: number;
  /** Seed of the first attempt; attempt n uses seed + n (default 1). */
  readonly seed?: number;
}

/**
 * Loads the model (CPU only, prebuilt binaries only: nothing is downloaded or compiled).
 *
 * @throws {ActorSetupError} without `modelPath` or without the `node-llama-cpp` package.
 */
export async function createNodeLlamaCppClient(options: NodeLlamaCppClientOptions): Promise<ModelClient> {
  if (!options.modelPath) throw new ActorSetupError("node-llama-cpp: --model <file.gguf> is required");
  const { getLlama, LlamaChatSession } = await importOptional("node-llama-cpp", () => import("node-llama-cpp"));
  let llama: Awaited<ReturnType<typeof getLlama>>;
  let model: Awaited<ReturnType<typeof llama.loadModel>>;
  try {
    llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never, progressLogs: false });
    model = await llama.loadModel({ modelPath: options.modelPath });
  } catch (error) {
    throw new ActorSetupError(`node-llama-cpp: cannot load ${options.modelPath}: ${(error as Error).message}`);
  }
  const context = await model.createContext({
    contextSize: options.contextSize ?? 4096,
    threads: options.threads ?? 1,
  });
  const sequence = context.getSequence();
  const session = new LlamaChatSession({ contextSequence: sequence });
  let attempt = 0;
  return {
    provider: "node-llama-cpp",
    modelId: options.modelPath,
    async generate(request: GenerateRequest) {
      const messages = [...request.messages];
      const last = messages.pop();
      if (last === undefined || last.role !== "user") {
        throw new ActorSetupError("node-llama-cpp: the conversation must end with the user's message");
      }
      try {
        const grammar = await llama.createGrammarForJsonSchema(request.schema as never);
        session.setChatHistory([
          { type: "system", text: request.system },
          ...messages.map((m) =>
            m.role === "user"
              ? { type: "user" as const, text: m.content }
              : { type: "model" as const, response: [m.content] },
          ),
        ]);
        await sequence.clearHistory();
        const result = await session.promptWithMeta(last.content, {
          grammar,
          maxTokens: options.maxTokens ?? 2048,
          temperature: options.temperature ?? 0.8,
          seed: (options.seed ?? 1) + attempt++,
          signal: request.signal,
        });
        const text = result.responseText;
        const warnings: ClientWarning[] = [];
        if (result.stopReason === "maxTokens") {
          warnings.push({ type: "other", message: "node-llama-cpp: the output was cut off at maxTokens" });
        }
        return { text, invalidUtf8: text.includes("\uFFFD"), warnings };
      } catch (error) {
        throw toModelError("node-llama-cpp", error);
      }
    },
    async close() {
      await context.dispose();
      await model.dispose();
    },
  };
}
