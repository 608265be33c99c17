/**
 * gpt-address/run/deno-kv: a {@link RunStore} on Deno KV (a local SQLite file under
 * `deno run --unstable-kv`, the hosted store on Deno Deploy): every process or isolate opening
 * the same KV shares the runs.
 *
 * The store takes an open `Deno.Kv` rather than calling `Deno.openKv()`, so this module touches
 * no `Deno` global; {@link RunKv} is the subset it uses. Keys, under `["gpt-address-runs", …]`:
 * - `["run", id]`: the {@link RunRecord}, written with `expireIn` its remaining life (Deno KV
 *   deletes it after that; a read never returns a run past its `expiresAt`);
 * - `["key", key]`: an idempotency claim `{ fingerprint, id, expiresAt }`, expiring with its run;
 * - `["count", bucket]`: the quota. Nothing tells the store when a run expired, so runs are
 *   counted in buckets of their expiry time (a sixteenth of the TTL, at least 1 s), each kept
 *   until its last run has expired; the runs kept are at most the sum of the buckets not past.
 *
 * A creation is one atomic operation checked against the versionstamps of the claim's key (so
 * of any number of concurrent claims one commits: insert-if-absent), of the run's key, and of
 * every bucket counted (two creations cannot both pass on one count); a lost race reads again,
 * up to {@link KV_ATTEMPTS} times. A change is a read then an atomic write checked against the
 * run's versionstamp. Queues are not needed: the act runs in the process that created the run,
 * which reads the cancel flag back (see `startRun`). A value is at most 64 KiB in Deno KV: the
 * store states {@link DENO_KV_MAX_RESULT_BYTES} as its `maxResultBytes`. A deleted run (see
 * {@link RunStore.delete}) is taken off its bucket's count in the same atomic operation.
 *
 * @example
 * ```ts
 * import { DenoKvRunStore } from "gpt-address/run/deno-kv";
 * const runs = new DenoKvRunStore(await Deno.openKv(), { maxRuns: 10_000, ttlMs: 3_600_000 });
 * ```
 * @see https://docs.deno.com/deploy/kv/manual/transactions/
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

/** A Deno KV key (strings and numbers are all this store uses). */
export type RunKvKey = readonly (string | number)[];

/** An entry as `Deno.Kv` reads it (`versionstamp` `null`: absent). */
export interface RunKvEntry {
  readonly value: unknown;
  readonly versionstamp: string | null;
}

/** The subset of an atomic operation of `Deno.Kv` used here. */
export interface RunKvAtomic {
  check(...checks: { readonly key: RunKvKey; readonly versionstamp: string | null }[]): RunKvAtomic;
  set(key: RunKvKey, value: unknown, options?: { expireIn?: number }): RunKvAtomic;
  delete(key: RunKvKey): RunKvAtomic;
  commit(): Promise<{ ok: boolean }>;
}

/** The subset of `Deno.Kv` used here. */
export interface RunKv {
  get(key: RunKvKey): Promise<RunKvEntry>;
  getMany(keys: RunKvKey[]): Promise<RunKvEntry[]>;
  atomic(): RunKvAtomic;
}

/** Attempts of one write against others writing at the same time, before it fails. */
export const KV_ATTEMPTS = 16;

/**
 * The largest consequence kept ({@link RunStore.maxResultBytes}): Deno KV's 64 KiB per value,
 * less 1 KiB for the run's other fields. The value is V8-serialized, not JSON: a consequence of
 * many fractional numbers (8 bytes each) can pass this and still be refused by KV; its run then
 * ends `failed` as one over the cap does.
 */
export const DENO_KV_MAX_RESULT_BYTES = 64_512;

const PREFIX = "gpt-address-runs";
const BUCKETS_PER_TTL = 16;

interface Claimed {
  readonly fingerprint: string;
  readonly id: string;
  readonly expiresAt: number;
}

function isClaimed(value: unknown): value is Claimed {
  const { fingerprint, id, expiresAt } = (value ?? {}) as Record<string, unknown>;
  return typeof fingerprint === "string" && typeof id === "string" && typeof expiresAt === "number";
}

function counted(value: unknown): number {
  const runs = (value as { runs?: unknown } | null)?.runs;
  return typeof runs === "number" ? runs : 0;
}

/** Whether `error` is local Deno KV's SQLite saying another connection holds the write lock. */
function isLocked(error: unknown): boolean {
  return error instanceof Error && /database is locked/.test(error.message);
}

const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** attempt));

/** Runs in Deno KV; see the module. */
export class DenoKvRunStore implements RunStore {
  readonly limits: RunLimits;
  readonly maxResultBytes = DENO_KV_MAX_RESULT_BYTES;
  readonly #kv: RunKv;
  readonly #now: () => number;
  readonly #bucketMs: number;

  /** @param now - the clock, in ms since the epoch (tests set it). */
  constructor(kv: RunKv, limits: RunLimits = DEFAULT_RUN_LIMITS, now: () => number = Date.now) {
    this.limits = limits;
    this.#kv = kv;
    this.#now = now;
    this.#bucketMs = Math.max(1_000, Math.ceil(limits.ttlMs / BUCKETS_PER_TTL));
  }

  /**
   * @throws {IdempotencyKeyReused}, {@link RunQuotaExceeded} as the interface says.
   * @throws Error when {@link KV_ATTEMPTS} commits all lost to other writers, or KV fails.
   */
  async create(run: RunRecord, claim?: IdempotencyClaim): Promise<CreateOutcome> {
    const runKey: RunKvKey = [PREFIX, "run", run.id];
    const claimKey: RunKvKey | undefined = claim === undefined ? undefined : [PREFIX, "key", claim.key];
    for (let attempt = 0; attempt < KV_ATTEMPTS; attempt++) {
      if (attempt > 0) await backoff(attempt);
      const now = this.#now();
      let held: RunKvEntry | undefined;
      if (claimKey !== undefined) {
        held = await this.#kv.get(claimKey);
        if (isClaimed(held.value) && held.value.expiresAt > now) {
          if (held.value.fingerprint !== claim!.fingerprint) throw new IdempotencyKeyReused();
          return { created: false, id: held.value.id };
        }
      }
      const first = Math.floor(now / this.#bucketMs);
      const target = Math.max(first, Math.floor(run.expiresAt / this.#bucketMs));
      const keys: RunKvKey[] = [];
      for (let bucket = first; bucket <= target; bucket++) keys.push([PREFIX, "count", bucket]);
      const buckets = await this.#getMany(keys);
      const used = buckets.reduce((sum, entry) => sum + counted(entry.value), 0);
      if (used >= this.limits.maxRuns) {
        const oldest = buckets.findIndex((entry) => counted(entry.value) > 0);
        throw new RunQuotaExceeded(((first + Math.max(0, oldest) + 1) * this.#bucketMs - now) / 1000);
      }
      const life = Math.max(1, run.expiresAt - now);
      let operation = this.#kv.atomic().check({ key: runKey, versionstamp: null });
      for (const [i, entry] of buckets.entries())
        operation = operation.check({ key: keys[i]!, versionstamp: entry.versionstamp });
      operation = operation
        .set(runKey, run, { expireIn: life })
        .set(
          keys.at(-1)!,
          { runs: counted(buckets.at(-1)!.value) + 1 },
          { expireIn: (target + 1) * this.#bucketMs - now },
        );
      if (claimKey !== undefined) {
        const value: Claimed = { fingerprint: claim!.fingerprint, id: run.id, expiresAt: run.expiresAt };
        operation = operation.check({ key: claimKey, versionstamp: held!.versionstamp }).set(claimKey, value, {
          expireIn: life,
        });
      }
      if (await this.#commit(operation)) return { created: true };
    }
    throw new Error(`Deno KV: ${KV_ATTEMPTS} attempts to create run ${run.id} lost to other writers`);
  }

  async get(id: string): Promise<RunRecord | null> {
    return (await this.#read(id)).run;
  }

  /** @throws Error when {@link KV_ATTEMPTS} commits all lost to other writers, or KV fails. */
  async update(id: string, change: RunChange): Promise<RunRecord | null> {
    for (let attempt = 0; attempt < KV_ATTEMPTS; attempt++) {
      if (attempt > 0) await backoff(attempt);
      const { run, versionstamp } = await this.#read(id);
      if (run === null) return null;
      const now = this.#now();
      const changed = applyChange(run, change, now);
      if (changed === null) return run;
      const operation = this.#kv
        .atomic()
        .check({ key: [PREFIX, "run", id], versionstamp })
        .set([PREFIX, "run", id], changed, { expireIn: Math.max(1, run.expiresAt - now) });
      if (await this.#commit(operation)) return changed;
    }
    throw new Error(`Deno KV: ${KV_ATTEMPTS} attempts to change run ${id} lost to other writers`);
  }

  /**
   * Deletes the run and takes it off the count of its expiry's bucket, in one atomic operation.
   *
   * @throws Error when {@link KV_ATTEMPTS} commits all lost to other writers, or KV fails.
   */
  async delete(id: string): Promise<void> {
    const runKey: RunKvKey = [PREFIX, "run", id];
    for (let attempt = 0; attempt < KV_ATTEMPTS; attempt++) {
      if (attempt > 0) await backoff(attempt);
      const { run, versionstamp } = await this.#read(id);
      if (run === null) return;
      const now = this.#now();
      const bucket = Math.floor(run.expiresAt / this.#bucketMs);
      const bucketKey: RunKvKey = [PREFIX, "count", bucket];
      const count = await this.#kv.get(bucketKey);
      let operation = this.#kv
        .atomic()
        .check({ key: runKey, versionstamp }, { key: bucketKey, versionstamp: count.versionstamp })
        .delete(runKey);
      if (counted(count.value) > 0) {
        operation = operation.set(
          bucketKey,
          { runs: counted(count.value) - 1 },
          { expireIn: Math.max(1, (bucket + 1) * this.#bucketMs - now) },
        );
      }
      if (await this.#commit(operation)) return;
    }
    throw new Error(`Deno KV: ${KV_ATTEMPTS} attempts to delete run ${id} lost to other writers`);
  }

  async #read(id: string): Promise<{ run: RunRecord | null; versionstamp: string | null }> {
    const { value, versionstamp } = await this.#kv.get([PREFIX, "run", id]);
    const run = value as RunRecord | null;
    return run === null || run.expiresAt <= this.#now() ? { run: null, versionstamp } : { run, versionstamp };
  }

  /** Commits `operation`: `false` when a check failed or another process held local KV's lock. */
  async #commit(operation: RunKvAtomic): Promise<boolean> {
    try {
      return (await operation.commit()).ok;
    } catch (error) {
      if (isLocked(error)) return false;
      throw error;
    }
  }

  /** `getMany` of any number of keys: Deno KV reads at most 10 at a time. */
  async #getMany(keys: readonly RunKvKey[]): Promise<RunKvEntry[]> {
    const entries: RunKvEntry[] = [];
    for (let i = 0; i < keys.length; i += 10) entries.push(...(await this.#kv.getMany(keys.slice(i, i + 10))));
    return entries;
  }
}
