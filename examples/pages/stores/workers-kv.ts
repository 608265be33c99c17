/**
 * A {@link PageStore} on Cloudflare Workers KV (kept locally under `.wrangler/state` by
 * `wrangler dev`).
 *
 * @see https://developers.cloudflare.com/kv/api/
 * @module
 */
import type { PageStore } from "../store.ts";

/** The subset of a Workers KV namespace binding (`KVNamespace`) used here. */
export interface KvNamespaceLike {
  get(key: string, type: "text"): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
}

/**
 * Stores each page as a text value under `<prefix><id>`.
 *
 * @example
 * ```ts
 * createExampleApp((c) => new WorkersKvPageStore(c.env.PAGES));
 * ```
 */
export class WorkersKvPageStore implements PageStore {
  readonly #kv: KvNamespaceLike;
  readonly #prefix: string;

  /**
   * @param kv - the KV namespace binding.
   * @param prefix - prefix of every key; default `"page:"`.
   */
  constructor(kv: KvNamespaceLike, prefix = "page:") {
    this.#kv = kv;
    this.#prefix = prefix;
  }

  async put(id: string, html: string): Promise<void> {
    await this.#kv.put(this.#prefix + id, html);
  }

  async get(id: string): Promise<string | null> {
    return this.#kv.get(this.#prefix + id, "text");
  }
}
