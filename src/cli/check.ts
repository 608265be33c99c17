/**
 * `gpt-address check <URL>`: black-box conformance of any address (the draft's MUST and SHOULD
 * points an outside client can see), as a table or `--format json`; exit 0 only when every MUST
 * point was tried and passed; exit 1 on a MUST failure, and on an inconclusive check (a MUST
 * point not tried, named). Sends refusal probes, never an act, unless `--act` (then the form's
 * own example, or a value generated from `s`, once, with `Prefer: respond-async`: an address that
 * answers with a run has its run URL checked too, the run followed up to `--run-timeout`).
 *
 * @module
 */
import { defineCommand } from "citty";
import { type CheckReport, checkAddress } from "../client/check.ts";
import { exitCodes, formatArg, ioOf, UsageError } from "./shared.ts";
import { terminalJson, terminalText } from "./terminal-text.ts";

/** The report as a table for a terminal. Each detail (which may quote the server) goes through `terminalText`. */
export function renderReport(report: CheckReport): string {
  const rows = report.points.map((p) => [
    p.outcome.toUpperCase(),
    p.level,
    p.id,
    p.requirement,
    terminalText(p.detail),
  ]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  const lines = rows.map((row) => row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join("  "));
  const failed = report.points.filter((p) => p.outcome === "fail");
  const must = failed.filter((p) => p.level === "MUST");
  const count = (outcome: string) => report.points.filter((p) => p.outcome === outcome).length;
  const probes = report.probeValue === "generated" ? ", probes on a value generated from s" : "";
  const summary =
    report.verdict === "conforms"
      ? `${report.url}: conforms (${count("pass")} passed, ${failed.length} SHOULD failed, ${count("skip")} skipped, ${count("n/a")} not applicable${probes})`
      : report.verdict === "inconclusive"
        ? `${report.url}: inconclusive: MUST not tested: ${untestedByReason(report)}`
        : `${report.url}: does not conform: MUST failed: ${must.map((p) => p.id).join(", ")}`;
  return `${lines.join("\n")}\n\n${summary}\n`;
}

/** The untested MUST points, grouped by why: `a, b (why); c (other)`. */
function untestedByReason(report: CheckReport): string {
  const byReason = new Map<string, string[]>();
  for (const id of report.untested) {
    const detail = terminalText(report.points.find((p) => p.id === id)?.detail ?? "");
    byReason.set(detail, [...(byReason.get(detail) ?? []), id]);
  }
  return [...byReason].map(([detail, ids]) => `${ids.join(", ")} (${detail})`).join("; ");
}

export default defineCommand({
  meta: {
    name: "check",
    description:
      "Check any GPT address for conformance over HTTP (exit 1 on a MUST failure, or when a MUST could not be tested). Acts only with --act.",
  },
  args: {
    url: { type: "positional", required: true, description: "The address, an http(s) URL", valueHint: "URL" },
    act: {
      type: "boolean",
      default: false,
      description: "Also POST the form's own example once (an act, with whatever effect it has)",
    },
    timeout: { type: "string", default: "30000", description: "Per-request timeout in milliseconds", valueHint: "ms" },
    "run-timeout": {
      type: "string",
      default: "60",
      description: "With --act, on an address that answers with a run: how long it is followed, in seconds",
      valueHint: "S",
    },
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
    const runTimeout = Number(context.args["run-timeout"]);
    if (!Number.isInteger(runTimeout) || runTimeout <= 0)
      throw new UsageError(`--run-timeout must be a positive whole number of seconds: ${context.args["run-timeout"]}`);
    const report = await checkAddress(parsed.href, { act, timeoutMs, runTimeoutMs: runTimeout * 1000 });
    io.stdout(format === "json" ? `${terminalJson(report)}\n` : renderReport(report));
    return report.ok ? exitCodes.ok : exitCodes.findings;
  },
});
