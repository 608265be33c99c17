/**
 * The example's rate limiters on Node, Bun, Deno and Vercel: a library's limiter (in process
 * memory, or in the SQLite file, Deno KV or Upstash Redis that keeps the pages) behind the
 * address's {@link RateLimiter} interface, and the choice between a shared store and this
 * process's memory (`RATE_LIMIT_STORE`, docs/operations.md). Each store's limiter is next to
 * its page store in `./stores/`.
 *
 * @module
 */
// Types the library's modules imported by path, for `deno check` too (which reads no tsconfig).
/// <reference types="./stores/rate-limiter-flexible.d.ts" />
import type { Context } from "hono";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
// By path: the package's index also loads its cluster limiter, which no edge bundle can hold.
import RateLimiterMemory from "rate-limiter-flexible/lib/RateLimiterMemory.js";
import RateLimiterRes from "rate-limiter-flexible/lib/RateLimiterRes.js";
import type { RateLimit, RateLimiter } from "../../src/address/rate-limit.ts";
import { ipv6PrefixLength, rateLimitSetting, trustedProxies } from "./limits.ts";

/** The window of every limit of the example, in seconds: budgets are per minute. */
export const WINDOW_SECONDS = 60;

/**
 * A {@link RateLimiter} over a rate-limiter-flexible limiter: one point per request.
 * `consume()` rejects with a `RateLimiterRes` when the budget is spent (a refusal, with the
 * milliseconds until the window ends) and with anything else on a store fault, which is
 * rethrown: the address logs it and lets the request through.
 */
export function flexibleLimiter(limiter: Pick<RateLimiterAbstract, "consume">): RateLimiter {
  return {
    async limit(key) {
      try {
        await limiter.consume(key);
        return { allowed: true, retryAfterSeconds: 0 };
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfterSeconds: Math.ceil(refusal.msBeforeNext / 1000) };
      }
    },
  };
}

/**
 * The option of a rate-limiter-flexible store limiter of `points` that remembers a refused key
 * in this process until its window ends (`inMemoryBlockOnConsumed`), so that a client over its
 * budget costs no store round trip (a flood is refused from memory; `@upstash/ratelimit`'s
 * ephemeral cache does the same on Vercel).
 */
export const REFUSED_IN_MEMORY = (points: number) => ({ inMemoryBlockOnConsumed: points + 1 });

/** A {@link RateLimiter} of `points` requests per key per minute, in this process's memory. */
export function memoryLimiter(points: number): RateLimiter {
  return flexibleLimiter(new RateLimiterMemory({ points, duration: WINDOW_SECONDS }));
}

/** Where the budgets are kept: `shared` (the entry's page store) or `process` (its memory). */
export type RateLimitStore = "shared" | "process";

/**
 * Reads the `RATE_LIMIT_STORE` setting: `shared` keeps the budgets in the store that keeps the
 * pages (one budget for every process sharing it), `process` in this process's memory (one
 * budget per process; no store round trip); unset, the entry's `fallback`.
 *
 * @param fallback - the entry's default: `process` where one long-lived process serves (Node,
 *   Bun, Deno on a host of its own: issue 15 asks for an in-process limiter by default there),
 *   `shared` where the platform runs instances that come and go (Deno Deploy, Vercel).
 * @throws {RangeError} for anything else, naming the setting.
 */
export function rateLimitStore(value: string | undefined, fallback: RateLimitStore = "process"): RateLimitStore {
  if (value === undefined || value === "") return fallback;
  if (value === "shared" || value === "process") return value;
  throw new RangeError(`RATE_LIMIT_STORE must be "shared" or "process", got "${value}"`);
}

/** Makes a limiter of `points` requests per client per minute, its keys prefixed by `kind`. */
export type LimiterFactory = (points: number, kind: "act" | "arrival") => RateLimiter;

/**
 * The example's limits from its settings, read by `setting(name)`: `RATE_LIMIT` (none when
 * `off`), `RATE_LIMIT_STORE`, `TRUSTED_PROXIES` and `IPV6_PREFIX_LENGTH`. One limiter for acts and one for arrivals,
 * made by `shared()` (the entry's store, called only when limits are on and the store is
 * chosen) or else kept in this process's memory ({@link memoryLimiter}), keyed by the
 * connection's address.
 *
 * @param shared - the entry's store limiters; `undefined` when it has no shared store.
 * @param clientAddress - the runtime's peer address (its Hono adapter's `getConnInfo`).
 * @param fallback - where the budgets are kept when `RATE_LIMIT_STORE` is unset
 *   ({@link rateLimitStore}).
 * @throws {RangeError} for a malformed setting, naming it.
 */
export function exampleRateLimit(
  setting: (name: string) => string | undefined,
  shared: (() => LimiterFactory) | undefined,
  clientAddress: (c: Context) => string | undefined,
  fallback: RateLimitStore = "process",
): RateLimit | undefined {
  const limits = rateLimitSetting(setting("RATE_LIMIT"));
  if (limits === null) return undefined;
  const useStore = shared !== undefined && rateLimitStore(setting("RATE_LIMIT_STORE"), fallback) === "shared";
  const make = useStore ? shared() : memoryLimiter;
  return {
    act: make(limits.actsPerMinute, "act"),
    arrival: make(limits.arrivalsPerMinute, "arrival"),
    clientAddress,
    trustedProxies: trustedProxies(setting("TRUSTED_PROXIES")),
    ipv6PrefixLength: ipv6PrefixLength(setting("IPV6_PREFIX_LENGTH")),
  };
}
