/**
 * The act from the actor's side: retrieve the form, check the value locally with the same
 * compiler the address uses, and POST the exact bytes — given by hand (`actWithBody`) or
 * produced by a language model through its own structured output (`actWithModel`), with the
 * form projected for that actor and failed attempts retried locally.
 *
 * @see draft "The Act"; DESIGN.md C1, H1
 * @module
 */
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import { nullAsAbsent } from "./absent.ts";
import { type Arrival, retrieve } from "./arrival.ts";
import { compileValidator } from "./form-validator.ts";
import { type Exchange, exchange, mediaType } from "./http.ts";
import { checkLocally, type LocalFailure } from "./local-check.ts";
import type { ChatMessage, ClientWarning, ModelClient } from "./model.ts";
import { type ActorProfile, projectForm } from "./projection.ts";
import { followRun, idempotencyKeyField, preferField, type Run, RunCancelled, RunGone } from "./run.ts";

export { checkLocally, type LocalFailure } from "./local-check.ts";

/** The address's answer to an act. */
export interface Answer {
  /** The status of the act's answer (202 when it went through a run). */
  readonly status: number;
  /**
   * `accepted` 200, or a run `completed`; `refused` 204 (the form rejected it, R2);
   * `form-changed` 412 (`--pin`); `rate-limited` 429; `run-failed` the act's run ended
   * `failed`; `run-cancelled` its run was cancelled (by the address, or given up: `signal`,
   * `runTimeoutMs`); `run-gone` its run is unknown (404) before it ended; `other`.
   */
  readonly kind:
    | "accepted"
    | "refused"
    | "form-changed"
    | "rate-limited"
    | "run-failed"
    | "run-cancelled"
    | "run-gone"
    | "other";
  /** The 200 JSON, parsed; a completed run's `result`. */
  readonly json?: unknown;
  /** The act's answer (the 202 when it went through a run). */
  readonly response: Exchange;
  /** The run's URL, when the address answered 202 with a `Location`. */
  readonly runUrl?: string;
  /** The run's last state, when there was a run (none after `run-gone`, or a `DELETE` with no answer). */
  readonly run?: Run;
  /**
   * With `run-cancelled`, when the actor gave the run up (and `DELETE`d it): `signal` (the
   * caller's `signal` aborted) or `timeout` (`runTimeoutMs` passed); absent when the address
   * cancelled it.
   */
  readonly givenUp?: "signal" | "timeout";
}

/** One model attempt. */
export interface Attempt {
  readonly text: string;
  readonly failure: LocalFailure | null;
  readonly warnings: readonly ClientWarning[];
}

/** What an act did. */
export interface ActResult {
  readonly arrival: Arrival;
  /** The bytes POSTed (or that would have been, when nothing was sent). */
  readonly bytes: Uint8Array;
  /** The local check's failure of the value sent or withheld; `null` when it passed. */
  readonly failure: LocalFailure | null;
  /** The answer, or `undefined` when nothing was sent. */
  readonly answer: Answer | undefined;
  /** The model's attempts (empty for `actWithBody`). */
  readonly attempts: readonly Attempt[];
  /** What the projection changed for the actor. */
  readonly warnings: readonly ClientWarning[];
}

/** Options shared by both kinds of act. */
export interface ActOptions {
  /** Send even when the local check fails (the address then refuses it, 204). */
  readonly force?: boolean;
  /** Send the form's ETag as `If-Match` (the address answers 412 if its form changed). */
  readonly pin?: boolean;
  /** The `GPT-Actor` field value (H1: recorded by the address, never a gate). */
  readonly actor?: string;
  /** Called with the exact bytes just before they are POSTed (`--verbose`). */
  readonly onSend?: (bytes: Uint8Array, headers: Readonly<Record<string, string>>) => void;
  /**
   * Ask for a run (`Prefer: respond-async`, RFC 7240), with `wait` the seconds the address may
   * take before it answers with one (`wait=N`). A `202` with `Location` is followed either way.
   */
  readonly respondAsync?: boolean | { readonly wait?: number };
  /** Sent as `Idempotency-Key` (quoted): a retry with the same key and bytes is acted on once. */
  readonly idempotencyKey?: string;
  /** Aborts the POST; after a 202, gives the run up (`DELETE`, answer `run-cancelled`). */
  readonly signal?: AbortSignal;
  /** Gives a run up after this many ms (`DELETE`, answer `run-cancelled`). Default: none. */
  readonly runTimeoutMs?: number;
  /** Called with the run's state after each read of it (a progress line). */
  readonly onRun?: (run: Run, url: string) => void;
}

function describe(failure: LocalFailure): string {
  return failure.message;
}

/**
 * POSTs `bytes` to the address unchanged (C1), with `Content-Type: application/json`. A `202
 * Accepted` with `Location` (asked for with `respondAsync`, or not) is followed to the run's end
 * (`followRun`): its `result` is the answer.
 *
 * @throws {ExchangeError} when no answer arrives.
 * @throws {RunReadError} when the run cannot be read, or `Location` is not a run URL of the
 *   address (then nothing is sent to it).
 * @throws the signal's reason when `signal` aborts before the address answered.
 */
export async function postAct(arrival: Arrival, bytes: Uint8Array, options: ActOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.actor !== undefined) headers["gpt-actor"] = options.actor;
  if (options.pin && arrival.etag !== undefined) headers["if-match"] = arrival.etag;
  const prefer = preferField(options.respondAsync);
  if (prefer !== undefined) headers.prefer = prefer;
  if (options.idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKeyField(options.idempotencyKey);
  options.onSend?.(bytes, headers);
  const response = await exchange(arrival.url, { method: "POST", headers, body: bytes, signal: options.signal });
  const location = response.headers.location;
  if (response.status === 202 && location !== undefined) {
    return followAnswer(response, new URL(location, arrival.url).href, arrival.url, options);
  }
  const kind =
    response.status === 200
      ? "accepted"
      : response.status === 204
        ? "refused"
        : response.status === 412
          ? "form-changed"
          : response.status === 429
            ? "rate-limited"
            : "other";
  let json: unknown;
  if (kind === "accepted" && mediaType(response.headers["content-type"]) === "application/json") {
    try {
      json = parseJson(response.body);
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, kind, json, response };
}

/** The answer of an act that went through the run at `runUrl`: followed to its end (docs/runs.md). */
async function followAnswer(response: Exchange, runUrl: string, address: string, options: ActOptions): Promise<Answer> {
  let accepted: unknown;
  try {
    accepted = parseJson(response.body);
  } catch {
    accepted = undefined;
  }
  const base = { status: response.status, response, runUrl };
  const headers = options.actor === undefined ? undefined : { "gpt-actor": options.actor };
  try {
    const run = await followRun(runUrl, {
      address,
      signal: options.signal,
      timeoutMs: options.runTimeoutMs,
      headers,
      accepted: { retryAfter: response.headers["retry-after"], run: accepted },
      onProgress: options.onRun && ((run) => options.onRun?.(run, runUrl)),
    });
    if (run.status === "completed") return { ...base, kind: "accepted", json: run.result, run };
    return { ...base, kind: run.status === "failed" ? "run-failed" : "run-cancelled", run };
  } catch (error) {
    if (error instanceof RunGone) return { ...base, kind: "run-gone" };
    if (error instanceof RunCancelled)
      return { ...base, kind: "run-cancelled", givenUp: error.reason, ...(error.run ? { run: error.run } : {}) };
    throw error;
  }
}

/**
 * Acts with a value given as bytes: GET the form, check the bytes locally, POST them unless
 * the check fails (then nothing is sent, unless `force`).
 *
 * @throws {ArrivalError} when the address publishes no usable form.
 * @throws {FormError} when the compiler cannot enforce the form (nothing can be checked).
 * @example
 * ```ts
 * const result = await actWithBody("http://127.0.0.1:8787/page", await readFile("page.json"));
 * if (result.answer?.kind === "accepted") console.log(result.answer.json);
 * ```
 */
export async function actWithBody(url: string, bytes: Uint8Array, options: ActOptions = {}): Promise<ActResult> {
  const arrival = await retrieve(url);
  const validator = await compileValidator(arrival.document.s);
  const failure = checkLocally(bytes, validator);
  const answer =
    failure === null || options.force
      ? await postAct(arrival, bytes, { ...options, actor: options.actor ?? "gpt-address act --body" })
      : undefined;
  return { arrival, bytes, failure, answer, attempts: [], warnings: [] };
}

/** Options of {@link actWithModel}. */
export interface ModelActOptions extends ActOptions {
  /** The user's message: what to do at this address. */
  readonly prompt: string;
  /** The actor's profile; the form is projected with it (none: the form is sent as published). */
  readonly profile?: ActorProfile;
  /** New attempts after a local failure (default 2), each told the failure. */
  readonly retries?: number;
  /** Called once the form is projected, before the first attempt, with what the projection changed. */
  readonly onProjection?: (warnings: readonly ClientWarning[]) => void;
  /** Called after each attempt (a progress line, `--verbose`). */
  readonly onAttempt?: (attempt: Attempt, index: number) => void;
}

/**
 * The bytes of the actor's value with `null` read as absent where the projection made an optional
 * property nullable (`absent.ts`), or `undefined` when nothing changes (then the actor's own
 * bytes are sent, C1) or the bytes are not strict JSON (the local check reports that).
 */
export function readNullAsAbsent(bytes: Uint8Array, form: unknown): Uint8Array | undefined {
  let value: unknown;
  try {
    value = parseJson(bytes);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return undefined;
    throw error;
  }
  const read = nullAsAbsent(value, form);
  return read.changed ? new TextEncoder().encode(JSON.stringify(read.value)) : undefined;
}

/** A name for the schema where an API wants one: `[A-Za-z0-9_-]{1,64}`. */
export function schemaName(schema: unknown): string {
  const title = typeof schema === "object" && schema !== null ? (schema as { title?: unknown }).title : undefined;
  const name = typeof title === "string" ? title.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 64) : "";
  return name.replace(/^_+|_+$/g, "") || "form";
}

/**
 * Acts with a language model: `p` is the system context, `m` the prior messages, `prompt`
 * the user's message; the model fills the projected form with its own structured output; the
 * output is checked against the full form, and retried with the failure fed back up to
 * `retries` times. Only a value that passes is sent (or the last one, with `force`).
 *
 * @throws {ArrivalError} | {FormError} as {@link actWithBody}; {ModelError} when the provider fails.
 */
export async function actWithModel(url: string, client: ModelClient, options: ModelActOptions): Promise<ActResult> {
  const arrival = await retrieve(url);
  const { p, m, s } = arrival.document;
  const validator = await compileValidator(s);
  const projection = options.profile
    ? projectForm(s, options.profile)
    : { schema: s as Record<string, unknown>, warnings: [] };
  options.onProjection?.(projection.warnings);
  const messages: ChatMessage[] = [
    ...m.filter((message) => message.role === "user" || message.role === "assistant"),
    { role: "user", content: options.prompt },
  ];
  const base = messages.length;
  const encoder = new TextEncoder();
  const attempts: Attempt[] = [];
  const retries = options.retries ?? 2;
  let bytes: Uint8Array = new Uint8Array();
  let failure: LocalFailure | null = null;
  for (let i = 0; i <= retries; i++) {
    const result = await client.generate({
      system: p,
      messages,
      schema: projection.schema,
      schemaName: schemaName(s),
      signal: options.signal,
    });
    bytes = encoder.encode(result.text);
    const warnings = [...result.warnings];
    if (options.profile?.rewrites?.optionalProperties === "nullable" && !result.invalidUtf8) {
      const read = readNullAsAbsent(bytes, s);
      if (read !== undefined) {
        bytes = read;
        warnings.push({
          type: "rewritten",
          message: `${client.provider}: null read as absent where the form does not admit null (the projection made those properties nullable)`,
        });
      }
    }
    failure = checkLocally(bytes, validator, result.invalidUtf8);
    const attempt = { text: result.text, failure, warnings };
    attempts.push(attempt);
    options.onAttempt?.(attempt, i);
    if (failure === null) break;
    // Only the latest failed value and its failure are kept: earlier ones add tokens, not help.
    messages.length = base;
    messages.push(
      { role: "assistant", content: result.text },
      {
        role: "user",
        content: `That value was not sent: ${describe(failure)}. Answer again with one JSON value that the form accepts.`,
      },
    );
  }
  const actor = `${client.provider} ${client.modelId.split("/").pop()}; via=gpt-address`;
  const answer =
    failure === null || options.force
      ? await postAct(arrival, bytes, { ...options, actor: options.actor ?? actor })
      : undefined;
  return { arrival, bytes, failure, answer, attempts, warnings: projection.warnings };
}
