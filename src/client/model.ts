/**
 * The one small interface every model client implements (STYLE.md, "Model clients"): a
 * `provider`, a `modelId`, and `generate`, which returns the model's text plus `warnings` as
 * data. Each client is one file in `actors/` and the only importer of its vendor SDK.
 *
 * @module
 */

/** A message of the conversation the model continues: the arrival's `m`, then the prompt. */
export interface ChatMessage {
  readonly role: "user" | "assistant";
  readonly content: string;
}

/**
 * Something the client changed or could not keep on its way to the model, reported instead of
 * done silently: a keyword dropped or widened by the actor's projection, a keyword the actor
 * accepts without enforcing, a setting the provider ignored.
 */
export interface ClientWarning {
  /** `dropped`: removed from the projected form; `widened`: replaced by a weaker bound; `rewritten`: replaced by an equivalent the actor takes; `ignored`: sent, but the actor does not enforce it; `other`. */
  readonly type: "dropped" | "widened" | "rewritten" | "ignored" | "other";
  /** JSON Pointer into the form (`s`) of the keyword concerned, when there is one. */
  readonly pointer?: string;
  /** The JSON Schema keyword concerned, when there is one. */
  readonly keyword?: string;
  /** One sentence for people. */
  readonly message: string;
}

/** What a model is asked for: fill the (projected) form. */
export interface GenerateRequest {
  /** System context: the arrival's `p`. */
  readonly system: string;
  /** Prior messages (the arrival's `m`), the user's prompt last; retries append to it. */
  readonly messages: readonly ChatMessage[];
  /** The form as this actor can take it (see `projection.ts`). */
  readonly schema: Record<string, unknown>;
  /** A name for the schema where the API wants one (`[A-Za-z0-9_-]{1,64}`). */
  readonly schemaName: string;
  /** Aborts the request (for example on Ctrl-C). */
  readonly signal?: AbortSignal;
}

/** What a model answered. */
export interface GenerateResult {
  /** The model's output text, exactly as the SDK returned it (the value to send, unchanged). */
  readonly text: string;
  /**
   * The exact bytes, when the client can know them better than by encoding `text` (none of
   * the SDKs expose bytes today; a local decoder reports invalid UTF-8 through `invalidUtf8`).
   */
  readonly invalidUtf8?: boolean;
  /** Things the provider reported or ignored (its own warnings, a refusal, a truncation). */
  readonly warnings: readonly ClientWarning[];
}

/** A model client (one per provider, `actors/<provider>.ts`). */
export interface ModelClient {
  /** The provider, as on the command line: `openai`, `anthropic`, `google`, `ollama`, `node-llama-cpp`. */
  readonly provider: string;
  /** The model id sent to the provider (or the GGUF file's path). */
  readonly modelId: string;
  /** Asks the model for one value of `request.schema`. @throws {ModelError} */
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /** Frees what the client holds (a loaded local model); optional. */
  close?(): Promise<void>;
}

/**
 * A failed model request: the HTTP status and the provider's structured error code when the
 * provider gave them, and whether trying again may succeed (derived from the status and the
 * code, never from the message text).
 */
export class ModelError extends Error {
  override readonly name = "ModelError";
  readonly provider: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly retryable: boolean;
  constructor(
    provider: string,
    message: string,
    options: { status?: number; code?: string; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(`${provider}: ${message}`, { cause: options.cause });
    this.provider = provider;
    this.status = options.status;
    this.code = options.code;
    this.retryable = options.retryable ?? retryableStatus(options.status);
  }
}

/** 408, 409, 429 and 5xx may succeed on a later try; other statuses will not. */
export function retryableStatus(status: number | undefined): boolean {
  if (status === undefined) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A missing API key, a missing optional SDK, a bad option: nothing was sent. */
export class ActorSetupError extends Error {
  override readonly name = "ActorSetupError";
}

/**
 * Imports an optional peer dependency, turning its absence into a clear {@link ActorSetupError}.
 *
 * @throws {ActorSetupError} when the package is not installed.
 */
export async function importOptional<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new ActorSetupError(`this actor needs the package ${name}: npm i ${name}`);
    }
    throw error;
  }
}

/**
 * Reads an API key from the environment, before any network call.
 *
 * @throws {ActorSetupError} naming the variables when none is set.
 */
export function requireKey(provider: string, variables: readonly string[], env = process.env): string {
  for (const name of variables) {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
  }
  throw new ActorSetupError(`${provider}: set ${variables.join(" or ")} (no request was sent)`);
}
