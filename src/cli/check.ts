/**
 * `gpt-address check <URL>`: black-box conformance of any address (the draft's MUST and SHOULD
 * points an outside client can see), as a table or `--format json`; exit 1 on any MUST failure.
 * Sends refusal probes, never an act, unless `--act` (then the form's own example, once).
 *
 * @module
 */
import { defineCommand } from "citty";
import { type CheckReport, checkAddress } from "../client/check.ts";
import { exitCodes, formatArg, ioOf, UsageError } from "./shared.ts";

/** The report as a table for a terminal. */
export function renderReport(report: CheckReport): string {
  const rows = report.points.map((p) => [p.outcome.toUpperCase(), p.level, p.id, p.requirement, p.detail]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  const lines = rows.map((row) => row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join("  "));
  const failed = report.points.filter((p) => p.outcome === "fail");
  const must = failed.filter((p) => p.level === "MUST");
  const summary = report.ok
    ? `${report.url}: conforms (${report.points.filter((p) => p.outcome === "pass").length} passed, ${failed.length} SHOULD failed, ${report.points.filter((p) => p.outcome === "skip").length} skipped)`
    : `${report.url}: does not conform: MUST failed: ${must.map((p) => p.id).join(", ")}`;
  return `${lines.join("\n")}\n\n${summary}\n`;
}

export default defineCommand({
  meta: {
    name: "check",
    description: "Check any GPT address for conformance over HTTP (exit 1 on a MUST failure). Acts only with --act.",
  },
  args: {
    url: { type: "positional", required: true, description: "The address, an http(s) URL", valueHint: "URL" },
    act: {
      type: "boolean",
      default: false,
      description: "Also POST the form's own example once (an act, with whatever effect it has)",
    },
    timeout: { type: "string", default: "30000", description: "Per-request timeout in milliseconds", valueHint: "ms" },
    ...formatArg,
  },
  async run(context) {
    const io = ioOf(context);
    const { url, act, timeout, format } = context.args;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`not a URL: ${JSON.stringify(url)}`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError(`not an http(s) URL: ${url}`);
    const timeoutMs = Number(timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
      throw new UsageError(`--timeout must be a positive integer: ${timeout}`);
    const report = await checkAddress(parsed.href, { act, timeoutMs });
    io.stdout(format === "json" ? `${JSON.stringify(report, null, 2)}\n` : renderReport(report));
    return report.ok ? exitCodes.ok : exitCodes.findings;
  },
});
