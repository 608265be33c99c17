/**
 * A short, bounded run of `npm run bench:hostile`'s mix (bench/hostile-mix.ts) on Node and on
 * workerd (issue 15, section 5): a few seconds of valid acts among malformed, oversize,
 * chunked, slow, cut-off and disconnecting requests. Asserted here: no 5xx, no crash, every
 * valid act answered 200, resident memory under 1 GiB, slow clients cut off within the body
 * deadline, normal answers afterwards, exit on SIGTERM. Latency ratios are the bench's, never
 * a test's.
 */
import { describe, expect, it } from "vitest";
import { hostileMix, terminate } from "../../bench/hostile-mix.ts";
import { DEFAULT_BODY_DEADLINE_MS } from "../../src/body/read-body.ts";
import { launch, type RuntimeName } from "./harness.ts";

for (const name of ["node", "workerd"] as RuntimeName[]) {
  describe(`${name}: a short hostile mix`, () => {
    it("S1 V1 no 5xx, no crash, valid acts served, bounded memory, slow clients cut off, normal afterwards, SIGTERM exits", async () => {
      const server = await launch(name);
      const report = await hostileMix(server, { seconds: 6, attackers: 4, slow: 2 }).catch(async (error) => {
        await server.stop();
        throw error;
      });
      const exit = await terminate(server);
      const summary = JSON.stringify(report.statuses);
      expect(report.serverErrors, summary).toBe(0);
      expect(report.survived, server.output()).toBe(true);
      expect(report.validFailures, summary).toBe(0);
      expect(report.total).toBeGreaterThan(50);
      expect(report.rssMaxMiB).toBeLessThan(1_024);
      expect(report.slowClients).toBeGreaterThan(0);
      expect(report.slowLongestMs).toBeLessThanOrEqual(DEFAULT_BODY_DEADLINE_MS + 3_000);
      expect(report.answersAfter).toBe(true);
      expect(exit.signal === "none within 10 s", JSON.stringify(exit)).toBe(false);
      expect(exit.ms).toBeLessThan(5_000);
    });
  });
}
