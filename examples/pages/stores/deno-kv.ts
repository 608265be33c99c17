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
 * with their count under `["pages", id]`.
 *
 * @see https://docs.deno.com/deploy/kv/manual/
 * @module
 */
import { StartupError } from "../startup.ts";
import type { PageStore } from "../store.ts";

/** Code units per chunk: 16,384 UTF-16 code units are at most 49,152 UTF-8 bytes, under the 64 KiB value limit. */
export const CHUNK_LENGTH = 16_384;

/** A Deno KV key (strings and numbers are all this store uses). */
export type DenoKvKey = readonly (string | number)[];

/** The subset of an atomic operation on `Deno.Kv` used by {@link DenoKvPageStore}. */
export interface DenoKvAtomic {
  set(key: DenoKvKey, value: unknown): DenoKvAtomic;
  commit(): Promise<{ ok: boolean }>;
}

/** The subset of `Deno.Kv` used by {@link DenoKvPageStore}. */
export interface DenoKv {
  get(key: DenoKvKey): Promise<{ value: unknown }>;
  getMany(keys: DenoKvKey[]): Promise<{ value: unknown }[]>;
  atomic(): DenoKvAtomic;
}

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

/**
 * Stores rendered pages in Deno KV.
 *
 * @example
 * ```ts
 * const store = new DenoKvPageStore(await Deno.openKv());
 * ```
 */
export class DenoKvPageStore implements PageStore {
  readonly #kv: DenoKv;

  constructor(kv: DenoKv) {
    this.#kv = kv;
  }

  /** @throws Error when the atomic write is not committed. */
  async put(id: string, html: string): Promise<void> {
    let operation = this.#kv.atomic();
    let count = 0;
    let start = 0;
    do {
      let end = Math.min(start + CHUNK_LENGTH, html.length);
      // Never split a surrogate pair: each chunk stays well-formed UTF-16.
      const last = html.charCodeAt(end - 1);
      if (end < html.length && last >= 0xd800 && last <= 0xdbff) end--;
      operation = operation.set(["pages", id, count], html.slice(start, end));
      count++;
      start = end;
    } while (start < html.length);
    const result = await operation.set(["pages", id], count).commit();
    if (!result.ok) throw new Error(`Deno KV did not commit page ${id}`);
  }

  async get(id: string): Promise<string | null> {
    const { value: count } = await this.#kv.get(["pages", id]);
    if (typeof count !== "number") return null;
    const keys: DenoKvKey[] = [];
    for (let i = 0; i < count; i++) keys.push(["pages", id, i]);
    const chunks: string[] = [];
    // getMany reads at most 10 keys at a time.
    for (let i = 0; i < keys.length; i += 10) {
      for (const entry of await this.#kv.getMany(keys.slice(i, i + 10))) {
        if (typeof entry.value !== "string") return null;
        chunks.push(entry.value);
      }
    }
    return chunks.join("");
  }
}
