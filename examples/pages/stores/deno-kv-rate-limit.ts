/**
 * Rate limits kept in the Deno KV that keeps the pages, so that every process (and every Deno
 * Deploy isolate) using one KV shares one budget per client.
 *
 * No maintained limiter drives Deno KV, so {@link RateLimiterDenoKv} is a store for
 * rate-limiter-flexible: a subclass of its `RateLimiterStoreAbstract` (the base of its Redis,
 * SQL and other stores; the library does all the limiting) that supplies the one store
 * operation the base calls, `_upsert`, as an optimistic KV transaction: read the window under
 * `["rate_limits", key]`, write the count back with `atomic().check(entry).set(…)`, and read
 * again when another writer came first. Counts of one key are queued within a process, so
 * that only other processes' writes can race (a burst on one key would otherwise retry each
 * count once per concurrent request). A fixed window per key, as in the library's SQL stores;
 * Deno KV deletes a window when it ends (`expireIn`).
 *
 * @see https://docs.deno.com/deploy/kv/manual/transactions/
 * @module
 */
// Types the library's modules imported by path, for `deno check` too (which reads no tsconfig).
/// <reference types="./rate-limiter-flexible.d.ts" />
import type { RateLimiterRes as Result } from "rate-limiter-flexible";
import RateLimiterRes from "rate-limiter-flexible/lib/RateLimiterRes.js";
import RateLimiterStoreAbstract from "rate-limiter-flexible/lib/RateLimiterStoreAbstract.js";
import type { RateLimiter } from "../../../src/address/rate-limit.ts";
import { flexibleLimiter, REFUSED_IN_MEMORY, WINDOW_SECONDS } from "../rate-limiters.ts";
import type { DenoKvKey } from "./deno-kv.ts";

/** The first part of every rate-limit key in KV. */
export const RATE_LIMIT_PREFIX = "rate_limits";

/**
 * Attempts of one count against other processes writing the same key (a lost check, or on
 * local KV the SQLite file locked by another process) before it fails (a fault: the request
 * goes through, logged). Before attempt n it waits a random 0 to 2^n ms.
 */
export const MAX_ATTEMPTS = 12;

/** One window as stored: points counted, and when it ends (ms since the epoch; `null`: never). */
interface Window {
  readonly points: number;
  readonly expire: number | null;
}

/**
 * What this limiter reads of an entry from Deno KV (`Deno.KvEntryMaybe`): its value and the
 * versionstamp of its last write (`null`: absent). Not its key, which Deno types with every
 * key part (`bigint`, `Uint8Array`…), wider than {@link DenoKvKey}.
 */
export interface RateLimitKvEntry {
  readonly value: unknown;
  readonly versionstamp: string | null;
}

/** The subset of an atomic operation on `Deno.Kv` this limiter uses. */
export interface RateLimitKvAtomic {
  /** Makes the commit fail unless `key` still has `versionstamp` (`null`: still absent). */
  check(check: { readonly key: DenoKvKey; readonly versionstamp: string | null }): RateLimitKvAtomic;
  /** Writes `value`; Deno KV deletes it `expireIn` ms later. */
  set(key: DenoKvKey, value: unknown, options?: { expireIn?: number }): RateLimitKvAtomic;
  commit(): Promise<{ ok: boolean }>;
}

/** The subset of `Deno.Kv` this limiter uses. */
export interface RateLimitKv {
  get(key: DenoKvKey): Promise<RateLimitKvEntry>;
  delete(key: DenoKvKey): Promise<void>;
  atomic(): RateLimitKvAtomic;
}

/** The options of {@link RateLimiterDenoKv}: rate-limiter-flexible's, with the KV as `storeClient`. */
export interface RateLimiterDenoKvOptions {
  readonly storeClient: RateLimitKv;
  readonly points: number;
  /** Seconds of one window. */
  readonly duration: number;
  readonly keyPrefix?: string;
  readonly inMemoryBlockOnConsumed?: number;
}

function isWindow(value: unknown): value is Window {
  if (typeof value !== "object" || value === null) return false;
  const { points, expire } = value as Record<string, unknown>;
  return typeof points === "number" && (expire === null || typeof expire === "number");
}

/** Whether `error` is local Deno KV's SQLite saying another connection holds the write lock. */
function isLocked(error: unknown): boolean {
  return error instanceof Error && /database is locked/.test(error.message);
}

/** A rate-limiter-flexible store on Deno KV; see the module. */
export class RateLimiterDenoKv extends RateLimiterStoreAbstract {
  readonly #kv: RateLimitKv;
  /** The last count queued for each key with one pending. */
  readonly #queued = new Map<string, Promise<Window>>();

  constructor(options: RateLimiterDenoKvOptions) {
    super(options);
    this.#kv = options.storeClient;
  }

  /**
   * Adds `points` to the key's current window, or starts a new window of `msDuration` with
   * them (always when `forceExpire`, as for `block` and `set`).
   *
   * @returns the window as written.
   * @throws Error when {@link MAX_ATTEMPTS} transactions all lost to other writers, or KV fails.
   */
  _upsert(rlKey: string, points: number, msDuration: number, forceExpire = false): Promise<Window> {
    const count = (this.#queued.get(rlKey) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.#count(rlKey, points, msDuration, forceExpire));
    this.#queued.set(rlKey, count);
    const done = () => {
      if (this.#queued.get(rlKey) === count) this.#queued.delete(rlKey);
    };
    count.then(done, done);
    return count;
  }

  async #count(rlKey: string, points: number, msDuration: number, forceExpire: boolean): Promise<Window> {
    const key = [RATE_LIMIT_PREFIX, rlKey];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** attempt));
      const entry = await this.#kv.get(key);
      const now = Date.now();
      const current =
        isWindow(entry.value) && (entry.value.expire === null || entry.value.expire > now) ? entry.value : null;
      const next: Window =
        current === null || forceExpire
          ? { points, expire: msDuration > 0 ? now + msDuration : null }
          : { points: current.points + points, expire: current.expire };
      const expireIn = next.expire === null ? undefined : Math.max(1, next.expire - now);
      const operation = this.#kv
        .atomic()
        .check({ key, versionstamp: entry.versionstamp })
        .set(key, next, expireIn === undefined ? undefined : { expireIn });
      try {
        if ((await operation.commit()).ok) return next;
      } catch (error) {
        // Local Deno KV is one SQLite file: another process writing it is a lost race too.
        if (!isLocked(error)) throw error;
      }
    }
    throw new Error(`Deno KV: ${MAX_ATTEMPTS} attempts lost to other writers of the rate-limit key ${rlKey}`);
  }

  /** The window of `rlKey` while it lasts, else `null`. */
  async _get(rlKey: string): Promise<Window | null> {
    const { value } = await this.#kv.get([RATE_LIMIT_PREFIX, rlKey]);
    return isWindow(value) && (value.expire === null || value.expire > Date.now()) ? value : null;
  }

  /** Deletes the window of `rlKey`; whether there was one. */
  async _delete(rlKey: string): Promise<boolean> {
    const existed = (await this._get(rlKey)) !== null;
    await this.#kv.delete([RATE_LIMIT_PREFIX, rlKey]);
    return existed;
  }

  /** What the library reports for a window after `changedPoints` were counted. */
  _getRateLimiterRes(_rlKey: string, changedPoints: number, window: Window): Result {
    const first = changedPoints === window.points;
    const consumed = first ? changedPoints : window.points;
    const msBeforeNext = window.expire === null ? -1 : Math.max(window.expire - Date.now(), 0);
    return new RateLimiterRes(Math.max(this.points - consumed, 0), msBeforeNext, consumed, first);
  }
}

/**
 * Makes limiters of the budgets in `kv`, which may be shared with other processes.
 *
 * @returns a function making a limiter of `points` requests per client per minute, whose keys
 *   are prefixed by `kind` (`act:203.0.113.7`).
 */
export function denoKvLimiters(kv: RateLimitKv): (points: number, kind: string) => RateLimiter {
  return (points, kind) =>
    flexibleLimiter(
      new RateLimiterDenoKv({
        storeClient: kv,
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: kind,
        ...REFUSED_IN_MEMORY(points),
      }),
    );
}
