/**
 * A {@link PageStore} over an HTTP key-value service speaking the Upstash Redis REST
 * protocol, for runtimes with no local storage (Vercel Edge).
 *
 * Each operation is one `POST` of a Redis command as a JSON array to the service's base
 * URL, with `Authorization: Bearer <token>`; the answer is `{"result": …}` or
 * `{"error": "…"}`.
 *
 * @see https://upstash.com/docs/redis/features/restapi
 * @module
 */
import type { PageStore } from "../store.ts";

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

  /** @throws Error when the service does not answer `OK`. */
  async put(id: string, html: string): Promise<void> {
    const result = await this.#command(["SET", this.#key(id), html]);
    if (result !== "OK") throw new Error(`Redis SET answered ${JSON.stringify(result)}`);
  }

  /** @throws Error when the service fails or answers something other than a string or null. */
  async get(id: string): Promise<string | null> {
    const result = await this.#command(["GET", this.#key(id)]);
    if (result === null || typeof result === "string") return result;
    throw new Error("Redis GET answered a non-string");
  }

  #key(id: string): string {
    return (this.#options.prefix ?? "page:") + id;
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
