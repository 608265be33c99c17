/**
 * `check` against the example address on real runtimes, each started by the wire suite's
 * harness on loopback: every MUST point passes on Node and on workerd, the act included, and
 * the render address's act is followed as a run through every run point.
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
        .filter((p) => p.outcome !== "pass" && p.id !== "runs")
        .map((p) => `${p.id}: ${p.outcome} ${p.detail}`);
      expect(notPassed).toEqual([]);
      // The page address offers no runs: its act, sent asking for one, is answered at once.
      expect(report.points.find((p) => p.id === "runs")?.outcome).toBe("n/a");
      // The 10 MiB upload is answered from its head (Expect: 100-continue), never lost.
      expect(report.points.find((p) => p.id === "oversize")?.detail).toBe("refused (204)");
      expect(report.ok).toBe(true);
      expect(report.points.length).toBeGreaterThanOrEqual(25);
    });

    it(`X4 the render address passes every point on ${name}, its act followed as a run (docs/runs.md)`, async () => {
      const report = await checkAddress(`${server!.url}/render`, { act: true });
      // Its form is flat: the nested-duplicate point does not apply; every other one passes.
      const notPassed = report.points
        .filter((p) => p.outcome !== "pass" && p.id !== "duplicate-name-nested")
        .map((p) => `${p.id}: ${p.outcome} ${p.detail}`);
      expect(notPassed).toEqual([]);
      const passed = report.points.filter((p) => p.outcome === "pass").map((p) => p.id);
      for (const id of ["run-location", "run-state", "run-end", "run-delete", "run-unknown"]) {
        expect(passed).toContain(id);
      }
      expect(report.ok).toBe(true);
    });

    it(`the feedback address passes too on ${name}`, async () => {
      const report = await checkAddress(`${server!.url}/feedback`);
      expect(report.points.filter((p) => p.outcome === "fail")).toEqual([]);
    });
  });
}
