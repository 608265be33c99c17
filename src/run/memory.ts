/**
 * A {@link RunStore} in this process's memory, for development and tests: one instance, nothing
 * shared across processes or isolates, nothing kept across restarts. Bounded like the others:
 * at most {@link RunLimits.maxRuns} runs, each forgotten after {@link RunLimits.ttlMs}.
 *
 * @module
 */
import {
  applyChange,
  type CreateOutcome,
  DEFAULT_RUN_LIMITS,
  type IdempotencyClaim,
  IdempotencyKeyReused,
  type RunChange,
  type RunLimits,
  RunQuotaExceeded,
  type RunRecord,
  type RunStore,
} from "./run.ts";

/**
 * Runs in a `Map` (insertion order is creation order, so the oldest run is the first one), and
 * idempotency keys in another, both swept of expired entries on every creation.
 *
 * @example
 * ```ts
 * const runs = new MemoryRunStore({ maxRuns: 100, ttlMs: 600_000 });
 * ```
 */
export class MemoryRunStore implements RunStore {
  readonly limits: RunLimits;
  readonly #now: () => number;
  readonly #runs = new Map<string, RunRecord>();
  readonly #keys = new Map<string, { readonly fingerprint: string; readonly id: string; readonly expiresAt: number }>();

  /** @param now - the clock, in ms since the epoch (tests set it). */
  constructor(limits: RunLimits = DEFAULT_RUN_LIMITS, now: () => number = Date.now) {
    this.limits = limits;
    this.#now = now;
  }

  /** Runs kept, expired ones not yet swept included. */
  get size(): number {
    return this.#runs.size;
  }

  async create(run: RunRecord, claim?: IdempotencyClaim): Promise<CreateOutcome> {
    const now = this.#now();
    for (const [id, kept] of this.#runs) if (kept.expiresAt <= now) this.#runs.delete(id);
    for (const [key, kept] of this.#keys) if (kept.expiresAt <= now) this.#keys.delete(key);
    if (claim !== undefined) {
      const held = this.#keys.get(claim.key);
      if (held !== undefined) {
        if (held.fingerprint !== claim.fingerprint) throw new IdempotencyKeyReused();
        return { created: false, id: held.id };
      }
    }
    if (this.#runs.size >= this.limits.maxRuns) {
      // With no run kept (maxRuns 0) room comes no sooner than a TTL: the Retry-After is finite.
      let oldest = now + this.limits.ttlMs;
      for (const kept of this.#runs.values()) oldest = Math.min(oldest, kept.expiresAt);
      throw new RunQuotaExceeded((oldest - now) / 1000);
    }
    this.#runs.set(run.id, run);
    if (claim !== undefined) {
      this.#keys.set(claim.key, { fingerprint: claim.fingerprint, id: run.id, expiresAt: run.expiresAt });
    }
    return { created: true };
  }

  async get(id: string): Promise<RunRecord | null> {
    const run = this.#runs.get(id);
    return run === undefined || run.expiresAt <= this.#now() ? null : run;
  }

  async update(id: string, change: RunChange): Promise<RunRecord | null> {
    const run = await this.get(id);
    if (run === null) return null;
    const changed = applyChange(run, change, this.#now());
    if (changed === null) return run;
    this.#runs.set(id, changed);
    return changed;
  }

  async delete(id: string): Promise<void> {
    this.#runs.delete(id);
  }
}
