/**
 * `npm run bench:hostile`: 60 s of mixed hostile traffic (bench/hostile-mix.ts) against the
 * example on Node and on workerd, one after the other, each in a fresh server. Prints what was
 * seen and asserts, per runtime: no 5xx, no crash, every valid act answered, resident memory
 * bounded, valid-act p99 under attack at most 2× the clean p99, slow clients closed within the
 * body deadline, normal answers afterwards, and a prompt exit on SIGTERM. Exits 1 if any fails.
 *
 * `HOSTILE_SECONDS` changes the length (default 60), `HOSTILE_RUNTIMES` the runtimes
 * (default `node,workerd`). Not part of `npm test`; test/runtimes/hostile.test.ts runs a short
 * bounded version of the same checks.
 */
import { availableParallelism, cpus } from "node:os";
import { DEFAULT_BODY_DEADLINE_MS } from "../src/body/read-body.ts";
import { launch, type RuntimeName } from "../test/runtimes/harness.ts";
import { hostileMix, terminate } from "./hostile-mix.ts";

const seconds = Number(process.env.HOSTILE_SECONDS ?? 60);
const runtimes = (process.env.HOSTILE_RUNTIMES ?? "node,workerd").split(",") as RuntimeName[];
/** Resident memory above which a server is taken to be leaking, in MiB. */
const RSS_LIMIT_MIB = 1_024;
/** How long after the body deadline a slow client may stay connected, in ms. */
const SLOW_SLACK_MS = 3_000;

console.log(
  `node ${process.version}, ${availableParallelism()} × ${cpus()[0]?.model ?? "cpu"}, ${new Date().toISOString()}`,
);
let failed = 0;
for (const runtime of runtimes) {
  const server = await launch(runtime, { RATE_LIMIT: "off" });
  const report = await hostileMix(server, { seconds });
  const exit = await terminate(server);
  console.log(`\n## ${runtime}: ${seconds} s, ${report.total} requests\n`);
  for (const [kind, byStatus] of Object.entries(report.statuses)) {
    const counts = Object.entries(byStatus)
      .map(([status, n]) => `${status === "null" ? "closed, no answer" : status} ×${n}`)
      .join(", ");
    console.log(`  ${kind.padEnd(34)} ${counts}`);
  }
  const checks: [string, boolean, string][] = [
    ["no 5xx", report.serverErrors === 0, `${report.serverErrors}`],
    ["no crash", report.survived, report.survived ? "alive" : "exited"],
    ["every valid act answered 200", report.validFailures === 0, `${report.validFailures} not 200`],
    [
      "RSS bounded",
      report.rssMaxMiB < RSS_LIMIT_MIB,
      `start ${report.rssStartMiB.toFixed(0)}, max ${report.rssMaxMiB.toFixed(0)}, end ${report.rssEndMiB.toFixed(0)} MiB`,
    ],
    [
      "valid-act p99 under attack ≤ 2× clean",
      report.attackP99 <= 2 * report.cleanP99,
      `${report.attackP99.toFixed(1)} ms vs ${report.cleanP99.toFixed(1)} ms clean (${(report.attackP99 / report.cleanP99).toFixed(2)}×)`,
    ],
    [
      "slow clients closed within the deadline",
      report.slowClients > 0 && report.slowLongestMs <= DEFAULT_BODY_DEADLINE_MS + SLOW_SLACK_MS,
      `${report.slowClients} clients, longest ${report.slowLongestMs} ms (deadline ${DEFAULT_BODY_DEADLINE_MS} ms)`,
    ],
    ["answers normally afterwards", report.answersAfter, report.answersAfter ? "GET 200, act 200" : "no"],
    [
      "SIGTERM exits cleanly",
      exit.ms < 5_000 && exit.signal !== "none within 10 s",
      `${exit.ms.toFixed(0)} ms, code ${exit.code}, signal ${exit.signal}`,
    ],
  ];
  console.log("");
  for (const [what, ok, detail] of checks) {
    console.log(`  ${ok ? "ok  " : "FAIL"} ${what}: ${detail}`);
    if (!ok) failed++;
  }
}
console.log(failed === 0 ? "\nhostile: all checks passed" : `\nhostile: ${failed} check(s) failed`);
process.exitCode = failed === 0 ? 0 : 1;
