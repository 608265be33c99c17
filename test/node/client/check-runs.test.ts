/**
 * `check --act` on an address that offers runs (docs/runs.md): the act goes with
 * `Prefer: respond-async`, and the run URL of its 202 is checked as a client sees it (Location
 * under the address, the run's state on every read, Retry-After, no-store, the end, DELETE, an
 * unknown run 404 with no content). A good address passes every run point; one whose 404 has a
 * body, or whose 202 has no Location, is named for it; an address without runs gets `n/a`. A
 * Location elsewhere is named and not followed; a full store (503 with Retry-After) decides
 * nothing; what the server wrote reaches the table with its control characters escaped.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type CheckReport, checkAddress } from "../../../src/client/check.ts";
import { runCli } from "../cli/run-cli.ts";
import { type RenderAddress, type RenderAddressOptions, serveRenderAddress } from "./render-address.ts";
import { root, type Served, serveExample } from "./servers.ts";

let server: RenderAddress | Served | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const serve = async (options: RenderAddressOptions = {}) => {
  const served = await serveRenderAddress({ stepMs: 150, pollIntervalMs: 250, ...options });
  server = served;
  return served;
};
const point = (report: CheckReport, id: string) => report.points.find((p) => p.id === id);
const RUN_POINTS = [
  "run-location",
  "run-accepted",
  "run-state",
  "run-retry-after",
  "run-no-store",
  "run-end",
  "run-delete",
  "run-unknown",
];

describe("check --act on an address with runs", () => {
  it("a good address: every run point passes, the act passes through its run, and the verdict is conforms", async () => {
    const address = await serve();
    const report = await checkAddress(address.address, { act: true, runTimeoutMs: 20_000 });
    for (const id of RUN_POINTS) expect(point(report, id), id).toMatchObject({ outcome: "pass" });
    expect(point(report, "act")).toMatchObject({
      outcome: "pass",
      detail: expect.stringMatching(/^202, a run that ended completed/),
    });
    expect(report.verdict, JSON.stringify(report.points.filter((p) => p.outcome === "fail"))).toBe("conforms");
    const post = address.seen.find((r) => r.method === "POST" && r.headers.prefer !== undefined)!;
    expect(post.headers.prefer).toBe("respond-async");
    // The unknown run was asked for by GET and DELETE, beside the real one.
    expect(address.seen.filter((r) => r.path.startsWith("/render/runs/") && r.method === "DELETE")).toHaveLength(2);
  });

  it("a 404 with content for an unknown run fails run-unknown (MUST)", async () => {
    const address = await serve({ notFoundBody: true });
    const report = await checkAddress(address.address, { act: true, runTimeoutMs: 20_000 });
    expect(point(report, "run-unknown")).toMatchObject({
      outcome: "fail",
      detail: "GET → 404 with 11 bytes; DELETE → 404 with 11 bytes",
    });
    expect(point(report, "run-end")?.outcome).toBe("pass");
    expect(report.verdict).toBe("does-not-conform");
  });

  it("a 202 without Location fails run-location and the act; what needs the run URL is skipped; the table names them (exit 1)", async () => {
    const address = await serve({ noLocation: true });
    const report = await checkAddress(address.address, { act: true });
    expect(point(report, "run-location")).toMatchObject({
      outcome: "fail",
      detail: expect.stringMatching(/no Location/),
    });
    expect(point(report, "act")?.outcome).toBe("fail");
    for (const id of ["run-state", "run-end", "run-delete", "run-unknown"])
      expect(point(report, id)?.outcome, id).toBe("skip");
    const cli = await runCli(["check", address.address, "--act"], root);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(/^FAIL\s+MUST\s+run-location\s+runs\.md\s/m);
    expect(cli.stdout).toMatch(/does not conform: MUST failed: .*run-location/);
  });

  it("a working run's read without Retry-After is a SHOULD warning only", async () => {
    const address = await serve({ retryAfter: null, stepMs: 200 });
    const report = await checkAddress(address.address, { act: true, runTimeoutMs: 20_000 });
    expect(point(report, "run-retry-after")?.outcome).toBe("warn");
    expect(point(report, "run-accepted")).toMatchObject({ outcome: "warn", detail: "missing: Retry-After" });
    expect(report.verdict).toBe("conforms");
  });

  it("an address without runs answers the act as before: the run points are left out, `runs` is n/a", async () => {
    const example = await serveExample();
    server = example;
    const report = await checkAddress(`${example.url}/feedback`, { act: true });
    expect(point(report, "runs")).toMatchObject({ outcome: "n/a", detail: expect.stringMatching(/^answered 200/) });
    expect(point(report, "act")?.outcome).toBe("pass");
    expect(report.points.some((p) => p.id.startsWith("run-"))).toBe(false);
  });

  it("a full run store (503 with Retry-After) decides nothing: act and runs are skipped, the verdict inconclusive (exit 1)", async () => {
    // A store of one run, held by a long act: the check's act asks for a second one.
    const address = await serve({ maxRuns: 1, stepMs: 1_000 });
    const first = await fetch(address.address, {
      method: "POST",
      headers: { "content-type": "application/json", prefer: "respond-async" },
      body: JSON.stringify({ title: "Long", pages: 100 }),
    });
    expect(first.status).toBe(202);
    await first.body?.cancel();
    const report = await checkAddress(address.address, { act: true });
    expect(point(report, "act")).toMatchObject({
      outcome: "skip",
      detail: expect.stringMatching(/^unavailable for now \(503, Retry-After \d+: the run store is full/),
    });
    expect(point(report, "runs")).toMatchObject({
      outcome: "skip",
      detail: expect.stringMatching(/run store is full/),
    });
    expect(report.verdict).toBe("inconclusive");
    expect(report.untested).toEqual(["act"]);
    const cli = await runCli(["check", address.address, "--act"], root);
    expect(cli.code).toBe(1);
    expect(cli.stdout).not.toMatch(/FAIL\s+MUST\s+act/);
    expect(cli.stdout).not.toMatch(/no runs offered/);
    expect(cli.stdout).toMatch(/inconclusive: MUST not tested: act \(unavailable for now \(503/);
  });

  it("a Location on another host fails run-location and is not followed: nothing is sent there", async () => {
    const elsewhere = await serveRenderAddress();
    try {
      const address = await serve({ location: (run) => `${elsewhere.url}${new URL(run).pathname}` });
      const report = await checkAddress(address.address, { act: true });
      expect(point(report, "run-location")).toMatchObject({
        outcome: "fail",
        detail: expect.stringMatching(/not under the address: not followed/),
      });
      for (const id of ["run-state", "run-end", "run-delete", "run-unknown"])
        expect(point(report, id)?.outcome, id).toBe("skip");
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it("the server's words reach the table with control characters escaped (a C1 CSI in Location)", async () => {
    const address = await serve({ location: (run) => `${run}\u009b2J\u009b31mred` });
    const cli = await runCli(["check", address.address, "--act"], root);
    expect(cli.stdout).toMatch(/^FAIL\s+MUST\s+run-location\s/m);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the terminal
    expect(cli.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(cli.stdout).toContain("\\u009b2J");
    const json = await runCli(["check", address.address, "--act", "--format", "json"], root);
    expect(json.stdout).not.toMatch(/[\u007f-\u009f]/);
    const location = (JSON.parse(json.stdout) as CheckReport).points.find((p) => p.id === "run-location")!.detail;
    expect(location).toContain("\u009b2J");
  });
});
