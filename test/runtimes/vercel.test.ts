import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryPageStore } from "../../examples/pages/store.ts";
import { UpstashPageStore, upstashOrMemory } from "../../examples/pages/stores/upstash.ts";
import { startFakeUpstash } from "./fake-upstash.ts";
import { launch, type Running, root } from "./harness.ts";
import { mcpSuite } from "./mcp.ts";
import { wireSuite } from "./wire.ts";

wireSuite("vercel");
mcpSuite("vercel");

const recipe = readFileSync(join(root, "test/fixtures/page/valid-recipe.json"));

describe("vercel: the store comes from the environment, and start-up says which", () => {
  it("both variables set: Upstash; either one missing or wrong: memory, naming the variable", () => {
    const configured = upstashOrMemory({
      UPSTASH_REDIS_REST_URL: "https://eu1-x.upstash.io",
      UPSTASH_REDIS_REST_TOKEN: "t",
    });
    expect(configured.store).toBeInstanceOf(UpstashPageStore);
    expect(configured.message).toBe("pages are stored in Upstash Redis at https://eu1-x.upstash.io");
    const cases: [Record<string, string>, string[]][] = [
      [{}, ["UPSTASH_REDIS_REST_URL is not set", "UPSTASH_REDIS_REST_TOKEN is not set"]],
      [{ UPSTASH_REDIS_REST_URL: "", UPSTASH_REDIS_REST_TOKEN: "" }, ["URL is not set", "TOKEN is not set"]],
      [{ UPSTASH_REDIS_REST_URL: "https://eu1-x.upstash.io" }, ["UPSTASH_REDIS_REST_TOKEN is not set"]],
      [{ UPSTASH_REDIS_REST_TOKEN: "t" }, ["UPSTASH_REDIS_REST_URL is not set"]],
      [{ UPSTASH_REDIS_REST_URL: "eu1-x.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t" }, ["not an http(s) URL"]],
      [{ UPSTASH_REDIS_REST_URL: "file:///etc/passwd", UPSTASH_REDIS_REST_TOKEN: "t" }, ["not an http(s) URL"]],
    ];
    for (const [env, named] of cases) {
      const chosen = upstashOrMemory(env);
      expect(chosen.store, JSON.stringify(env)).toBeInstanceOf(MemoryPageStore);
      expect(chosen.upstash).toBe(false);
      expect(chosen.message).toMatch(/^pages are kept in memory/);
      for (const part of named) expect(chosen.message).toContain(part);
    }
  });

  describe("npm run serve:vercel with no Upstash credentials", () => {
    let server: Running | undefined;
    afterAll(async () => await server?.stop());

    it("says at start-up that pages are kept in memory, and a valid act is 200 with a page that is served", async () => {
      // Empty values override any UPSTASH_* of the test's own environment: not set.
      server = await launch("vercel", { UPSTASH_REDIS_REST_URL: "", UPSTASH_REDIS_REST_TOKEN: "" });
      expect(server.output()).toMatch(/pages are kept in memory.*UPSTASH_REDIS_REST_URL is not set/);
      const response = await fetch(`${server.url}/page`, { method: "POST", body: recipe });
      expect(response.status).toBe(200);
      const { url } = (await response.json()) as { url: string };
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Crème brûlée for two");
      // Control: an invalid act is still the silent 204.
      const rejected = await fetch(`${server.url}/page`, { method: "POST", body: "{}" });
      expect(rejected.status).toBe(204);
    });

    it("control: with both variables set it says Upstash, and the page goes there", async () => {
      const upstash = await startFakeUpstash();
      const configured = await launch("vercel", {
        UPSTASH_REDIS_REST_URL: upstash.url,
        UPSTASH_REDIS_REST_TOKEN: upstash.token,
      });
      try {
        expect(configured.output()).toContain(`pages are stored in Upstash Redis at ${upstash.url}`);
        expect(configured.output()).not.toContain("in memory");
        const response = await fetch(`${configured.url}/page`, { method: "POST", body: recipe });
        expect(response.status).toBe(200);
        expect(upstash.commands).toEqual(["EVAL"]); // the put, within the quota
      } finally {
        await configured.stop();
        await upstash.close();
      }
    });
  });
});
