/**
 * A short, bounded run of `npm run bench:hostile`'s mix (bench/hostile-mix.ts) on Node and on
 * workerd (issue 15, section 5): a few seconds of valid acts among malformed, oversize,
 * chunked, slow, cut-off and disconnecting requests, and run traffic on the render address.
 * Asserted here: no 5xx, no crash, every valid act answered 200, every run request answered as
 * docs/runs.md says, resident memory under 1 GiB, slow clients cut off within the body deadline,
 * normal answers afterwards, the run store within its quota (filled after the mix: 503 with
 * `Retry-After` past it), exit on SIGTERM. Latency ratios are the bench's, never a test's.
 */
import { describe, expect, it } from "vitest";
import { fillRunStore, hostileMix, RUN_SETTINGS, terminate } from "../../bench/hostile-mix.ts";
import { DEFAULT_BODY_DEADLINE_MS } from "../../src/body/read-body.ts";
import { launch, type RuntimeName } from "./harness.ts";

for (const name of ["node", "workerd"] as RuntimeName[]) {
  describe(`${name}: a short hostile mix`, () => {
    it("S1 V1 no 5xx, no crash, valid acts served, runs answered as the protocol says, bounded memory, slow clients cut off, normal afterwards, the run quota holds, SIGTERM exits", async () => {
      const server = await launch(name, RUN_SETTINGS);
      const maxRuns = Number(RUN_SETTINGS.RUNS_MAX);
      const [report, filled] = await (async () => {
        const mixed = await hostileMix(server, { seconds: 6, attackers: 4, slow: 2 });
        return [mixed, await fillRunStore(server, maxRuns)] as const;
      })().catch(async (error) => {
        await server.stop();
        throw error;
      });
      const exit = await terminate(server);
      const summary = JSON.stringify(report.statuses);
      expect(report.serverErrors, summary).toBe(0);
      expect(report.survived, server.output()).toBe(true);
      expect(report.validFailures, summary).toBe(0);
      expect(report.runsCreated, summary).toBeGreaterThan(0);
      expect(report.runFailures, summary).toBe(0);
      expect(filled.accepted).toBeLessThanOrEqual(maxRuns);
      expect(filled.refusal).toBe(503);
      expect(Number(filled.retryAfter)).toBeGreaterThanOrEqual(1);
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
