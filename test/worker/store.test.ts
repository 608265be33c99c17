/**
 * The PageStore contract, for the stores that run inside workerd: in memory and Workers KV
 * (Miniflare's), with the bounds every store keeps (issue 31): a size cap, a TTL on every page,
 * and a quota refused with the seconds until room is made.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  MemoryPageStore,
  type PageLimits,
  PageQuotaExceeded,
  type PageStore,
  PageTooLarge,
} from "../../examples/pages/store.ts";
import { USAGE_REFRESH_MS, WorkersKvPageStore } from "../../examples/pages/stores/workers-kv.ts";

/** Pages of at most 1,000 bytes, 3,000 in all, kept 10 minutes. */
const LIMITS: PageLimits = { maxPageBytes: 1_000, ttlSeconds: 600, quotaBytes: 3_000 };
const KILOBYTE = "x".repeat(1_000);

const stores: [string, (limits?: PageLimits, now?: () => number) => PageStore][] = [
  ["MemoryPageStore", (limits, now) => new MemoryPageStore(limits, now)],
  [
    "WorkersKvPageStore",
    (limits, now) => new WorkersKvPageStore(env.PAGES, `test-${crypto.randomUUID()}:`, limits, now),
  ],
];

for (const [name, create] of stores) {
  describe(name, () => {
    it("get of an unknown id is null", async () => {
      expect(await create().get(crypto.randomUUID())).toBeNull();
    });

    it("put then get returns the same text, Unicode included; put again replaces", async () => {
      const store = create();
      const id = crypto.randomUUID();
      const html = "<p>Crème brûlée 🍮 東京 👨‍👩‍👧</p>".repeat(1000);
      await store.put(id, html);
      expect(await store.get(id)).toBe(html);
      await store.put(id, "<p>2</p>");
      expect(await store.get(id)).toBe("<p>2</p>");
    });

    it("refuses a page over the size cap (counted in UTF-8 bytes) and keeps nothing of it", async () => {
      const store = create(LIMITS);
      await expect(store.put("big", `${KILOBYTE.slice(1)}é`)).rejects.toThrow(PageTooLarge);
      expect(await store.get("big")).toBeNull();
      await store.put("fits", `${KILOBYTE.slice(2)}é`);
    });

    it("refuses a page past the quota with the seconds until the oldest page expires, and keeps nothing of it", async () => {
      const now = Date.now();
      const store = create(LIMITS, () => now);
      for (const id of ["a", "b", "c"]) await store.put(id, KILOBYTE);
      const refusal = await store.put("d", "y").catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(PageQuotaExceeded);
      const retryAfter = (refusal as PageQuotaExceeded).retryAfterSeconds;
      expect(retryAfter).toBeGreaterThan(598);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(await store.get("d")).toBeNull();
    });
  });
}

describe("WorkersKvPageStore on Workers KV", () => {
  it("puts each page with expirationTtl the TTL and its size as metadata", async () => {
    const prefix = `ttl-${crypto.randomUUID()}:`;
    const store = new WorkersKvPageStore(env.PAGES, prefix, LIMITS);
    const before = Date.now() / 1000;
    await store.put("a", "é".repeat(10));
    const { keys } = await env.PAGES.list({ prefix });
    expect(keys).toHaveLength(1);
    expect(keys[0]!.metadata).toEqual({ bytes: 20 });
    expect(keys[0]!.expiration).toBeGreaterThanOrEqual(Math.floor(before) + 600);
    expect(keys[0]!.expiration).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 600);
    expect(await store.usage()).toBe(20);
  });

  it("another isolate's store sees the pages once it lists them (at most USAGE_REFRESH_MS later)", async () => {
    const prefix = `shared-${crypto.randomUUID()}:`;
    let now = Date.now();
    const first = new WorkersKvPageStore(env.PAGES, prefix, LIMITS, () => now);
    const second = new WorkersKvPageStore(env.PAGES, prefix, LIMITS, () => now);
    await second.put("s", KILOBYTE); // lists (empty), then keeps its own count
    for (const id of ["a", "b"]) await first.put(id, KILOBYTE); // lists (1,000), then 3,000
    await expect(first.put("c", "y")).rejects.toThrow(PageQuotaExceeded);
    // The second counted only its own page until it lists again.
    now += USAGE_REFRESH_MS;
    await expect(second.put("t", "y")).rejects.toThrow(PageQuotaExceeded);
    expect(await first.usage()).toBe(3_000);
  });
});
