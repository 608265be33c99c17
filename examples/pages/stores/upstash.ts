/**
 * A {@link PageStore} over an HTTP key-value service speaking the Upstash Redis REST
 * protocol, for runtimes with no local storage (Vercel Edge).
 *
 * Each operation is one `POST` of a Redis command as a JSON array to the service's base
 * URL, with `Authorization: Bearer <token>`; the answer is `{"result": …}` or
 * `{"error": "…"}`.
 *
 * A put is one Lua script ({@link PUT_SCRIPT}, `EVAL`), which Redis runs atomically: it sums
 * the bytes counted in the buckets of time that may still count live pages
 * (`./usage-buckets.ts`, under `<prefix without its colon>_usage:<bucket>`), and unless the page
 * would take them past the quota, `SET`s it with `PX` (the TTL: Redis deletes it then) and adds
 * its size to the current bucket, which expires when its last page has. The request carries
 * the page, so Upstash's request size limit (1 MiB on the free plan) bounds `PAGE_MAX_BYTES` too.
 *
 * @see https://upstash.com/docs/redis/features/restapi
 * @module
 */
import {
  DEFAULT_PAGE_LIMITS,
  MemoryPageStore,
  type PageLimits,
  PageQuotaExceeded,
  type PageStore,
  pageSize,
} from "../store.ts";
import { usageBuckets } from "./usage-buckets.ts";

/**
 * Puts a page within the quota. KEYS: the page, then the live usage buckets, oldest first, the
 * current one last. ARGV: the page, its bytes, the quota, the page's TTL and the current
 * bucket's, in ms. Returns `{1, 0}` when put, else `{0, ms}`: the oldest counting bucket's time
 * to live.
 */
export const PUT_SCRIPT = `local used = 0
local oldest = -1
for i = 2, #KEYS do
  local counted = redis.call('GET', KEYS[i])
  if counted then
    used = used + tonumber(counted)
    if oldest < 0 then oldest = redis.call('PTTL', KEYS[i]) end
  end
end
if used + tonumber(ARGV[2]) > tonumber(ARGV[3]) then return {0, oldest} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
redis.call('INCRBY', KEYS[#KEYS], ARGV[2])
redis.call('PEXPIRE', KEYS[#KEYS], ARGV[5])
return {1, 0}`;

/** Where the service is and how to reach it. */
export interface UpstashOptions {
  /** The REST base URL, such as `https://eu1-x.upstash.io` (`UPSTASH_REDIS_REST_URL`). */
  readonly url: string;
  /** The REST token (`UPSTASH_REDIS_REST_TOKEN`). */
  readonly token: string;
  /** Prefix of every key, so that one database can hold several addresses; default `"page:"`. */
  readonly prefix?: string;
  /** The `fetch` to use; default the global one. */
  readonly fetch?: typeof fetch;
  /** The store's bounds; default {@link DEFAULT_PAGE_LIMITS}. */
  readonly limits?: PageLimits;
  /** The clock, in ms since the epoch (tests set it). */
  readonly now?: () => number;
}

/**
 * Stores rendered pages as Redis strings under `<prefix><id>`.
 *
 * @example
 * ```ts
 * const store = new UpstashPageStore({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN });
 * ```
 */
export class UpstashPageStore implements PageStore {
  readonly #options: UpstashOptions;

  constructor(options: UpstashOptions) {
    this.#options = options;
  }

  /**
   * @throws {PageQuotaExceeded} when the usage buckets hold the quota.
   * @throws Error when the service fails or answers something else than the script returns.
   */
  async put(id: string, html: string): Promise<void> {
    const limits = this.#options.limits ?? DEFAULT_PAGE_LIMITS;
    const bytes = pageSize(html, limits);
    const now = (this.#options.now ?? Date.now)();
    const buckets = usageBuckets(limits, now);
    const usage = buckets.live.map((bucket) => `${this.#prefix().replace(/:$/, "")}_usage:${bucket}`);
    const result = await this.#command([
      "EVAL",
      PUT_SCRIPT,
      String(1 + usage.length),
      this.#key(id),
      ...usage,
      html,
      String(bytes),
      String(limits.quotaBytes),
      String(limits.ttlSeconds * 1000),
      String(buckets.expires(buckets.current) - now),
    ]);
    if (!Array.isArray(result) || typeof result[0] !== "number" || typeof result[1] !== "number") {
      throw new Error(`Redis EVAL answered ${JSON.stringify(result)}`);
    }
    if (result[0] !== 1) throw new PageQuotaExceeded(result[1] > 0 ? result[1] / 1000 : 1);
  }

  /** @throws Error when the service fails or answers something other than a string or null. */
  async get(id: string): Promise<string | null> {
    const result = await this.#command(["GET", this.#key(id)]);
    if (result === null || typeof result === "string") return result;
    throw new Error("Redis GET answered a non-string");
  }

  #prefix(): string {
    return this.#options.prefix ?? "page:";
  }

  #key(id: string): string {
    return this.#prefix() + id;
  }

  async #command(command: string[]): Promise<unknown> {
    const fetcher = this.#options.fetch ?? fetch;
    const response = await fetcher(this.#options.url, {
      method: "POST",
      headers: { authorization: `Bearer ${this.#options.token}`, "content-type": "application/json" },
      body: JSON.stringify(command),
    });
    const answer = (await response.json().catch(() => null)) as { result?: unknown; error?: unknown } | null;
    if (!response.ok || answer === null || typeof answer !== "object" || "error" in answer || !("result" in answer)) {
      throw new Error(`Redis REST ${command[0]} failed with HTTP ${response.status}`);
    }
    return answer.result;
  }
}

/** The two variables that name the Upstash service, as Vercel and Upstash spell them. */
export const UPSTASH_VARIABLES = ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN"] as const;

/** The store an entry chose from its environment, and a line saying which, for its start-up log. */
export interface ChosenStore {
  readonly store: PageStore;
  /** `true` when pages go to Upstash; `false` when they are kept in memory. */
  readonly upstash: boolean;
  /** One line for the start-up log, naming the variables that are missing or wrong. */
  readonly message: string;
}

/**
 * Chooses the page store from `env` (Vercel's `process.env`): an {@link UpstashPageStore}
 * when `UPSTASH_REDIS_REST_URL` is an `http:`/`https:` URL and `UPSTASH_REDIS_REST_TOKEN`
 * is set (non-empty); otherwise a {@link MemoryPageStore}, so that an unconfigured entry
 * still publishes (pages then last as long as the instance, and each serverless instance has
 * its own), and the message says which variable is missing or wrong. It never throws: no act
 * is answered with a 5xx because of configuration.
 */
export function upstashOrMemory(
  env: Readonly<Record<string, string | undefined>>,
  limits: PageLimits = DEFAULT_PAGE_LIMITS,
): ChosenStore {
  const url = env.UPSTASH_REDIS_REST_URL ?? "";
  const token = env.UPSTASH_REDIS_REST_TOKEN ?? "";
  const problems: string[] = [];
  if (url === "") problems.push("UPSTASH_REDIS_REST_URL is not set");
  else if (!isHttpUrl(url)) problems.push("UPSTASH_REDIS_REST_URL is not an http(s) URL");
  if (token === "") problems.push("UPSTASH_REDIS_REST_TOKEN is not set");
  if (problems.length === 0) {
    return {
      store: new UpstashPageStore({ url, token, limits }),
      upstash: true,
      message: `pages are stored in Upstash Redis at ${new URL(url).origin}`,
    };
  }
  return {
    store: new MemoryPageStore(limits),
    upstash: false,
    message: `pages are kept in memory, lost on restart and not shared between instances: ${problems.join(", ")} (set both ${UPSTASH_VARIABLES.join(" and ")} to store them in Upstash Redis)`,
  };
}

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}
