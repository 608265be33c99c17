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
import { MemoryPageStore, type PageStore } from "../store.ts";

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
export function upstashOrMemory(env: Readonly<Record<string, string | undefined>>): ChosenStore {
  const url = env.UPSTASH_REDIS_REST_URL ?? "";
  const token = env.UPSTASH_REDIS_REST_TOKEN ?? "";
  const problems: string[] = [];
  if (url === "") problems.push("UPSTASH_REDIS_REST_URL is not set");
  else if (!isHttpUrl(url)) problems.push("UPSTASH_REDIS_REST_URL is not an http(s) URL");
  if (token === "") problems.push("UPSTASH_REDIS_REST_TOKEN is not set");
  if (problems.length === 0) {
    return {
      store: new UpstashPageStore({ url, token }),
      upstash: true,
      message: `pages are stored in Upstash Redis at ${new URL(url).origin}`,
    };
  }
  return {
    store: new MemoryPageStore(),
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
