/**
 * gpt-address/run: acts that outlive their request (issue 34). The run engine
 * ({@link startRun}, {@link readRun}, {@link cancelRun}), the {@link RunStore} interface every
 * store implements, and the store in memory for development. Web APIs only, like the main
 * entry; the stores on an engine have entries of their own, so that nothing pulls one in by
 * accident: `gpt-address/run/sqlite` (Node's `node:sqlite`, Bun's `bun:sqlite`),
 * `gpt-address/run/deno-kv` (Deno KV) and `gpt-address/run/durable-object` (Cloudflare Workers).
 *
 * @example
 * ```ts
 * import { MemoryRunStore, startRun, readRun, cancelRun } from "gpt-address/run";
 * const runs = new MemoryRunStore();
 * const outcome = await startRun(runs, slowAct, value, { waitMs: 2_000 });
 * ```
 * @module
 */
export {
  cancelRun,
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_POLL_INTERVAL_MS,
  MAX_STATUS_MESSAGE_LENGTH,
  type RunAct,
  type RunContext,
  type RunOutcome,
  readRun,
  type StartRunOptions,
  startRun,
} from "./engine.ts";
export { MemoryRunStore } from "./memory.ts";
export {
  applyChange,
  type CreateOutcome,
  DEFAULT_RUN_LIMITS,
  type IdempotencyClaim,
  IdempotencyKeyReused,
  isTerminal,
  type Run,
  type RunChange,
  type RunLimits,
  RunQuotaExceeded,
  type RunRecord,
  type RunStatus,
  type RunStore,
  runView,
} from "./run.ts";
export { idempotencyClaim, isRunId, newRunId, RUN_ID_BYTES } from "./run-id.ts";
