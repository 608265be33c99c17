/**
 * The PageStore contract, for the stores that run inside workerd: in memory and Workers KV.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MemoryPageStore, type PageStore } from "../../examples/pages/store.ts";
import { WorkersKvPageStore } from "../../examples/pages/stores/workers-kv.ts";

const stores: [string, () => PageStore][] = [
  ["MemoryPageStore", () => new MemoryPageStore()],
  ["WorkersKvPageStore", () => new WorkersKvPageStore(env.PAGES, `test-${crypto.randomUUID()}:`)],
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
  });
}
