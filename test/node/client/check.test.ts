import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckReport, checkAddress } from "../../../src/client/check.ts";
import { type BrokenAddress, type Served, serveBrokenAddress, serveExample } from "./servers.ts";

const outcome = (report: CheckReport, id: string) => report.points.find((p) => p.id === id)?.outcome;
const failing = (report: CheckReport) => report.points.filter((p) => p.outcome === "fail").map((p) => p.id);

describe("check: black-box conformance of an address", () => {
  let example: Served;
  let broken: BrokenAddress;
  beforeAll(async () => {
    [example, broken] = await Promise.all([serveExample(), serveBrokenAddress()]);
  });
  afterAll(async () => {
    await Promise.all([example?.close(), broken?.close()]);
  });

  it("A1 A2 V1 V2 R2 H1 passes the example page address on Node, every MUST point tried, nothing acted without --act", async () => {
    const report = await checkAddress(`${example.url}/page`);
    expect(failing(report)).toEqual([]);
    expect(report.ok).toBe(true);
    for (const id of [
      "arrival",
      "arrival-document",
      "form-schema",
      "duplicate-name",
      "duplicate-name-escaped",
      "duplicate-name-nested",
      "trailing-bytes",
      "invalid-utf8",
      "byte-order-mark",
      "lone-surrogate",
      "oversize",
      "invalid-value",
      "gpt-actor",
    ]) {
      expect(outcome(report, id), id).toBe("pass");
    }
    expect(outcome(report, "act")).toBe("skip");
  });

  it("R1 with act: true, the example's own value is acted on once and answered with 200 JSON", async () => {
    const report = await checkAddress(`${example.url}/page`, { act: true });
    expect(outcome(report, "act")).toBe("pass");
    expect(report.ok).toBe(true);
  });

  it("V1 V2 C1 fails an address whose parser is JSON.parse, naming each point it acted on", async () => {
    const report = await checkAddress(`${broken.url}/page`);
    expect(report.ok).toBe(false);
    expect(failing(report).sort()).toEqual(
      [
        "byte-order-mark",
        "duplicate-name",
        "duplicate-name-escaped",
        "duplicate-name-nested",
        "invalid-utf8",
        "lone-surrogate",
        "oversize",
      ].sort(),
    );
    // JSON.parse itself refuses bytes after the value, and the validator refuses invalid values:
    // those points pass on the broken address too, so the failures above are the parser's.
    expect(outcome(report, "trailing-bytes")).toBe("pass");
    expect(outcome(report, "invalid-value")).toBe("pass");
    expect(outcome(report, "arrival-document")).toBe("pass");
    const duplicate = report.points.find((p) => p.id === "duplicate-name")!;
    expect(duplicate).toMatchObject({ requirement: "V2", level: "MUST" });
    expect(duplicate.detail).toMatch(/acted on \(200\)/);
    // The probes were values a lenient parser takes as valid: the broken address acted on them.
    expect(broken.acted.length).toBe(failing(report).length);
  });

  it("A1 fails an address that needs an Accept header for its form (406 without it)", async () => {
    const report = await checkAddress(`${broken.url}/needs-header`);
    expect(report.ok).toBe(false);
    expect(report.points[0]).toMatchObject({ id: "arrival", requirement: "A1", outcome: "fail" });
    expect(report.points[0]!.detail).toContain("406");
  });

  it("A2 fails an address that serves its form as text/plain; the JSON itself is still read", async () => {
    const report = await checkAddress(`${broken.url}/text-plain`);
    expect(failing(report)).toContain("arrival-media-type");
    expect(outcome(report, "arrival-document")).toBe("pass");
    expect(report.ok).toBe(false);
  });

  it("H1 fails an address where GPT-Actor changes the answer (a self-declared admin is let through)", async () => {
    const report = await checkAddress(`${broken.url}/actor-gate`);
    expect(failing(report)).toEqual(["gpt-actor"]);
    expect(report.points.find((p) => p.id === "gpt-actor")!.detail).toContain("GPT-Actor: admin → 200");
  });

  it("a rate-limited act (429) decides nothing: the probes are skipped with the reason, never passed", async () => {
    const report = await checkAddress(`${broken.url}/limited`);
    for (const id of ["duplicate-name", "invalid-utf8", "oversize", "invalid-value", "gpt-actor"]) {
      expect(outcome(report, id), id).toBe("skip");
    }
    expect(report.points.find((p) => p.id === "duplicate-name")!.detail).toContain(
      "rate limited (429, Retry-After 30)",
    );
    // Nothing failed, but MUST points were not tried: never "conforms".
    expect(report).toMatchObject({ verdict: "inconclusive", ok: false });
    expect(report.untested).toEqual(expect.arrayContaining(["duplicate-name", "oversize", "gpt-actor"]));
  });

  it("V2 a probe no value of the form could carry is n/a, not untested: the flat feedback form conforms", async () => {
    const report = await checkAddress(`${example.url}/feedback`);
    expect(report.points.find((p) => p.id === "duplicate-name-nested")).toMatchObject({
      outcome: "n/a",
      detail: "not applicable: s admits no object below the top",
    });
    expect(report).toMatchObject({ verdict: "conforms", ok: true, untested: [], probeValue: "example" });
  });

  it("A1 fails an address that answers its form with 404, and names the status", async () => {
    const report = await checkAddress(`${example.url}/no-such-address`);
    expect(report.ok).toBe(false);
    expect(report.points[0]).toMatchObject({ id: "arrival", outcome: "fail" });
    expect(report.points[0]!.detail).toContain("404");
  });
});
