/**
 * A {@link PageStore} on Cloudflare Workers KV (kept locally under `.wrangler/state` by
 * `wrangler dev`).
 *
 * Each page is a text value under `<prefix><id>`, put with `expirationTtl` (Workers KV deletes
 * it after the TTL; 60 s at least) and its size as metadata. Workers KV has no atomic counter
 * and takes at most one write a second to one key, so the quota is the sum of the sizes that
 * `list()` reports (a thousand keys a call), kept by the store and refreshed every
 * {@link USAGE_REFRESH_MS}, plus what it put since. It holds within one isolate; isolates (and
 * locations) do not see each other's puts until a refresh, and `list()` itself may be up to
 * 60 s behind, so together they may pass the quota by what they publish in that time.
 *
 * @see https://developers.cloudflare.com/kv/api/
 * @module
 */
import { DEFAULT_PAGE_LIMITS, type PageLimits, PageQuotaExceeded, type PageStore, pageSize } from "../store.ts";

/** How long the store trusts the usage it listed before listing again, in ms. */
export const USAGE_REFRESH_MS = 10_000;

/** A key as `list()` reports it: `expiration` in seconds since the epoch, the metadata it was put with. */
export interface KvListedKey {
  readonly name: string;
  readonly expiration?: number;
  readonly metadata?: unknown;
}

/** The subset of a Workers KV namespace binding (`KVNamespace`) used here. */
export interface KvNamespaceLike {
  get(key: string, type: "text"): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number; metadata?: unknown }): Promise<void>;
  list(options: {
    prefix: string;
    cursor?: string | null;
  }): Promise<{ keys: KvListedKey[]; list_complete: boolean; cursor?: string }>;
}

/** What the store knows of the namespace's usage: bytes, the earliest expiry (ms), when listed. */
interface Usage {
  bytes: number;
  earliest: number | null;
  readonly listed: number;
}

/**
 * Stores each page as a text value under `<prefix><id>`, within its {@link PageLimits}; see
 * the module. Make one per isolate: it keeps the usage it listed.
 *
 * @example
 * ```ts
 * createExampleApp((c) => (store ??= new WorkersKvPageStore(c.env.PAGES)));
 * ```
 */
export class WorkersKvPageStore implements PageStore {
  readonly #kv: KvNamespaceLike;
  readonly #prefix: string;
  readonly #limits: PageLimits;
  readonly #now: () => number;
  #usage: Usage | undefined;

  /**
   * @param kv - the KV namespace binding.
   * @param prefix - prefix of every key; default `"page:"`.
   * @param limits - the store's bounds; default {@link DEFAULT_PAGE_LIMITS}.
   * @param now - the clock, in ms since the epoch (tests set it).
   */
  constructor(
    kv: KvNamespaceLike,
    prefix = "page:",
    limits: PageLimits = DEFAULT_PAGE_LIMITS,
    now: () => number = Date.now,
  ) {
    this.#kv = kv;
    this.#prefix = prefix;
    this.#limits = limits;
    this.#now = now;
  }

  /** @throws {PageQuotaExceeded} when the pages listed, and those put since, hold the quota. */
  async put(id: string, html: string): Promise<void> {
    const bytes = pageSize(html, this.#limits);
    const now = this.#now();
    if (this.#usage === undefined || now - this.#usage.listed >= USAGE_REFRESH_MS) this.#usage = await this.#list(now);
    const usage = this.#usage;
    if (usage.bytes + bytes > this.#limits.quotaBytes) {
      throw new PageQuotaExceeded(((usage.earliest ?? now + USAGE_REFRESH_MS) - now) / 1000);
    }
    const expirationTtl = this.#limits.ttlSeconds;
    await this.#kv.put(this.#prefix + id, html, { expirationTtl, metadata: { bytes } });
    usage.bytes += bytes;
    usage.earliest ??= now + expirationTtl * 1000;
  }

  async get(id: string): Promise<string | null> {
    return this.#kv.get(this.#prefix + id, "text");
  }

  /** The bytes of the pages kept now, by `list()`. */
  async usage(): Promise<number> {
    return (await this.#list(this.#now())).bytes;
  }

  async #list(now: number): Promise<Usage> {
    const usage: Usage = { bytes: 0, earliest: null, listed: now };
    let cursor: string | undefined;
    do {
      const page = await this.#kv.list({ prefix: this.#prefix, cursor: cursor ?? null });
      for (const key of page.keys) {
        const expires = key.expiration === undefined ? null : key.expiration * 1000;
        if (expires !== null && expires <= now) continue;
        const size = (key.metadata as { bytes?: unknown } | undefined)?.bytes;
        // A page of an earlier version, put without its size: counted as the largest page may be.
        usage.bytes += typeof size === "number" ? size : this.#limits.maxPageBytes;
        if (expires !== null && (usage.earliest === null || expires < usage.earliest)) usage.earliest = expires;
      }
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor !== undefined);
    return usage;
  }
}
