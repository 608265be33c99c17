/**
 * `check` against the example address on real runtimes, each started by the wire suite's
 * harness on loopback: every MUST point passes on Node and on workerd, the act included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAddress } from "../../src/client/check.ts";
import { launch, type Running, type RuntimeName } from "./harness.ts";

for (const name of ["node", "workerd"] as const satisfies readonly RuntimeName[]) {
  describe(`check on ${name}`, { timeout: 60_000 }, () => {
    let server: Running | undefined;
    beforeAll(async () => {
      server = await launch(name);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it(`A1 A2 A5 A6 V1 V2 R1 R2 H1 the example page address passes every point on ${name}, the act (--act) included`, async () => {
      const report = await checkAddress(`${server!.url}/page`, { act: true });
      const notPassed = report.points
        .filter((p) => p.outcome !== "pass")
        .map((p) => `${p.id}: ${p.outcome} ${p.detail}`);
      expect(notPassed).toEqual([]);
      // The 10 MiB upload is answered from its head (Expect: 100-continue), never lost.
      expect(report.points.find((p) => p.id === "oversize")?.detail).toBe("refused (204)");
      expect(report.ok).toBe(true);
      expect(report.points.length).toBeGreaterThanOrEqual(25);
    });

    it(`the feedback address passes too on ${name}`, async () => {
      const report = await checkAddress(`${server!.url}/feedback`);
      expect(report.points.filter((p) => p.outcome === "fail")).toEqual([]);
    });
  });
}
