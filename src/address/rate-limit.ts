/**
 * Rate limits of an address (draft: Denial of Service; S4 "rate-limit independently"): the
 * limiter interface every door calls, the client key, and the adapter for the Workers Rate
 * Limiting binding. The limiter itself is a library's or the platform's, never written here.
 *
 * @module
 */
import type { Context, Env } from "hono";
import { DEFAULT_IPV6_PREFIX_LENGTH, networkKey } from "./network-key.ts";

/** What a limiter says about one request. */
export interface RateLimitOutcome {
  /** Whether the request may go on. */
  readonly allowed: boolean;
  /**
   * When refused: seconds until the client may try again (a non-negative integer, sent as
   * `Retry-After`, RFC 9110 §10.2.3). Ignored when allowed.
   */
  readonly retryAfterSeconds: number;
}

/**
 * A rate limiter: counts one request for a client key and says whether it may go on. An
 * in-process limiter (one per server), a shared store (SQLite, KV, Redis) or the platform's
 * binding all fit. A limiter that throws or rejects lets the request through (a broken limiter
 * must not take the address down) and is logged.
 */
export interface RateLimiter<E extends Env = Env> {
  /**
   * @param key - the client key ({@link RateLimit.key}).
   * @param c - the request's Hono context (for a binding in `c.env`).
   */
  limit(key: string, c: Context<E>): RateLimitOutcome | Promise<RateLimitOutcome>;
}

/**
 * The `rateLimit` option of an address and of the MCP door: separate limiters for arrivals
 * (GET, HEAD; a 304 counts too, it costs the same header work) and for acts (POST), by client.
 */
export interface RateLimit<E extends Env = Env> {
  /** Limits arrivals (GET and HEAD). None when absent. */
  readonly arrival?: RateLimiter<E>;
  /** Limits acts (POST), counted before the body is read. None when absent. */
  readonly act?: RateLimiter<E>;
  /**
   * The address of the connection's peer, from the runtime (`getConnInfo` of the runtime's
   * Hono adapter: `@hono/node-server/conninfo`, `hono/bun`, `hono/deno`, and on Workers
   * `hono/cloudflare-workers`, which reads `CF-Connecting-IP`, set by Cloudflare's edge).
   * Request header fields a client can write (`X-Forwarded-For`, `X-Real-IP`, `Forwarded`)
   * are never read unless that peer is one of {@link RateLimit.trustedProxies}.
   */
  readonly clientAddress?: (c: Context<E>) => string | undefined;
  /**
   * Proxies whose `X-Forwarded-For` is believed, by exact address. When the peer is one of
   * them, the client is the right-most address in `X-Forwarded-For` that is not a trusted
   * proxy itself. Default: none.
   */
  readonly trustedProxies?: readonly string[];
  /**
   * Bits of an IPv6 client address that make its key, 0 to 128: a client is keyed by its
   * network, since one subscriber commonly holds a whole /64. Default 64. An IPv4 client (and
   * an IPv4-mapped IPv6 one) is keyed by its address. See {@link networkKey}.
   */
  readonly ipv6PrefixLength?: number;
  /**
   * Overrides the key entirely (an API key, a tenant). Default: the client address as above,
   * or `"unknown"` when the runtime gives none (all such requests then share one budget).
   */
  readonly key?: (c: Context<E>) => string;
}

/**
 * The client key of a request under `limits`: {@link RateLimit.key} when given, else the
 * peer's address, replaced by the forwarded client only when the peer is a trusted proxy, and
 * for IPv6 cut to its network ({@link RateLimit.ipv6PrefixLength}).
 *
 * @param c - the request's context.
 * @param limits - the address's {@link RateLimit}.
 * @returns the key; `"unknown"` when no address is known.
 * @throws {RangeError} when `ipv6PrefixLength` is not an integer from 0 to 128.
 */
export function rateLimitKey<E extends Env>(c: Context<E>, limits: RateLimit<E>): string {
  if (limits.key !== undefined) return limits.key(c);
  const peer = limits.clientAddress?.(c);
  if (peer === undefined || peer === "") return "unknown";
  const trusted = limits.trustedProxies;
  const client =
    trusted === undefined || trusted.length === 0 || !trusted.includes(peer)
      ? peer
      : (forwardedClient(c.req.raw.headers.get("x-forwarded-for"), trusted) ?? peer);
  return networkKey(client, limits.ipv6PrefixLength ?? DEFAULT_IPV6_PREFIX_LENGTH);
}

/**
 * The right-most address of an `X-Forwarded-For` list that is not a trusted proxy: the first
 * hop no trusted proxy can vouch for. Left of it, anything may be forged.
 *
 * @returns the address, or `null` for an absent or empty field.
 */
export function forwardedClient(field: string | null, trusted: readonly string[]): string | null {
  if (field === null) return null;
  const hops = field
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted.includes(hops[i]!)) return hops[i]!;
  }
  return hops[0] ?? null;
}

/** The shape of a Workers Rate Limiting binding (`[[ratelimits]]` in `wrangler.toml`). */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/**
 * A {@link RateLimiter} over the Workers Rate Limiting binding named `binding` in `c.env`
 * (`[[ratelimits]]`, which `wrangler dev` and Miniflare emulate). The binding says only yes or
 * no; a refusal asks the client to retry after the binding's whole period.
 *
 * @param binding - the binding's name (`ACT_LIMITER`).
 * @param periodSeconds - the binding's `period`, 10 or 60 seconds: the `Retry-After` sent.
 * @example
 * ```ts
 * address({ form, act, rateLimit: { act: workersRateLimiter("ACT_LIMITER", 60), clientAddress } });
 * ```
 * @see https://developers.cloudflare.com/workers/runtime-apis/bindings/rate-limit/
 */
export function workersRateLimiter<E extends Env>(binding: string, periodSeconds: number): RateLimiter<E> {
  return {
    async limit(key, c) {
      const limiter = (c.env as Record<string, RateLimitBinding | undefined> | undefined)?.[binding];
      if (limiter === undefined) throw new Error(`no rate limiting binding named ${binding}`);
      const { success } = await limiter.limit({ key });
      return { allowed: success, retryAfterSeconds: periodSeconds };
    },
  };
}
