/**
 * The in-process rate limits of the Node, Bun and Deno entries: rate-limiter-flexible's
 * `RateLimiterMemory`, one budget per client per minute for acts and one for arrivals. One
 * process only: servers behind a load balancer need a shared store behind the same
 * `RateLimiter` interface (docs/operations.md).
 *
 * @module
 */
import type { Context } from "hono";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { RateLimit, RateLimiter } from "../../src/address/rate-limit.ts";
import type { RateLimitSetting } from "./limits.ts";

/** A {@link RateLimiter} of `points` requests per key per minute, in this process's memory. */
export function memoryLimiter(points: number): RateLimiter {
  const limiter = new RateLimiterMemory({ points, duration: 60 });
  return {
    async limit(key) {
      try {
        await limiter.consume(key);
        return { allowed: true, retryAfterSeconds: 0 };
      } catch (refusal) {
        // consume() rejects with a RateLimiterRes when the budget is spent, with anything else on a fault.
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfterSeconds: Math.ceil(refusal.msBeforeNext / 1000) };
      }
    },
  };
}

/**
 * The in-process limits for `setting` (none when `null`), keyed by the connection's address.
 *
 * @param clientAddress - the runtime's peer address (its Hono adapter's `getConnInfo`).
 * @param proxies - trusted proxies, whose `X-Forwarded-For` is believed.
 */
export function memoryRateLimit(
  setting: RateLimitSetting | null,
  clientAddress: (c: Context) => string | undefined,
  proxies: readonly string[] = [],
): RateLimit | undefined {
  if (setting === null) return undefined;
  return {
    act: memoryLimiter(setting.actsPerMinute),
    arrival: memoryLimiter(setting.arrivalsPerMinute),
    clientAddress,
    trustedProxies: proxies,
  };
}
