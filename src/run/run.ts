/**
 * A run: an act that outlives its request (issue 34), and the one interface every run store
 * implements.
 *
 * A run's state uses the field names of an MCP task (the tasks extension
 * `io.modelcontextprotocol/tasks`, SEP-2663, of MCP 2026-07-28): `taskId`, `status`,
 * `statusMessage`, `createdAt`, `lastUpdatedAt` (ISO 8601), `ttlMs`, `pollIntervalMs`, and
 * `result` once `completed`. The HTTP door renders the same state behind the run URL of a
 * `202 Accepted` (RFC 7240 `Prefer: respond-async`, RFC 9110 §15.3.3).
 *
 * @see https://github.com/modelcontextprotocol/ext-tasks (SEP-2663)
 * @module
 */

/** A run's status, as an MCP task's. `completed`, `failed` and `cancelled` are terminal. */
export type RunStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** Whether `status` is terminal: nothing changes a run in it again. */
export function isTerminal(status: RunStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/**
 * A run as a store keeps it: times in ms since the epoch. `result` (a JSON value: the act's
 * consequence) is present only when `status` is `completed`; `progress` is the act's last
 * fraction done, 0 to 1, when it gave one.
 */
export interface RunRecord {
  readonly id: string;
  readonly status: RunStatus;
  readonly statusMessage?: string;
  readonly progress?: number;
  readonly result?: unknown;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** When the run is forgotten: `createdAt` plus the store's {@link RunLimits.ttlMs}. */
  readonly expiresAt: number;
  /** How often a reader should poll, in ms (also how often the running instance reads the cancel). */
  readonly pollIntervalMs: number;
}

/**
 * A run as the doors show it, in an MCP task's field names (SEP-2663 `Task`): `createdAt` and
 * `lastUpdatedAt` ISO 8601, `ttlMs` the retention from `createdAt` in ms.
 */
export interface Run {
  readonly taskId: string;
  readonly status: RunStatus;
  readonly statusMessage?: string;
  /** The act's last fraction done, 0 to 1 (not an MCP task field: MCP sends it as progress). */
  readonly progress?: number;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The act's consequence (the JSON value a 200 would carry), when `completed`. */
  readonly result?: unknown;
}

/** The {@link Run} view of a stored record. */
export function runView(record: RunRecord): Run {
  return {
    taskId: record.id,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    ...(record.progress === undefined ? {} : { progress: record.progress }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.expiresAt - record.createdAt,
    pollIntervalMs: record.pollIntervalMs,
    ...(record.status === "completed" ? { result: record.result ?? null } : {}),
  };
}

/**
 * A change to a run that is not terminal yet: progress (`working` with a message and maybe a
 * fraction), the act's end (`completed` with its result, or `failed`), or a cancel.
 */
export type RunChange =
  | { readonly status: "working"; readonly statusMessage: string; readonly progress?: number }
  | { readonly status: "completed"; readonly result: unknown }
  | { readonly status: "failed"; readonly statusMessage?: string }
  | { readonly status: "cancelled" };

/**
 * `record` after `change` at `now`, or `null` when `record` is terminal (the change is dropped:
 * the first terminal status wins, so a cancel recorded before the act ended stays). Every store
 * applies changes through this function, inside its own atomic read-modify-write.
 */
export function applyChange(record: RunRecord, change: RunChange, now: number): RunRecord | null {
  if (isTerminal(record.status)) return null;
  const base = {
    id: record.id,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    pollIntervalMs: record.pollIntervalMs,
    lastUpdatedAt: Math.max(now, record.lastUpdatedAt),
  };
  switch (change.status) {
    case "working":
      return {
        ...base,
        status: "working",
        statusMessage: change.statusMessage,
        ...(change.progress === undefined ? {} : { progress: change.progress }),
      };
    case "completed":
      return { ...base, status: "completed", result: change.result };
    case "failed":
      return { ...base, status: "failed", statusMessage: change.statusMessage ?? "the act failed" };
    case "cancelled":
      return { ...base, status: "cancelled", statusMessage: "cancelled" };
  }
}

/**
 * An `Idempotency-Key` claim (draft-ietf-httpapi-idempotency-key-header): `key` is the SHA-256
 * of the address and the key the actor sent, `fingerprint` the SHA-256 of the act's bytes, both
 * base64url (43 characters; see `idempotencyClaim`).
 */
export interface IdempotencyClaim {
  readonly key: string;
  readonly fingerprint: string;
}

/** What {@link RunStore.create} did: stored the run, or found the claim's key held by run `id`. */
export type CreateOutcome = { readonly created: true } | { readonly created: false; readonly id: string };

/** A store's bounds. */
export interface RunLimits {
  /** The most runs kept at once (expired ones not counted); a run past it is refused. */
  readonly maxRuns: number;
  /** How long a run is kept after it was created, in ms; then it reads as absent. */
  readonly ttlMs: number;
}

/** 1,000 runs, each kept an hour. */
export const DEFAULT_RUN_LIMITS: RunLimits = { maxRuns: 1_000, ttlMs: 3_600_000 };

/**
 * Where runs are kept: one interface over memory, SQLite (`node:sqlite`, `bun:sqlite`), Deno
 * KV and a Durable Object. A run created through one instance of a store is read and changed
 * through any other instance sharing its engine (but memory). Every method is atomic against
 * the others, across instances; expired runs read as absent.
 */
export interface RunStore {
  readonly limits: RunLimits;
  /**
   * The largest consequence this store can keep in a run, in UTF-8 bytes of its JSON, when it
   * has a limit of its own (Deno KV's 64 KiB per value); absent, none that matters. The engine
   * keeps no larger one whatever `maxResultBytes` says, and `address()` / `mcp()` refuse a
   * `runs.maxResultBytes` over it (RangeError).
   */
  readonly maxResultBytes?: number;
  /**
   * Stores a new `working` run, unless `claim` is given and its key is already held by a run
   * not expired: then stores nothing and returns that run's id (insert-if-absent, atomic: of any
   * number of concurrent creations with one key, exactly one stores its run).
   *
   * @throws {IdempotencyKeyReused} when the key is held with another fingerprint.
   * @throws {RunQuotaExceeded} when {@link RunLimits.maxRuns} runs are kept (checked after the claim).
   */
  create(run: RunRecord, claim?: IdempotencyClaim): Promise<CreateOutcome>;
  /** The run `id`, or `null` when it is unknown or expired. */
  get(id: string): Promise<RunRecord | null>;
  /**
   * Applies `change` ({@link applyChange}) atomically and returns the run after it: unchanged
   * when it was terminal already; `null` when it is unknown or expired.
   */
  update(id: string, change: RunChange): Promise<RunRecord | null>;
  /**
   * Forgets the run `id` at once: it reads as absent and no longer counts against
   * {@link RunLimits.maxRuns}. Nothing happens when it is unknown or expired. The doors call it
   * for a run that nobody can read (its act was answered within the request, and no
   * `Idempotency-Key` claims it); a claim made for the run is not looked for.
   */
  delete(id: string): Promise<void>;
}

/**
 * Thrown by {@link RunStore.create} when the store holds {@link RunLimits.maxRuns} runs: the
 * HTTP door answers 503 with `Retry-After` (RFC 9110 §15.6.4, §10.2.3).
 */
export class RunQuotaExceeded extends Error {
  override readonly name = "RunQuotaExceeded";
  /** Seconds until a kept run expires and makes room (at least 1). */
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(`the run store holds its quota; a run expires in ${seconds} s`);
    this.retryAfterSeconds = seconds;
  }
}

/**
 * Thrown by {@link RunStore.create} when an `Idempotency-Key` is reused with other bytes:
 * the draft answers 422 Unprocessable Content (draft-ietf-httpapi-idempotency-key-header §2.7).
 */
export class IdempotencyKeyReused extends Error {
  override readonly name = "IdempotencyKeyReused";
  constructor() {
    super("the Idempotency-Key was used for another act");
  }
}

/** The error a store's serialized refusal stands for, or `null` (stores that cross a wire). */
export function refusalError(refusal: unknown): Error | null {
  const { error, retryAfterSeconds } = (refusal ?? {}) as Record<string, unknown>;
  if (error === "RunQuotaExceeded" && typeof retryAfterSeconds === "number")
    return new RunQuotaExceeded(retryAfterSeconds);
  if (error === "IdempotencyKeyReused") return new IdempotencyKeyReused();
  return null;
}
