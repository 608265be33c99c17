/**
 * `npm run bench:soak`: the example on Node under publishing at the rate limit, for
 * `SOAK_SECONDS` (default 300), with its default limits (60 acts and 600 arrivals per client per
 * minute, pages of at most 256 KiB, 64 MiB of pages in all; docs/operations.md). Issue 31's
 * acceptance: the store stays under its quota, the process's resident memory under 2× its
 * plateau, reads of the largest page at full speed from one client are limited (429), and the
 * other clients' p99 stays under 2× clean.
 *
 * Who sends what, each client on a loopback address of its own (Linux routes 127.0.0.0/8 to
 * `lo`), each request on a fresh connection:
 * - 10 publishers (127.0.0.2–11), each a valid page of about 150 KiB once a second:
 *   their own limit exactly; the quota fills in well under a minute, and the rest is refused
 *   503 with `Retry-After`;
 * - a probe (127.0.0.20) reading a small stored page 5 times a second, whose latencies are the
 *   "other clients'" p99, split by window;
 * - a reader (127.0.0.30), in alternating 10 s windows after a 60 s warm-up, reading the largest
 *   page as fast as 4 connections allow (a flood window), or not at all (a clean window).
 *
 * Resident memory (the server's process group) is sampled every second; its plateau is the
 * median over seconds 30–60. The store's use is read from its own table (`page_usage`) through
 * a second, read-only SQLite connection. Prints the figures, then one line per check; exits 1
 * when any check fails.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { launch } from "../test/runtimes/harness.ts";
import { type Answer, p99, rssMiB, send } from "./hostile-mix.ts";

const seconds = Number(process.env.SOAK_SECONDS ?? 300);
if (!(seconds >= 90)) throw new RangeError("SOAK_SECONDS must be at least 90 (60 s warm-up, then windows)");
const QUOTA_BYTES = 64 * 1024 * 1024;
const json = { "content-type": "application/json" };

/** A valid page whose HTML is about `kib` KiB: paragraphs of 10 spans of 1,900 characters (the form allows 1,999). */
function largePage(kib: number, seed: number): string {
  const blocks = [];
  for (let i = 0; i * 19_500 < kib * 1024; i++) {
    const spans = Array.from({ length: 10 }, (_, j) => ({ text: `${seed}-${i}-${j} ${"lorem ipsum ".repeat(158)}` }));
    blocks.push({ type: "paragraph", spans });
  }
  return JSON.stringify({ title: `Soak ${seed}`, blocks });
}

const scratch = mkdtempSync(join(tmpdir(), "gpt-address-soak-"));
const database = join(scratch, "pages.sqlite");
const server = await launch("node", { RATE_LIMIT: "60,600", PAGES_DB: database });
const port = Number(new URL(server.url).port);
const started = performance.now();
const elapsed = () => (performance.now() - started) / 1000;
const until = (s: number) => elapsed() < s;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  // The pages the probe and the reader read, published before the quota fills.
  const publish = async (body: string) => {
    const response = await fetch(`${server.url}/page`, { method: "POST", headers: json, body });
    if (response.status !== 200) throw new Error(`publishing a page answered ${response.status}`);
    return new URL(((await response.json()) as { url: string }).url).pathname;
  };
  const smallPath = await publish(largePage(1, 0));
  const largePath = await publish(largePage(200, 1));

  const statuses = new Map<string, number>();
  const count = (who: string, answer: Answer) => {
    const key = `${who} ${answer.status ?? answer.error ?? "none"}`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  };

  const publishers = Array.from({ length: 10 }, async (_, n) => {
    const from = `127.0.0.${n + 2}`;
    const body = largePage(150, n + 2);
    for (let next = 0; until(seconds); next++) {
      count("publish", await send(port, from, "POST", "/page", body, json));
      await sleep(Math.max(0, (next + 1) * 1_000 - elapsed() * 1_000 + 0));
    }
  });

  /** The probe's latencies, by window: `clean` or `flood` (warm-up not kept). */
  const probe = { clean: [] as number[], flood: [] as number[] };
  let flooding = false;
  const prober = (async () => {
    while (until(seconds)) {
      const answer = await send(port, "127.0.0.20", "GET", smallPath, null);
      count("probe", answer);
      if (elapsed() >= 60 && answer.status === 200) (flooding ? probe.flood : probe.clean).push(answer.ms);
      await sleep(200);
    }
  })();

  const reader = (async () => {
    await sleep(60_000);
    while (until(seconds)) {
      flooding = Math.floor((elapsed() - 60) / 10) % 2 === 1;
      if (!flooding) {
        await sleep(100);
        continue;
      }
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (flooding && until(seconds)) {
            count("flood", await send(port, "127.0.0.30", "GET", largePath, null));
            flooding = Math.floor((elapsed() - 60) / 10) % 2 === 1;
          }
        }),
      );
    }
  })();

  const rss: Array<[number, number]> = [];
  const used: number[] = [];
  const usage = new DatabaseSync(database, { readOnly: true });
  const sampler = setInterval(() => {
    rss.push([elapsed(), rssMiB(server.pid)]);
    const row = usage.prepare("SELECT bytes FROM page_usage WHERE id = 1").get() as { bytes: number } | undefined;
    used.push(row?.bytes ?? 0);
  }, 1_000);

  await Promise.all([...publishers, prober, reader]);
  clearInterval(sampler);
  usage.close();

  const plateauSamples = rss.filter(([at]) => at >= 30 && at < 60).map(([, mib]) => mib);
  plateauSamples.sort((a, b) => a - b);
  const plateau = plateauSamples[Math.floor(plateauSamples.length / 2)] ?? Number.NaN;
  const rssMax = Math.max(...rss.filter(([at]) => at >= 60).map(([, mib]) => mib));
  const usedMax = Math.max(...used);
  const fileMiB = statSync(database).size / 1024 / 1024;
  const cleanP99 = p99(probe.clean);
  const floodP99 = p99(probe.flood);
  const of = (key: string) => statuses.get(key) ?? 0;
  const fiveHundreds = [...statuses].filter(([key]) => / 5\d\d$/.test(key) && !key.endsWith(" 503"));

  console.log(`node ${process.version}, ${new Date().toISOString()}, ${seconds} s`);
  console.log("answers:", Object.fromEntries([...statuses].sort()));
  console.log(
    `store: at most ${(usedMax / 1024 / 1024).toFixed(1)} MiB of pages (quota 64), file ${fileMiB.toFixed(1)} MiB`,
  );
  console.log(`RSS: plateau ${plateau.toFixed(0)} MiB, max after 60 s ${rssMax.toFixed(0)} MiB`);
  console.log(
    `probe p99: clean ${cleanP99.toFixed(1)} ms (${probe.clean.length}), flood ${floodP99.toFixed(1)} ms (${probe.flood.length})`,
  );

  const checks: Array<[string, boolean]> = [
    ["the store stays within its quota", usedMax <= QUOTA_BYTES],
    ["publishing past the quota is refused 503", of("publish 503") > 0],
    ["no other 5xx, no connection without an answer", fiveHundreds.length === 0 && of("publish none") === 0],
    ["resident memory under 2× its plateau", rssMax < 2 * plateau],
    ["the full-speed reader is limited (429)", of("flood 429") > 0],
    ["the probe is never limited", of("probe 429") === 0],
    ["the probe's p99 under flood within 2× clean", floodP99 <= 2 * cleanP99],
  ];
  for (const [name, ok] of checks) console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
  process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
} finally {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
