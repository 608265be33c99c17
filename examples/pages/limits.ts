/**
 * The example's rate limits and what its operator sees: limits per client on by default on
 * every runtime, a JSON log line per act and rejection, and counters (Prometheus text at
 * `/metrics` when asked for). docs/operations.md says how to change each.
 *
 * @module
 */
import type { Context } from "hono";
import { ActCounters, type ActLogEntry, formatActLog } from "../../src/address/act-log.ts";
import { DEFAULT_IPV6_PREFIX_LENGTH } from "../../src/address/network-key.ts";
import { type RateLimit, type RateLimiter, workersRateLimiter } from "../../src/address/rate-limit.ts";

/** Requests per client per minute: acts (POST) and arrivals (GET, HEAD). */
export interface RateLimitSetting {
  readonly actsPerMinute: number;
  readonly arrivalsPerMinute: number;
}

/** The example's default limits: 60 acts and 600 arrivals per client per minute. */
export const DEFAULT_RATE_LIMIT: RateLimitSetting = { actsPerMinute: 60, arrivalsPerMinute: 600 };

/**
 * Reads the `RATE_LIMIT` setting: unset for {@link DEFAULT_RATE_LIMIT}, `off` for none, or
 * `<acts>,<arrivals>` per client per minute (`30,300`).
 *
 * @throws {RangeError} for anything else, naming the setting.
 */
export function rateLimitSetting(value: string | undefined): RateLimitSetting | null {
  if (value === undefined || value === "") return DEFAULT_RATE_LIMIT;
  if (value === "off") return null;
  const match = /^(\d+),(\d+)$/.exec(value);
  if (match === null || Number(match[1]) < 1 || Number(match[2]) < 1) {
    throw new RangeError(`RATE_LIMIT must be "off" or "<acts>,<arrivals>" per minute (positive), got "${value}"`);
  }
  return { actsPerMinute: Number(match[1]), arrivalsPerMinute: Number(match[2]) };
}

/**
 * Reads the `IPV6_PREFIX_LENGTH` setting: the bits of an IPv6 client address its budget is
 * kept by (`RateLimit.ipv6PrefixLength`); unset or empty for 64, a /64 per client.
 *
 * @throws {RangeError} for anything but an integer from 0 to 128, naming the setting.
 */
export function ipv6PrefixLength(value: string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_IPV6_PREFIX_LENGTH;
  if (!/^\d{1,3}$/.test(value) || Number(value) > 128) {
    throw new RangeError(`IPV6_PREFIX_LENGTH must be an integer from 0 to 128, got "${value}"`);
  }
  return Number(value);
}

/** The addresses in `TRUSTED_PROXIES` (comma-separated), whose `X-Forwarded-For` is believed. */
export function trustedProxies(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((proxy) => proxy.trim())
    .filter((proxy) => proxy !== "");
}

/**
 * The client address on Vercel, where a function sees no connection of its own: `X-Real-IP`,
 * which Vercel's edge sets to the client's address (replacing what a client sent), read only
 * when `env` says the function runs on Vercel (`VERCEL=1`, a system variable Vercel sets).
 * Elsewhere (`npm run serve:vercel`) none: every client is `unknown`, one shared budget.
 *
 * @see https://vercel.com/docs/headers/request-headers
 */
export function vercelClientAddress(
  env: Readonly<Record<string, string | undefined>>,
): (c: Context) => string | undefined {
  const onVercel = env.VERCEL === "1";
  return (c) => (onVercel ? c.req.header("x-real-ip") : undefined);
}

/**
 * The Workers limits: the Rate Limiting bindings `ACT_LIMITER` and `ARRIVAL_LIMITER`
 * (`[[ratelimits]]` in wrangler.toml, period 60 s), keyed by `CF-Connecting-IP`, which only
 * Cloudflare's edge sets (an IPv6 client by its network of `prefixLength` bits, the variable
 * `IPV6_PREFIX_LENGTH`). The worker variable `RATE_LIMIT = "off"` turns them off.
 */
export function workersRateLimit(
  clientAddress: (c: Context) => string | undefined,
  prefixLength: number = DEFAULT_IPV6_PREFIX_LENGTH,
): RateLimit {
  const unlessOff = (limiter: RateLimiter): RateLimiter => ({
    limit: (key, c) =>
      (c.env as { RATE_LIMIT?: string } | undefined)?.RATE_LIMIT === "off"
        ? { allowed: true, retryAfterSeconds: 0 }
        : limiter.limit(key, c),
  });
  return {
    act: unlessOff(workersRateLimiter("ACT_LIMITER", 60)),
    arrival: unlessOff(workersRateLimiter("ARRIVAL_LIMITER", 60)),
    clientAddress,
    ipv6PrefixLength: prefixLength,
  };
}

/** Where the example's log entries go, and the counters they feed. */
export interface Operations {
  readonly counters: ActCounters;
  /** The `onLog` hook: counts the entry, then writes it with its running count. */
  readonly onLog: (entry: ActLogEntry) => void;
}

/**
 * The example's log: one JSON line per entry on `write` (default `console.log`, which Workers
 * Logs and `wrangler tail` show), with `count`, the running count of its series, added.
 */
export function operations(write: (line: string) => void = console.log): Operations {
  const counters = new ActCounters();
  return {
    counters,
    onLog(entry) {
      const count = counters.record(entry);
      write(formatActLog({ ...entry, count } as ActLogEntry));
    },
  };
}
