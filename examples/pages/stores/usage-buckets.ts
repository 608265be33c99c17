/**
 * The quota of a key-value page store whose entries expire on their own (Deno KV's `expireIn`,
 * Redis's `PX`), where nothing tells the store when a page is gone: the bytes put are counted in
 * buckets of time, each kept until the last page it counted has expired, and the usage is the
 * sum of the buckets still kept. A page counts from its put until its bucket ends, at most one
 * bucket longer than it lives, so the usage is never less than what is stored: the quota holds,
 * at the cost of refusing up to one bucket's worth early.
 *
 * @module
 */
import type { PageLimits } from "../store.ts";

/** Buckets per TTL: the usage is the sum of at most this many plus two counters. */
export const BUCKETS_PER_TTL = 16;

/** The buckets of the usage at one moment. */
export interface UsageBuckets {
  /** The bucket a page put now is counted in. */
  readonly current: number;
  /** Every bucket that may still count pages, oldest first (`current` last). */
  readonly live: readonly number[];
  /** When `bucket` may be forgotten: the last page it counted has expired (ms since the epoch). */
  expires(bucket: number): number;
}

/**
 * The buckets of `limits` at `now`: each lasts a sixteenth of the TTL, at least 60 s.
 *
 * @param now - ms since the epoch.
 */
export function usageBuckets(limits: PageLimits, now: number): UsageBuckets {
  const length = Math.max(60, Math.ceil(limits.ttlSeconds / BUCKETS_PER_TTL)) * 1000;
  const ttl = limits.ttlSeconds * 1000;
  const current = Math.floor(now / length);
  const expires = (bucket: number) => (bucket + 1) * length + ttl;
  const live: number[] = [];
  for (let bucket = current - Math.ceil(ttl / length) - 1; bucket <= current; bucket++) {
    if (expires(bucket) > now) live.push(bucket);
  }
  return { current, live, expires };
}
