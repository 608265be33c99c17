/**
 * `gpt-address check` against a plain address (test/node/client/plain-address.ts: `node:http`
 * only) whose `m` holds no example (issue 32 item 5): the probes are built on values generated
 * from `s`, so every MUST point is tried: a conforming address exits 0, and one that accepts
 * duplicate names, bytes after the value, invalid UTF-8 or an oversize body exits 1 naming the
 * point. When no value can be had, the verdict is inconclusive (exit 1), naming what was not
 * tested, never "conforms".
 */
import { afterEach, describe, expect, it } from "vitest";
import type { CheckReport } from "../../../src/client/check.ts";
import { type Leniency, type PlainAddress, type PlainOptions, servePlainAddress } from "../client/plain-address.ts";
import { runCli } from "./run-cli.ts";

/** The refusal probes and checks that are MUST points: each must be tried on a generated value. */
const MUST_PROBES = [
  "duplicate-name",
  "duplicate-name-escaped",
  "duplicate-name-nested",
  "trailing-bytes",
  "invalid-utf8",
  "oversize",
  "invalid-value",
  "gpt-actor",
];

let address: PlainAddress | undefined;
afterEach(async () => {
  await address?.close();
  address = undefined;
});

async function check(options: PlainOptions): Promise<{ code: number; report: CheckReport; text: string }> {
  address = await servePlainAddress(options);
  const json = await runCli(["check", address.url, "--format", "json"], process.cwd());
  const text = await runCli(["check", address.url], process.cwd());
  expect(text.code).toBe(json.code);
  return { code: json.code, report: JSON.parse(json.stdout) as CheckReport, text: text.stdout };
}
const outcomes = (report: CheckReport, ids: readonly string[]) =>
  Object.fromEntries(ids.map((id) => [id, report.points.find((p) => p.id === id)?.outcome]));

describe("gpt-address check, m without an example: probes on values generated from s", () => {
  it("V1 V2 C1 R2 H1: a conforming plain address exits 0; every MUST probe was tried and passed; nothing acted", async () => {
    const { code, report, text } = await check({});
    expect(outcomes(report, MUST_PROBES)).toEqual(Object.fromEntries(MUST_PROBES.map((id) => [id, "pass"])));
    expect(report).toMatchObject({ verdict: "conforms", ok: true, untested: [], probeValue: "generated" });
    expect(report.points.find((p) => p.id === "duplicate-name")!.detail).toContain("generated from s");
    expect(code).toBe(0);
    expect(text).toMatch(/conforms \(.*probes on a value generated from s\)/);
    expect(address!.acts).toEqual([]);
  });

  for (const [fault, failing] of [
    ["duplicates", ["duplicate-name", "duplicate-name-escaped", "duplicate-name-nested"]],
    ["trailing", ["trailing-bytes"]],
    ["utf8", ["invalid-utf8"]],
    ["oversize", ["oversize"]],
  ] as const) {
    it(`V1 V2 C1: an address lenient on ${fault} exits 1, naming ${failing.join(", ")}`, async () => {
      const { code, report, text } = await check({ lenient: { [fault]: true } as Leniency });
      const failed = report.points.filter((p) => p.level === "MUST" && p.outcome === "fail").map((p) => p.id);
      expect(failed).toEqual(failing);
      expect(report.verdict).toBe("does-not-conform");
      expect(code).toBe(1);
      expect(text).toContain(`does not conform: MUST failed: ${failing.join(", ")}`);
      // A lenient address acted on the probes (once per run: json, then text): values the form accepts.
      expect(address!.acts.length).toBe(2 * failing.length);
    });
  }

  it("no value to build on (a pattern the generator cannot write): inconclusive, exit 1, naming what was not tested", async () => {
    const form = { type: "string", pattern: "^(?=.*[0-9])[a-z0-9]{8}$" };
    const { code, report, text } = await check({ form });
    expect(report.verdict).toBe("inconclusive");
    expect(report.ok).toBe(false);
    expect(report.untested).toEqual(
      expect.arrayContaining(["duplicate-name", "trailing-bytes", "oversize", "invalid-utf8"]),
    );
    expect(report.points.filter((p) => p.outcome === "fail")).toEqual([]);
    expect(code).toBe(1);
    expect(text).toContain(
      "inconclusive: MUST not tested: duplicate-name, duplicate-name-escaped, duplicate-name-nested, trailing-bytes, invalid-utf8, oversize, invalid-value, gpt-actor (no value to build probes on",
    );
    expect(text).not.toContain("conforms");
  });
});
