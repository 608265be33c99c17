/**
 * Rate limits kept in the Upstash Redis that keeps the pages (the Vercel entry), so that every
 * instance shares one budget per client: `@upstash/ratelimit`'s fixed window, counted by a Lua
 * script (`INCRBY`, then `PEXPIRE` on a window's first request) that the service runs by its
 * SHA-1 (`EVALSHA`, falling back to `EVAL` on `NOSCRIPT`).
 *
 * @see https://upstash.com/docs/redis/sdks/ratelimit-ts/algorithms
 * @module
 */
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import type { RateLimiter } from "../../../src/address/rate-limit.ts";
import { WINDOW_SECONDS } from "../rate-limiters.ts";
import type { UpstashOptions } from "./upstash.ts";

/** How long one count may take before it is a fault (the request goes through, logged), in ms. */
export const UPSTASH_TIMEOUT_MS = 1_000;

/** The first part of every rate-limit key in Redis (`rate_limits:act:<client>:<window>`). */
export const RATE_LIMIT_PREFIX = "rate_limits";

/**
 * Makes limiters of the budgets in the Upstash service of `options` (its `prefix` is not
 * used: rate-limit keys start with {@link RATE_LIMIT_PREFIX}). A failed request is retried
 * once; a count that fails, or takes over {@link UPSTASH_TIMEOUT_MS}, throws.
 *
 * @returns a function making a limiter of `points` requests per client per minute, whose keys
 *   are prefixed by `kind`.
 */
export function upstashLimiters(options: UpstashOptions): (points: number, kind: string) => RateLimiter {
  const redis = new Redis({
    url: options.url,
    token: options.token,
    enableTelemetry: false,
    // One command per request, to the base URL, as the page store sends them.
    enableAutoPipelining: false,
    retry: { retries: 1, backoff: () => 50 },
  });
  return (points, kind) => {
    const ratelimit = new Ratelimit({
      redis,
      limiter: Ratelimit.fixedWindow(points, `${WINDOW_SECONDS} s`),
      prefix: `${RATE_LIMIT_PREFIX}:${kind}`,
      timeout: UPSTASH_TIMEOUT_MS,
    });
    return {
      async limit(key) {
        const { success, reset, reason } = await ratelimit.limit(key);
        // On a timeout the library lets the request through; here that is a fault, and logged.
        if (reason === "timeout") throw new Error(`Upstash did not count a request within ${UPSTASH_TIMEOUT_MS} ms`);
        return {
          allowed: success,
          retryAfterSeconds: success ? 0 : Math.max(1, Math.ceil((reset - Date.now()) / 1000)),
        };
      },
    };
  };
}
