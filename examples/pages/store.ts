/**
 * Where the example page address keeps rendered pages: the {@link PageStore} interface and the
 * in-memory store. Stores for each runtime are in `./stores/` (Workers KV, Deno KV, SQLite,
 * Upstash REST).
 *
 * @module
 */

/** Stored pages, by id. */
export interface PageStore {
  /** Stores the rendered page `html` under `id`, replacing any page stored under it. */
  put(id: string, html: string): Promise<void>;
  /** The page stored under `id`, or `null`. */
  get(id: string): Promise<string | null>;
}

/**
 * Keeps pages in a `Map` for the life of the isolate or process: for tests, and for an entry
 * whose real store is not configured (the Vercel entry without its Upstash variables), since
 * nothing survives a restart and serverless instances do not share it.
 */
export class MemoryPageStore implements PageStore {
  readonly #pages = new Map<string, string>();

  async put(id: string, html: string): Promise<void> {
    this.#pages.set(id, html);
  }

  async get(id: string): Promise<string | null> {
    return this.#pages.get(id) ?? null;
  }
}
