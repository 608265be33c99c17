/**
 * gpt-address/client: the actor's side (Node). Check any address for conformance, act on it
 * with a value given by hand, or let a language model fill the form through its vendor's
 * official SDK (an optional peer dependency each: `openai`, `@anthropic-ai/sdk`,
 * `@google/genai`, `ollama`, `node-llama-cpp`).
 *
 * @example
 * ```ts
 * import { actWithModel, checkAddress, createOpenAIClient, profiles } from "gpt-address/client";
 * const report = await checkAddress("https://example.org/page");
 * const client = await createOpenAIClient({ model: "gpt-5-mini" });
 * const result = await actWithModel("https://example.org/page", client, { prompt: "Say hello", profile: profiles.openai });
 * ```
 * @module
 */
export {
  type ActOptions,
  type ActResult,
  type Answer,
  type Attempt,
  actWithBody,
  actWithModel,
  checkLocally,
  type LocalFailure,
  type ModelActOptions,
  postAct,
} from "./act.ts";
export { type AnthropicClientOptions, createAnthropicClient } from "./actors/anthropic.ts";
export { createGoogleClient, type GoogleClientOptions } from "./actors/google.ts";
export { createNodeLlamaCppClient, type NodeLlamaCppClientOptions } from "./actors/node-llama-cpp.ts";
export { createOllamaClient, type OllamaClientOptions } from "./actors/ollama.ts";
export { createOpenAIClient, type OpenAIClientOptions } from "./actors/openai.ts";
export { type Arrival, type ArrivalDocument, ArrivalError, examplesOf, retrieve } from "./arrival.ts";
export {
  type CheckOptions,
  type CheckPoint,
  type CheckReport,
  checkAddress,
  type Level,
  type Outcome,
  type Verdict,
} from "./check.ts";
export { compileValidator, type FormFailure, type FormValidator } from "./form-validator.ts";
export { formValue, type ValueShape } from "./form-value.ts";
export { type Exchange, ExchangeError } from "./http.ts";
export {
  ActorSetupError,
  type ChatMessage,
  type ClientWarning,
  type GenerateRequest,
  type GenerateResult,
  type ModelClient,
  ModelError,
} from "./model.ts";
export { type ProfiledActor, profiles } from "./profiles.ts";
export { type ActorProfile, type Cell, type Projection, projectForm } from "./projection.ts";
export {
  type FollowRunOptions,
  followRun,
  type Run,
  RunCancelled,
  RunGone,
  RunReadError,
  type RunStatus,
} from "./run.ts";
