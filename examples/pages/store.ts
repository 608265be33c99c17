/**
 * Where the example page address keeps rendered pages: the {@link PageStore} interface, the
 * bounds every store keeps ({@link PageLimits}: the largest page, how long a page is kept, and
 * a quota on all of them), and the in-memory store. Stores for each runtime are in `./stores/`
 * (Workers KV, Deno KV, SQLite, Upstash REST).
 *
 * @module
 */

/** The bounds of a page store; docs/operations.md, "The page store". */
export interface PageLimits {
  /** The largest page kept: its rendered HTML in UTF-8 bytes. */
  readonly maxPageBytes: number;
  /** How long a page is kept after it was published, in seconds. */
  readonly ttlSeconds: number;
  /** The most bytes of pages (HTML, UTF-8) kept at once; a page past it is refused for now. */
  readonly quotaBytes: number;
}

/** 256 KiB a page, kept 30 days, 64 MiB in all. */
export const DEFAULT_PAGE_LIMITS: PageLimits = {
  maxPageBytes: 256 * 1024,
  ttlSeconds: 30 * 86_400,
  quotaBytes: 64 * 1024 * 1024,
};

/**
 * Reads the page store's bounds from the settings `PAGE_MAX_BYTES`, `PAGES_TTL_SECONDS` and
 * `PAGES_QUOTA_BYTES` (positive integers; each unset or empty is its
 * {@link DEFAULT_PAGE_LIMITS} value).
 *
 * @throws {RangeError} naming the setting, for a value that is not a positive integer, a TTL
 *   under 60 s (Workers KV keeps nothing for less) or a quota smaller than one page.
 */
export function pageLimits(setting: (name: string) => string | undefined): PageLimits {
  const read = (name: string, fallback: number, least = 1): number => {
    const value = setting(name);
    if (value === undefined || value === "") return fallback;
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < least) {
      throw new RangeError(`${name} must be an integer of at least ${least}, got "${value}"`);
    }
    return Number(value);
  };
  const limits = {
    maxPageBytes: read("PAGE_MAX_BYTES", DEFAULT_PAGE_LIMITS.maxPageBytes),
    ttlSeconds: read("PAGES_TTL_SECONDS", DEFAULT_PAGE_LIMITS.ttlSeconds, 60),
    quotaBytes: read("PAGES_QUOTA_BYTES", DEFAULT_PAGE_LIMITS.quotaBytes),
  };
  if (limits.quotaBytes < limits.maxPageBytes) {
    throw new RangeError(
      `PAGES_QUOTA_BYTES (${limits.quotaBytes}) must be at least PAGE_MAX_BYTES (${limits.maxPageBytes})`,
    );
  }
  return limits;
}

/** A page larger than {@link PageLimits.maxPageBytes}: never kept (the app answers 413). */
export class PageTooLarge extends Error {
  override readonly name = "PageTooLarge";
  /** The page's size (at least), in bytes. */
  readonly bytes: number;
  readonly maxPageBytes: number;
  constructor(bytes: number, maxPageBytes: number) {
    super(`a page of ${bytes} bytes is larger than the ${maxPageBytes} bytes a page may have`);
    this.bytes = bytes;
    this.maxPageBytes = maxPageBytes;
  }
}

/** The store holds its {@link PageLimits.quotaBytes}: the page is not kept (the app answers 503). */
export class PageQuotaExceeded extends Error {
  override readonly name = "PageQuotaExceeded";
  /** Seconds until stored pages expire and make room (at least 1). */
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(`the page store holds its quota; pages expire in ${seconds} s`);
    this.retryAfterSeconds = seconds;
  }
}

/** The UTF-8 length of `text` in bytes (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // four bytes for two units
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * The size of `html` in UTF-8 bytes, when a store may keep it.
 *
 * @throws {PageTooLarge} when it is larger than `limits.maxPageBytes`.
 */
export function pageSize(html: string, limits: PageLimits): number {
  // A UTF-16 unit is 1 to 3 UTF-8 bytes: the length alone decides most pages.
  if (html.length > limits.maxPageBytes) throw new PageTooLarge(html.length, limits.maxPageBytes);
  const bytes = utf8Length(html);
  if (bytes > limits.maxPageBytes) throw new PageTooLarge(bytes, limits.maxPageBytes);
  return bytes;
}

/**
 * Stored pages, by id. Every store keeps its {@link PageLimits}: a page larger than
 * `maxPageBytes` is refused ({@link PageTooLarge}), each page expires `ttlSeconds` after it
 * was put, and a page that would take the store past `quotaBytes` is refused until others
 * expire ({@link PageQuotaExceeded}).
 */
export interface PageStore {
  /**
   * Stores the rendered page `html` under `id`, replacing any page stored under it.
   *
   * @throws {PageTooLarge} when the page is larger than a page may be.
   * @throws {PageQuotaExceeded} when the store holds its quota.
   */
  put(id: string, html: string): Promise<void>;
  /** The page stored under `id`, or `null` (never stored, or expired). */
  get(id: string): Promise<string | null>;
}

/**
 * Keeps pages in a `Map` for the life of the isolate or process: for tests, and for an entry
 * whose real store is not configured (the Vercel entry without its Upstash variables), since
 * nothing survives a restart and serverless instances do not share it. Pages are kept in the
 * order they expire (one TTL for all), so expired ones are dropped from the front at each put.
 */
export class MemoryPageStore implements PageStore {
  readonly #pages = new Map<string, { readonly html: string; readonly bytes: number; readonly expires: number }>();
  readonly #limits: PageLimits;
  readonly #now: () => number;
  #bytes = 0;

  /**
   * @param limits - the store's bounds; default {@link DEFAULT_PAGE_LIMITS}.
   * @param now - the clock, in ms since the epoch (tests set it).
   */
  constructor(limits: PageLimits = DEFAULT_PAGE_LIMITS, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  /** Bytes of the pages kept now. */
  get bytes(): number {
    this.#sweep(this.#now());
    return this.#bytes;
  }

  async put(id: string, html: string): Promise<void> {
    const bytes = pageSize(html, this.#limits);
    const now = this.#now();
    this.#sweep(now);
    const previous = this.#pages.get(id);
    if (this.#bytes - (previous?.bytes ?? 0) + bytes > this.#limits.quotaBytes) {
      const first = this.#pages.values().next().value;
      throw new PageQuotaExceeded(first === undefined ? 1 : (first.expires - now) / 1000);
    }
    if (previous !== undefined) {
      this.#pages.delete(id);
      this.#bytes -= previous.bytes;
    }
    this.#pages.set(id, { html, bytes, expires: now + this.#limits.ttlSeconds * 1000 });
    this.#bytes += bytes;
  }

  async get(id: string): Promise<string | null> {
    const page = this.#pages.get(id);
    return page === undefined || page.expires <= this.#now() ? null : page.html;
  }

  #sweep(now: number): void {
    for (const [id, page] of this.#pages) {
      if (page.expires > now) return;
      this.#pages.delete(id);
      this.#bytes -= page.bytes;
    }
  }
}
