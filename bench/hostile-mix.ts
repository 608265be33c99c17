/**
 * A mixed hostile load against one runtime serving the example addresses (issue 15, section 5):
 * valid acts alongside malformed and truncated JSON, duplicate names, oversize bodies with and
 * without `Content-Length`, chunked and slow bodies, disconnects mid-body, 10⁵-deep nesting,
 * long strings, invalid UTF-8, wrong methods and huge header fields; and run traffic on the
 * render address (docs/runs.md): runs created, polled, replayed by `Idempotency-Key` and
 * cancelled, unknown and malformed run URLs, invalid acts asking for a run. `npm run
 * bench:hostile` runs it for 60 s on Node and on workerd; the runtimes suite runs a few seconds
 * of it.
 *
 * Each attack comes from its own loopback address (127.0.0.2 …), the valid actor from
 * 127.0.0.200, so a per-client rate limit throttles the attackers and not the actor, as it
 * would in public. Everything stays on loopback.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { type IncomingMessage, request } from "node:http";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { validPage } from "../test/runtimes/bodies.ts";
import type { Running } from "../test/runtimes/harness.ts";
import { chunk, exchange, LAST_CHUNK, postHead, trickle } from "../test/runtimes/raw-http.ts";

/** What one run saw. Times in milliseconds, memory in MiB. */
export interface HostileReport {
  readonly runtime: string;
  readonly seconds: number;
  /** Attackers at once, and the pacing asked for (requests per second; `null`: none). */
  readonly attackers: number;
  readonly attackRate: number | null;
  /** Attack requests started per second of attack window. */
  readonly attackRateSeen: number;
  /** The length of each clean and each attack window, in seconds, and how many pairs ran. */
  readonly windowSeconds: number;
  readonly pairs: number;
  /** Requests answered, by kind of request and status (`null`: closed with no answer). */
  readonly statuses: Record<string, Record<string, number>>;
  readonly total: number;
  readonly serverErrors: number;
  /** Valid acts that did not get 200 (or 429, when limited). */
  readonly validFailures: number;
  /** The valid acts' p99 latency in clean and in attack windows, ms, and how many samples each. */
  readonly cleanP99: number;
  readonly attackP99: number;
  /** Each pair's own ratio, p99 of its attack window ÷ p99 of its clean window, in order: the spread of the ratio. */
  readonly pairRatios: readonly number[];
  readonly cleanSamples: number;
  readonly attackSamples: number;
  readonly rssMaxMiB: number;
  readonly rssEndMiB: number;
  readonly rssStartMiB: number;
  /** Slow clients: how many, and the longest time from first byte to the server's close (or answer). */
  readonly slowClients: number;
  readonly slowLongestMs: number;
  /** Run traffic (docs/runs.md): runs created (202) in attack windows, and answers not as the protocol says. */
  readonly runsCreated: number;
  readonly runFailures: number;
  /** Whether the child was alive through the whole run. */
  readonly survived: boolean;
  /** After the attack: a GET and a valid act answered 200. */
  readonly answersAfter: boolean;
  /**
   * How busy the server was, in CPU time ÷ wall time (1 = one core all the time), averaged over
   * the clean and over the attack windows; `null` without /proc.
   */
  readonly serverBusy: WindowShares | null;
  /** How busy the load's core was (`loadCore`), as a share of that core; `null` when not asked or without /proc. */
  readonly loadBusy: WindowShares | null;
}

/** A share of one core, averaged over the clean windows and over the attack windows. */
export interface WindowShares {
  readonly clean: number;
  readonly attack: number;
}

const page = new TextEncoder().encode(validPage);
const MAX_BYTES = 1_048_576;

export interface Answer {
  /** The status, or `null` when the connection ended with no answer. */
  readonly status: number | null;
  readonly ms: number;
  /** The client-side error code when there was no answer (`ECONNRESET`, …). */
  readonly error?: string;
  /** With `read`: the `Location` field and the body as text. */
  readonly location?: string;
  readonly text?: string;
}

/**
 * One HTTP request from `localAddress`, on a fresh connection; resolves, never rejects. With
 * `read`, the answer's `Location` and body are kept (else the body is discarded unread).
 */
export function send(
  port: number,
  localAddress: string,
  method: string,
  path: string,
  body: Uint8Array | string | null,
  headers: Record<string, string> = {},
  read = false,
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      { host: "127.0.0.1", port, localAddress, method, path, headers: { connection: "close", ...headers } },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        if (read) res.on("data", (chunk: Buffer) => chunks.push(chunk));
        else res.resume();
        const answer = () => ({
          status: res.statusCode ?? null,
          ms: performance.now() - started,
          ...(read ? { location: res.headers.location, text: Buffer.concat(chunks).toString("utf8") } : {}),
        });
        res.on("end", () => resolve(answer()));
        res.on("error", () => resolve(answer()));
      },
    );
    req.setTimeout(30_000, () => req.destroy());
    req.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ status: null, ms: performance.now() - started, error: error.code ?? error.message }),
    );
    if (body !== null) req.end(body);
    else req.end();
  });
}

const json = { "content-type": "application/json" };
const deep = "[".repeat(100_000);
const longString = `{"title": "${"x".repeat(900_000)}", "blocks": []}`;
const invalidUtf8 = Buffer.concat([
  Buffer.from('{"title": "a'),
  Buffer.from([0xff, 0xfe]),
  Buffer.from('", "blocks": []}'),
]);
const oversize = new Uint8Array(MAX_BYTES + 1).fill(0x20);
const duplicate = validPage.replace(`"title": "Notes`, `"title": "Other", "title": "Notes`);
const hugeHeader = "a".repeat(64 * 1024);

/** The attacks, by name: each sends one hostile request from `from` and says what came back. */
export const attacks: Record<string, (port: number, from: string) => Promise<Answer>> = {
  "malformed JSON": (port, from) => send(port, from, "POST", "/page", validPage.slice(0, 200), json),
  "duplicate names": (port, from) => send(port, from, "POST", "/page", duplicate, json),
  "oversize with Content-Length": (port, from) => send(port, from, "POST", "/page", oversize, json),
  "oversize chunked": async (port, from) => {
    const started = performance.now();
    return new Promise((resolve) => {
      const req = request(
        { host: "127.0.0.1", port, localAddress: from, method: "POST", path: "/page", headers: json },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? null, ms: performance.now() - started }));
        },
      );
      req.on("error", () => resolve({ status: null, ms: performance.now() - started }));
      const piece = new Uint8Array(65_536).fill(0x20);
      let sent = 0;
      const more = () => {
        while (sent < 2 * MAX_BYTES) {
          sent += piece.byteLength;
          if (!req.write(piece)) return void req.once("drain", more);
        }
        req.end();
      };
      more();
    });
  },
  "10^5-deep nesting": (port, from) => send(port, from, "POST", "/page", deep, json),
  "long string": (port, from) => send(port, from, "POST", "/page", longString, json),
  "invalid UTF-8": (port, from) => send(port, from, "POST", "/page", invalidUtf8, json),
  "wrong method": (port, from) =>
    send(port, from, ["PUT", "DELETE", "PATCH"][Math.floor(Math.random() * 3)]!, "/page", "{}", json),
  "huge header": (port, from) => send(port, from, "GET", "/page", null, { "x-huge": hugeHeader }),
  "chunked act": async (port) => {
    const started = performance.now();
    const seen = await exchange(
      port,
      [
        { delayMs: 0, bytes: postHead("/page", ["Transfer-Encoding: chunked", "Connection: close"]) },
        { delayMs: 0, bytes: chunk(page.subarray(0, 300)) },
        { delayMs: 0, bytes: chunk(page.subarray(300)) },
        { delayMs: 0, bytes: LAST_CHUNK },
      ],
      "wait",
      10_000,
    );
    return { status: seen.status, ms: performance.now() - started };
  },
  "chunked cut before the last chunk": async (port) => {
    const started = performance.now();
    const seen = await exchange(
      port,
      [
        { delayMs: 0, bytes: postHead("/page", ["Transfer-Encoding: chunked"]) },
        { delayMs: 0, bytes: chunk(page) },
      ],
      "half-close",
      10_000,
    );
    return { status: seen.status, ms: performance.now() - started };
  },
  "disconnect mid-body": async (port) => {
    const started = performance.now();
    const seen = await exchange(
      port,
      [
        { delayMs: 0, bytes: postHead("/page", [`Content-Length: ${page.byteLength}`]) },
        { delayMs: 5, bytes: page.subarray(0, 100) },
      ],
      "destroy",
      1_000,
    );
    return { status: seen.status, ms: performance.now() - started };
  },
};

/**
 * The settings of a server the mix runs against, for its run traffic: a small run store (100
 * runs, each kept 10 s: the mix's runs expire while it runs) and 20 ms a page of `/render`.
 */
export const RUN_SETTINGS = { RUNS_MAX: "100", RUNS_TTL_SECONDS: "10", RENDER_PAGE_MS: "20" } as const;

/** The render address, whose act takes `RENDER_PAGE_MS` a page, offered as a run (docs/runs.md). */
const RENDER = "/render";
const respondAsync = { ...json, prefer: "respond-async" };

/** What the protocol answers each kind of run request (docs/runs.md); anything else is a failure. */
const RUN_ANSWERS: Record<string, readonly number[]> = {
  // 200: the act finished within the wait (a replay of a run that completed meanwhile).
  "run: create (Prefer: respond-async)": [202, 200],
  "run: replay (same Idempotency-Key and bytes)": [202, 200],
  "run: same Idempotency-Key, other bytes": [422],
  "run: poll": [200],
  "run: cancel (DELETE)": [200],
  "run: unknown or malformed run URL": [404],
  "run: invalid act asking for a run": [204],
};

/**
 * One client's run traffic, from `from`: creates a run of a short document (1 to 8 pages),
 * replays it with its `Idempotency-Key` and tries the key with other bytes, polls it every 50 ms
 * (faster than asked) until it ends, cancelling every other run after its first poll; then
 * reads an unknown and a malformed run URL and sends an invalid act asking for a run.
 */
async function runTraffic(
  port: number,
  from: string,
  n: number,
  record: (kind: string, answer: Answer) => void,
): Promise<void> {
  const key = `"bench-${process.pid}-${from}-${n}"`;
  const pages = 1 + (n % 8);
  const act = JSON.stringify({ title: `Bench document ${n}`, pages });
  const asking = { ...respondAsync, "idempotency-key": key };
  const created = await send(port, from, "POST", RENDER, act, asking, true);
  record("run: create (Prefer: respond-async)", created);
  record("run: replay (same Idempotency-Key and bytes)", await send(port, from, "POST", RENDER, act, asking));
  const other = JSON.stringify({ title: `Bench document ${n}`, pages: pages === 8 ? 7 : pages + 1 });
  record("run: same Idempotency-Key, other bytes", await send(port, from, "POST", RENDER, other, asking));
  if (created.status === 202 && created.location !== undefined) {
    for (let polls = 0; polls < 200; polls++) {
      const poll = await send(port, from, "GET", created.location, null, {}, true);
      record("run: poll", poll);
      if (poll.status !== 200 || !/"status":"working"/.test(poll.text ?? "")) break;
      if (polls === 0 && n % 2 === 0)
        record("run: cancel (DELETE)", await send(port, from, "DELETE", created.location, null));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const unknown = n % 2 === 0 ? `${RENDER}/runs/${"A".repeat(22)}` : `${RENDER}/runs/%00${"x".repeat(300)}`;
  record("run: unknown or malformed run URL", await send(port, from, n % 3 === 0 ? "DELETE" : "GET", unknown, null));
  record(
    "run: invalid act asking for a run",
    await send(port, from, "POST", RENDER, JSON.stringify({ title: "x", pages: 41 }), respondAsync),
  );
}

/**
 * Fills the run store: creates runs of one page until one is refused (at most `maxRuns` + 1
 * requests). The quota holds when at most `maxRuns` were accepted and the refusal is 503 with
 * `Retry-After` (docs/runs.md).
 */
export async function fillRunStore(
  server: Running,
  maxRuns: number,
): Promise<{ accepted: number; refusal: number | null; retryAfter: string | null }> {
  const port = Number(new URL(server.url).port);
  const body = JSON.stringify({ title: "Filling the run store", pages: 1 });
  for (let accepted = 0; accepted <= maxRuns; accepted++) {
    const answer = await new Promise<{ status: number | null; retryAfter: string | null }>((resolve) => {
      const req = request(
        { host: "127.0.0.1", port, localAddress: "127.0.0.203", method: "POST", path: RENDER, headers: respondAsync },
        (res) => {
          res.resume();
          const retryAfter = res.headers["retry-after"];
          res.on("end", () => resolve({ status: res.statusCode ?? null, retryAfter: retryAfter ?? null }));
        },
      );
      req.on("error", () => resolve({ status: null, retryAfter: null }));
      req.end(body);
    });
    if (answer.status !== 202 && answer.status !== 200)
      return { accepted, refusal: answer.status, retryAfter: answer.retryAfter };
  }
  return { accepted: maxRuns + 1, refusal: null, retryAfter: null };
}

/** A slow client: one body byte every 500 ms until the server answers or closes. */
async function slowClient(port: number): Promise<Answer & { closedMs: number | null }> {
  const seen = await exchange(
    port,
    [{ delayMs: 0, bytes: postHead("/page", [`Content-Length: ${page.byteLength}`]) }, ...trickle(validPage, 500)],
    "wait",
    20_000,
  );
  return { status: seen.status, ms: seen.answeredMs ?? 20_000, closedMs: seen.closedMs ?? seen.answeredMs };
}

/** Resident memory of the child's whole process group (workerd runs as a grandchild), in MiB. */
export function rssMiB(pid: number): number {
  try {
    const out = execFileSync("ps", ["-o", "rss=", "-g", String(pid)], { encoding: "utf8" });
    return (
      out
        .split("\n")
        .map(Number)
        .filter((n) => n > 0)
        .reduce((a, b) => a + b, 0) / 1024
    );
  } catch {
    return 0;
  }
}

export function p99(samples: number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
}

/**
 * The valid actor, in its own thread (bench/hostile-actor.ts): acts until `until` (epoch ms) at
 * nice `priority` (when set); resolves with its 200s as `[start, ms]`, counting every answer
 * with `count`.
 */
function actor(
  port: number,
  until: number,
  count: (status: number | null) => void,
  priority?: number,
): Promise<[number, number][]> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(join(import.meta.dirname, "hostile-actor.ts"), {
      workerData: { port, until, body: page, priority },
    });
    thread.once("message", ({ samples, statuses }: { samples: [number, number][]; statuses: (number | null)[] }) => {
      for (const status of statuses) count(status);
      resolve(samples);
    });
    thread.once("error", reject);
  });
}

/** How hard the mix attacks; every field is printed with the report. */
export interface HostileOptions {
  /** The whole run, in seconds, warm-up included. */
  readonly seconds: number;
  /** Attackers at once (closed loop: each sends its next request when its last one ended). Default 8. */
  readonly attackers?: number;
  /**
   * When set, the attackers together start at most this many requests per second (a paced
   * closed loop: still never more than `attackers` at once). Default: no pacing.
   */
  readonly attackRate?: number;
  /** Slow clients at once during attack windows. Default 4. */
  readonly slow?: number;
  /** The length of each clean and each attack window, in seconds. Default 6 (less in a short run). */
  readonly window?: number;
  /** The valid actor thread's nice value (see bench/hostile-actor.ts); none by default. */
  readonly actorPriority?: number;
  /** The core the load runs on, whose busy share is reported (`loadBusy`); none by default. */
  readonly loadCore?: number;
  /**
   * Run traffic in attack windows: runs created per second, all run clients together (each
   * run then polled, replayed, cancelled or not: about 7 requests a run); 0 for none. Default 5. The
   * server's run store must hold what that creates in one TTL (`RUNS_MAX`, `RUNS_TTL_SECONDS`).
   */
  readonly runRate?: number;
}

/** The part of each window left out of the latency samples, in ms: the one before it draining. */
const SETTLE_MS = 250;

/**
 * Runs the mix against `server` for `seconds`: a warm-up of valid acts (up to 3 s, not
 * measured), then clean and attack windows in turn, `window` seconds each, as many pairs as fit
 * (at least one). The valid actor acts back to back through all windows; in attack windows the
 * attackers and the slow clients run beside it. Each valid act is a sample of the window it
 * started in, if it started at least {@link SETTLE_MS} into that window and ended inside it.
 * Alternating keeps the clean and the attack samples under the same background load of the
 * machine. Afterwards it checks that the server still answers.
 *
 * Slow clients start only at the start of an attack window; one may outlast its window (it
 * sends one byte per 500 ms, no load to speak of) and is counted whole.
 */
export async function hostileMix(server: Running, options: HostileOptions): Promise<HostileReport> {
  const { seconds, attackers = 8, attackRate, slow = 4, actorPriority, loadCore, runRate = 5 } = options;
  const port = Number(new URL(server.url).port);
  const statuses: Record<string, Record<string, number>> = {};
  const record = (kind: string, status: number | null, error?: string) => {
    statuses[kind] ??= {};
    const byStatus = statuses[kind];
    const key = status === null && error !== undefined ? `no answer (${error})` : String(status);
    byStatus[key] = (byStatus[key] ?? 0) + 1;
  };
  let alive = true;
  void server.exited.then(() => (alive = false));
  const rssStartMiB = rssMiB(server.pid);
  let rssMaxMiB = rssStartMiB;
  const sampler = setInterval(() => (rssMaxMiB = Math.max(rssMaxMiB, rssMiB(server.pid))), 250);

  const warmMs = Math.min(3_000, (seconds * 1000) / 10);
  // Warm-up (JIT, the store's first writes), not measured.
  await actor(port, Date.now() + warmMs, (status) => record("valid act (warm-up)", status), actorPriority);
  const windowMs = Math.min((options.window ?? 6) * 1000, (seconds * 1000 - warmMs) / 2);
  const pairs = Math.max(1, Math.floor((seconds * 1000 - warmMs) / (2 * windowMs)));
  const start = Date.now();
  const end = start + pairs * 2 * windowMs;
  /** Window `k` (0, 1, …) covers [start + k·windowMs, start + (k+1)·windowMs); odd ones attack. */
  const windowOf = (t: number) => Math.floor((t - start) / windowMs);
  const attacking = (t: number) => t < end && windowOf(t) % 2 === 1;
  /** When the next attack window starts after `t`, or `end`. */
  const nextAttack = (t: number) => {
    const k = windowOf(t);
    return Math.min(end, start + (k % 2 === 1 ? k + 2 : k + 1) * windowMs);
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

  const names = Object.keys(attacks);
  let next = 2;
  const from = () => {
    next = next >= 199 ? 2 : next + 1;
    return `127.0.0.${next}`;
  };
  let nextSlot = 0;
  const intervalMs = attackRate === undefined ? 0 : 1000 / attackRate;
  let attacksSent = 0;
  const attackLoops = Array.from({ length: attackers }, async () => {
    while (alive) {
      let now = Date.now();
      if (now >= end) return;
      if (!attacking(now)) {
        await sleep(nextAttack(now) - now);
        continue;
      }
      if (attackRate !== undefined) {
        const at = Math.max(nextSlot, now);
        nextSlot = at + intervalMs;
        await sleep(at - now);
        now = Date.now();
        if (!attacking(now)) continue;
      }
      const name = names[Math.floor(Math.random() * names.length)]!;
      attacksSent++;
      const answer = await attacks[name]!(port, from());
      record(name, answer.status, answer.error);
    }
  });
  let slowLongestMs = 0;
  let slowClients = 0;
  // Each slot starts a slow client at the start of every attack window, and another after it
  // while more than 6 s of the window are left; each lasts about the body deadline (5 s).
  const slowOnes = Array.from({ length: slow }, async () => {
    let lastWindow = -1;
    while (alive) {
      const now = Date.now();
      if (now >= end) return;
      const k = windowOf(now);
      if (k % 2 === 1 && (k !== lastWindow || start + (k + 1) * windowMs - now > 6_000)) {
        lastWindow = k;
        const seen = await slowClient(port);
        slowClients++;
        record("slow body", seen.status);
        slowLongestMs = Math.max(slowLongestMs, seen.closedMs ?? 20_000);
      } else await sleep(nextAttack(now) - now);
    }
  });
  // Run traffic: a run started every 1/runRate s in attack windows, each followed through by a
  // client of its own (as many at once as it takes).
  let runsCreated = 0;
  let runFailures = 0;
  const recordRun = (kind: string, answer: Answer) => {
    record(kind, answer.status, answer.error);
    if (kind === "run: create (Prefer: respond-async)" && answer.status === 202) runsCreated++;
    if (!RUN_ANSWERS[kind]!.includes(answer.status ?? -1)) runFailures++;
  };
  const runsDone = (async () => {
    const following: Promise<void>[] = [];
    for (let n = 0; alive; n++) {
      const now = Date.now();
      if (now >= end) break;
      if (runRate <= 0) break;
      if (!attacking(now)) {
        await sleep(nextAttack(now) - now);
        continue;
      }
      following.push(runTraffic(port, from(), n, recordRun));
      await sleep(1000 / runRate);
    }
    await Promise.all(following);
  })();
  // CPU counters at every window boundary, for the busy shares.
  const counters: { at: number; serverMs: number; load: CoreTicks | null }[] = [];
  const countersTaken = (async () => {
    if (!existsSync(`/proc/${server.pid}/stat`)) return;
    for (let k = 0; k <= 2 * pairs; k++) {
      await sleep(start + k * windowMs - Date.now());
      counters.push({
        at: Date.now(),
        serverMs: cpuMs(server.pid),
        load: loadCore === undefined ? null : coreTicks(loadCore),
      });
    }
  })();
  const [samples] = await Promise.all([
    actor(port, end, (status) => record("valid act (clean and attack windows)", status), actorPriority),
    ...attackLoops,
    ...slowOnes,
    countersTaken,
    runsDone,
  ]);
  const serverBusy = shares(counters, (a, b) => (b.serverMs - a.serverMs) / (b.at - a.at));
  const loadBusy = counters.every((c) => c.load !== null)
    ? shares(counters, (a, b) => (b.load!.busy - a.load!.busy) / Math.max(1, b.load!.total - a.load!.total))
    : null;
  clearInterval(sampler);
  const byWindow: number[][] = Array.from({ length: 2 * pairs }, () => []);
  for (const [t, ms] of samples) {
    const k = windowOf(t);
    const windowStart = start + k * windowMs;
    if (t - windowStart < SETTLE_MS || t + ms > windowStart + windowMs) continue;
    byWindow[k]?.push(ms);
  }
  const cleanLatencies = byWindow.filter((_, k) => k % 2 === 0).flat();
  const attackLatencies = byWindow.filter((_, k) => k % 2 === 1).flat();
  const pairRatios = Array.from({ length: pairs }, (_, j) => p99(byWindow[2 * j + 1]!) / p99(byWindow[2 * j]!));
  const rssEndMiB = rssMiB(server.pid);
  const after = await Promise.all([
    send(port, "127.0.0.201", "GET", "/page", null),
    send(port, "127.0.0.201", "POST", "/page", page, json),
  ]);

  let total = 0;
  let serverErrors = 0;
  let validFailures = 0;
  for (const [kind, byStatus] of Object.entries(statuses)) {
    for (const [status, n] of Object.entries(byStatus)) {
      total += n;
      if (Number(status) >= 500) serverErrors += n;
      if (kind.startsWith("valid act") && status !== "200") validFailures += n;
    }
  }
  return {
    runtime: server.name,
    seconds,
    attackers,
    attackRate: attackRate ?? null,
    attackRateSeen: attacksSent / ((pairs * windowMs) / 1000),
    windowSeconds: windowMs / 1000,
    pairs,
    statuses,
    total,
    serverErrors,
    validFailures,
    cleanP99: p99(cleanLatencies),
    attackP99: p99(attackLatencies),
    pairRatios,
    cleanSamples: cleanLatencies.length,
    attackSamples: attackLatencies.length,
    rssStartMiB,
    rssMaxMiB,
    rssEndMiB,
    slowClients,
    slowLongestMs,
    runsCreated,
    runFailures,
    survived: alive,
    answersAfter: after.every((a) => a.status === 200),
    serverBusy,
    loadBusy,
  };
}

/** Ticks a core spent busy and in all, since boot (a `cpuN` line of /proc/stat). */
interface CoreTicks {
  readonly busy: number;
  readonly total: number;
}

/** Core `core`'s ticks from /proc/stat (user nice system idle iowait irq softirq steal), or `null`. */
function coreTicks(core: number): CoreTicks | null {
  try {
    const line = readFileSync("/proc/stat", "utf8")
      .split("\n")
      .find((l) => l.startsWith(`cpu${core} `));
    if (line === undefined) return null;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
    return { busy, total: busy + idle! + iowait! };
  } catch {
    return null;
  }
}

/**
 * The mean of `share` over the even (clean) and the odd (attack) windows between successive
 * `counters`; `null` when a window is missing.
 */
function shares<T>(counters: T[], share: (a: T, b: T) => number): WindowShares | null {
  const clean: number[] = [];
  const attack: number[] = [];
  for (let k = 0; k + 1 < counters.length; k++)
    (k % 2 === 1 ? attack : clean).push(share(counters[k]!, counters[k + 1]!));
  if (clean.length === 0 || attack.length === 0) return null;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { clean: mean(clean), attack: mean(attack) };
}

/** CPU time (user + system) used so far by the process group `pid` leads (or by `pid` alone), in ms. */
function cpuMs(pid: number): number {
  let pids: number[] = [];
  try {
    pids = execFileSync("ps", ["-o", "pid=", "-g", String(pid)], { encoding: "utf8" })
      .split("\n")
      .map(Number)
      .filter((n) => n > 0);
  } catch {}
  if (pids.length === 0) pids = [pid];
  let ticks = 0;
  for (const one of pids) {
    try {
      const stat = readFileSync(`/proc/${one}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {} // ended meanwhile
  }
  return ticks * (1000 / CLOCK_TICKS);
}
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * What each kind of request costs the server on its own: `n` requests of the kind one after
 * another (after 10 not counted), and the server's CPU time over them ÷ `n`, in µs per
 * request (from /proc, in steps of 10 ms: with `n` = 100, ±100 µs). Linux only; `null` where
 * /proc is absent.
 */
export async function costPerKind(server: Running, n = 100): Promise<Record<string, number> | null> {
  if (!existsSync(`/proc/${server.pid}/stat`)) return null;
  const port = Number(new URL(server.url).port);
  const kinds: Record<string, (port: number, from: string) => Promise<Answer>> = {
    "valid act": (port, from) => send(port, from, "POST", "/page", page, json),
    ...attacks,
  };
  const out: Record<string, number> = {};
  for (const [name, one] of Object.entries(kinds)) {
    for (let i = 0; i < 10; i++) await one(port, "127.0.0.202");
    const before = cpuMs(server.pid);
    for (let i = 0; i < n; i++) await one(port, "127.0.0.202");
    out[name] = ((cpuMs(server.pid) - before) * 1000) / n;
  }
  return out;
}

/** Sends SIGTERM to the child's process group and measures how long it takes to exit, in ms. */
export async function terminate(server: Running): Promise<{ ms: number; code: number | null; signal: string | null }> {
  const started = performance.now();
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {}
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000));
  const exit = await Promise.race([server.exited, timeout]);
  const ms = performance.now() - started;
  await server.stop();
  return exit === null ? { ms, code: null, signal: "none within 10 s" } : { ms, code: exit.code, signal: exit.signal };
}
