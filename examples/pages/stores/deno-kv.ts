/**
 * A {@link PageStore} on Deno KV (local SQLite under `deno run --unstable-kv`, the hosted
 * store on Deno Deploy).
 *
 * The store takes an open `Deno.Kv` rather than calling `Deno.openKv()`, so that only the
 * runtime entry (`examples/pages/deno.ts`) touches the `Deno` global. {@link DenoKv} is the
 * subset of `Deno.Kv` used here.
 *
 * A Deno KV value is limited to 65,536 bytes, so a page is kept as UTF-16 chunks of at most
 * {@link CHUNK_LENGTH} code units under `["pages", id, i]`, written in one atomic operation
 * with their count and expiry under `["pages", id]`, every entry with `expireIn` the TTL (Deno
 * KV deletes it after that; a get never returns an expired page). The quota counts the bytes
 * put in buckets of time under `["page_usage", bucket]` (`./usage-buckets.ts`), read before
 * each put and written in the same atomic operation, checked against the current bucket's
 * versionstamp: two puts racing in different processes cannot both pass on the same count
 * (the loser reads again). One atomic operation holds at most 800 KiB of keys and values, so a
 * `PAGE_MAX_BYTES` above about 700 KiB cannot be stored here.
 *
 * @see https://docs.deno.com/deploy/kv/manual/
 * @module
 */
import { StartupError } from "../startup.ts";
import { DEFAULT_PAGE_LIMITS, type PageLimits, PageQuotaExceeded, type PageStore, pageSize } from "../store.ts";
import { usageBuckets } from "./usage-buckets.ts";

/** Code units per chunk: 16,384 UTF-16 code units are at most 49,152 UTF-8 bytes, under the 64 KiB value limit. */
export const CHUNK_LENGTH = 16_384;

/** A Deno KV key (strings and numbers are all this store uses). */
export type DenoKvKey = readonly (string | number)[];

/** An entry as `Deno.Kv` reads it: its value and the versionstamp of its last write (`null`: absent). */
export interface DenoKvEntry {
  readonly value: unknown;
  readonly versionstamp: string | null;
}

/** The subset of an atomic operation on `Deno.Kv` used by {@link DenoKvPageStore}. */
export interface DenoKvAtomic {
  /** Makes the commit fail unless each key still has its versionstamp (`null`: still absent). */
  check(...checks: { readonly key: DenoKvKey; readonly versionstamp: string | null }[]): DenoKvAtomic;
  /** Writes `value`; Deno KV deletes it `expireIn` ms later. */
  set(key: DenoKvKey, value: unknown, options?: { expireIn?: number }): DenoKvAtomic;
  commit(): Promise<{ ok: boolean }>;
}

/** The subset of `Deno.Kv` used by {@link DenoKvPageStore}. */
export interface DenoKv {
  get(key: DenoKvKey): Promise<DenoKvEntry>;
  getMany(keys: DenoKvKey[]): Promise<DenoKvEntry[]>;
  atomic(): DenoKvAtomic;
}

/** Attempts of one put against other processes putting at the same time, before it fails. */
export const PUT_ATTEMPTS = 12;

/** The subset of `Deno.Kv` that {@link openPageKv}'s write check uses. */
export interface DenoKvWritable {
  atomic(): { delete(key: DenoKvKey): { commit(): Promise<{ ok: boolean }> } };
}

/**
 * Opens the example's Deno KV with `open` (`Deno.openKv`) and, when `check` is on (locally),
 * makes sure it can be written before the server starts: a KV file that opens but is
 * read-only otherwise fails every act. The write is the deletion of a key nothing uses,
 * `["gpt-address-write-check"]` (one commit, nothing stored). On Deno Deploy (`check` off)
 * the platform's KV is opened as it is, with no write per cold start.
 *
 * @param path - `DENO_KV_PATH`, or `undefined` for Deno's own location for the script.
 * @throws {StartupError} naming the path, Deno's error and what to do; Deno's error is its `cause`.
 */
export async function openPageKv<K extends DenoKvWritable>(
  path: string | undefined,
  open: (path: string | undefined) => Promise<K>,
  check: boolean,
): Promise<K> {
  const fail = (what: string, error: unknown): never => {
    const where = path === undefined ? "at Deno's default location for this script (DENO_KV_PATH unset)" : path;
    throw new StartupError(
      `cannot use the Deno KV ${where}: ${what}${(error instanceof Error ? error.message : String(error)).replace(/\.$/, "")}. Set DENO_KV_PATH to a file in a directory this process can write (and allow it with --allow-write).`,
      { cause: error },
    );
  };
  let kv: K | undefined;
  try {
    kv = await open(path);
  } catch (error) {
    fail("", error);
  }
  if (check) {
    try {
      await kv!.atomic().delete(["gpt-address-write-check"]).commit();
    } catch (error) {
      fail("a write failed: ", error);
    }
  }
  return kv!;
}

/** What `["pages", id]` holds: the count of chunks and when the page expires (ms since the epoch). */
interface PageEntry {
  readonly chunks: number;
  readonly expires: number;
}

function isPageEntry(value: unknown): value is PageEntry {
  if (typeof value !== "object" || value === null) return false;
  const { chunks, expires } = value as Record<string, unknown>;
  return typeof chunks === "number" && typeof expires === "number";
}

/** The bytes a usage bucket counted, 0 when absent. */
function bucketBytes(value: unknown): number {
  const bytes = (value as { bytes?: unknown } | null)?.bytes;
  return typeof bytes === "number" ? bytes : 0;
}

/** Whether `error` is local Deno KV's SQLite saying another connection holds the write lock. */
function isLocked(error: unknown): boolean {
  return error instanceof Error && /database is locked/.test(error.message);
}

/**
 * Stores rendered pages in Deno KV, within its {@link PageLimits}; see the module.
 *
 * @example
 * ```ts
 * const store = new DenoKvPageStore(await Deno.openKv(), pageLimits((name) => Deno.env.get(name)));
 * ```
 */
export class DenoKvPageStore implements PageStore {
  readonly #kv: DenoKv;
  readonly #limits: PageLimits;
  readonly #now: () => number;

  /**
   * @param limits - the store's bounds; default {@link DEFAULT_PAGE_LIMITS}.
   * @param now - the clock, in ms since the epoch (tests set it).
   */
  constructor(kv: DenoKv, limits: PageLimits = DEFAULT_PAGE_LIMITS, now: () => number = Date.now) {
    this.#kv = kv;
    this.#limits = limits;
    this.#now = now;
  }

  /** Bytes counted against the quota now (at least those of the pages kept). */
  async usage(): Promise<number> {
    const { live } = usageBuckets(this.#limits, this.#now());
    const entries = await this.#getMany(live.map((bucket) => ["page_usage", bucket]));
    return entries.reduce((sum, entry) => sum + bucketBytes(entry.value), 0);
  }

  /**
   * @throws {PageQuotaExceeded} when the buckets hold the quota.
   * @throws Error when {@link PUT_ATTEMPTS} commits all lost to other writers, or KV fails.
   */
  async put(id: string, html: string): Promise<void> {
    const bytes = pageSize(html, this.#limits);
    const chunks: string[] = [];
    let start = 0;
    do {
      let end = Math.min(start + CHUNK_LENGTH, html.length);
      // Never split a surrogate pair: each chunk stays well-formed UTF-16.
      const last = html.charCodeAt(end - 1);
      if (end < html.length && last >= 0xd800 && last <= 0xdbff) end--;
      chunks.push(html.slice(start, end));
      start = end;
    } while (start < html.length);
    for (let attempt = 0; attempt < PUT_ATTEMPTS; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** attempt));
      const now = this.#now();
      const buckets = usageBuckets(this.#limits, now);
      const keys: DenoKvKey[] = buckets.live.map((bucket) => ["page_usage", bucket]);
      const entries = await this.#getMany(keys);
      const used = entries.reduce((sum, entry) => sum + bucketBytes(entry.value), 0);
      if (used + bytes > this.#limits.quotaBytes) {
        const oldest = buckets.live.find((_, i) => bucketBytes(entries[i]!.value) > 0) ?? buckets.current;
        throw new PageQuotaExceeded((buckets.expires(oldest) - now) / 1000);
      }
      const current = entries.at(-1)!;
      const expireIn = this.#limits.ttlSeconds * 1000;
      let operation = this.#kv
        .atomic()
        .check({ key: keys.at(-1)!, versionstamp: current.versionstamp })
        .set(
          keys.at(-1)!,
          { bytes: bucketBytes(current.value) + bytes },
          { expireIn: buckets.expires(buckets.current) - now },
        );
      for (const [i, chunk] of chunks.entries()) operation = operation.set(["pages", id, i], chunk, { expireIn });
      operation = operation.set(["pages", id], { chunks: chunks.length, expires: now + expireIn }, { expireIn });
      try {
        if ((await operation.commit()).ok) return;
      } catch (error) {
        // Local Deno KV is one SQLite file: another process writing it is a lost race too.
        if (!isLocked(error)) throw error;
      }
    }
    throw new Error(`Deno KV: ${PUT_ATTEMPTS} attempts to put page ${id} lost to other writers`);
  }

  async get(id: string): Promise<string | null> {
    const { value } = await this.#kv.get(["pages", id]);
    // A bare count: a page of an earlier version, kept without an expiry.
    const count = isPageEntry(value) ? (value.expires > this.#now() ? value.chunks : null) : value;
    if (typeof count !== "number") return null;
    const keys: DenoKvKey[] = [];
    for (let i = 0; i < count; i++) keys.push(["pages", id, i]);
    const chunks: string[] = [];
    for (const entry of await this.#getMany(keys)) {
      if (typeof entry.value !== "string") return null;
      chunks.push(entry.value);
    }
    return chunks.join("");
  }

  /** `getMany` of any number of keys: Deno KV reads at most 10 at a time. */
  async #getMany(keys: readonly DenoKvKey[]): Promise<DenoKvEntry[]> {
    const entries: DenoKvEntry[] = [];
    for (let i = 0; i < keys.length; i += 10) entries.push(...(await this.#kv.getMany(keys.slice(i, i + 10))));
    return entries;
  }
}
