/**
 * `npm run bench -- door`: where an act's time goes inside one workerd isolate, without
 * sockets (issue 16). The POST bench's workerd section measures the same servers over HTTP,
 * where the host's noise (±20–60 µs per paired comparison on a shared 2-core machine) hides
 * differences of a few µs; here one isolate hands requests made by code straight to each
 * server's fetch handler, so that only the handlers' own work differs between them.
 *
 * The servers are those of `bench/post/apps.ts`, each behind `runtimeFetch` (its requests
 * taken as the runtime's own, as in a deployed worker): `read-native` (the body read whole by
 * `arrayBuffer()`: the baseline), `b2`, `read` (read as the address reads it: the limit and
 * the deadline), `verify-native` (read whole, then `parseJson` and the generated validator)
 * and `address`. Per round each server answers `n` valid acts of the page workload (1 and 16
 * KiB) in turn, in alternating order; the figure is the wall time per act, and each difference
 * is the median over rounds of the difference of two servers' times in the same round.
 *
 * `BENCH_DOOR_ROUNDS` (default 41), `BENCH_DOOR_ACTS` (acts per server and round; default
 * 3,000 at 1 KiB and 400 at 16 KiB).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PostServer } from "./post/apps.ts";
import { median, minus } from "./post/ratios.ts";
import { benchForm } from "./post.bench.ts";
import { bundle, startWorkerd } from "./serve.bench.ts";

const root = join(import.meta.dirname, "..");
const rounds = Number(process.env.BENCH_DOOR_ROUNDS ?? 41);
const sizes = { "1k": 3_000, "16k": 400 } as const;
type Size = keyof typeof sizes;
const servers = ["read-native", "b2", "read", "verify-native", "address"] as const satisfies readonly PostServer[];

/**
 * The worker: `PUT /?size=` keeps a body; `GET /?server=&size=&n=` has `server` answer `n` acts
 * carrying it, each a new `Request` with its `Content-Length`, and answers the number of
 * answers other than 200.
 */
function workerSource(module: string): string {
  return `import { postApp } from "./bench/post/apps.ts";
import { runtimeFetch } from "./src/body/runtime-framed.ts";
import { form } from ${JSON.stringify(module)};
const handlers = Object.fromEntries(${JSON.stringify(servers)}.map((kind) => {
  const app = postApp(kind, form);
  return [kind, runtimeFetch((request) => app.fetch(request))];
}));
const bodies = {};
export default {
  async fetch(request) {
    const url = new URL(request.url);
    const size = url.searchParams.get("size");
    if (request.method === "PUT") {
      bodies[size] = new Uint8Array(await request.arrayBuffer());
      return new Response(null, { status: 204 });
    }
    const handler = handlers[url.searchParams.get("server")];
    const n = Number(url.searchParams.get("n"));
    const body = bodies[size];
    const headers = { "content-type": "application/json", "content-length": String(body.byteLength) };
    let other = 0;
    for (let k = 0; k < n; k++) {
      const answer = await handler(new Request("http://door.invalid/page", { method: "POST", body, headers }));
      if (answer.status !== 200) other++;
      await answer.arrayBuffer();
    }
    return new Response(String(other));
  },
};`;
}

const us = (x: number) => x.toFixed(1);

export default async function door(): Promise<void> {
  const module = await benchForm();
  const worker = await startWorkerd(await bundle({ source: workerSource(module) }), { direct: true });
  const rows: Record<string, string>[] = [];
  try {
    for (const size of Object.keys(sizes) as Size[]) {
      const put = await fetch(new URL(`/?size=${size}`, worker.url), {
        method: "PUT",
        body: readFileSync(join(root, `bench/corpus/valid-${size}.json`)),
      });
      if (put.status !== 204) throw new Error(`the door bench's worker refused the ${size} body`);
      const n = Number(process.env.BENCH_DOOR_ACTS ?? sizes[size]);
      const times = Object.fromEntries(servers.map((server) => [server, [] as number[]])) as Record<
        (typeof servers)[number],
        number[]
      >;
      // Two rounds of warm-up, then `rounds` measured ones, alternating the order.
      for (let round = -2; round < rounds; round++) {
        for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
          const started = performance.now();
          const answer = await fetch(new URL(`/?server=${server}&size=${size}&n=${n}`, worker.url));
          const other = await answer.text();
          if (answer.status !== 200 || other !== "0")
            throw new Error(`${server} answered ${other} acts other than 200`);
          if (round >= 0) times[server].push(((performance.now() - started) * 1000) / n);
        }
      }
      const whole = times["read-native"];
      rows.push({
        body: size,
        "µs/act read whole / B2 / address": [whole, times.b2, times.address].map((x) => us(median(x))).join(" / "),
        "address ÷ B2 (time)": median(times.b2.map((x, r) => x / times.address[r]!)).toFixed(2),
        "address − B2": minus(times.address, times.b2, 1),
        "B2 − whole": minus(times.b2, whole, 1),
        "reading as the address − whole": minus(times.read, whole, 1),
        "parse and validate: verify-native − whole": minus(times["verify-native"], whole, 1),
        "the rest of the door: address − verify-native − reading": minus(
          times.address.map((x, r) => x - times["verify-native"][r]! + whole[r]!),
          times.read,
          1,
        ),
      });
    }
  } finally {
    await worker.dispose();
  }
  console.log(
    `Inside one workerd isolate, requests made by code (runtimeFetch), ${rounds} rounds alternated; wall time per act; differences: medians of per-round differences [min–max]`,
  );
  const head = Object.keys(rows[0]!);
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map((_, k) => (k < 1 ? " --- " : " ---: ")).join("|")}|`);
  for (const row of rows) console.log(`| ${head.map((key) => row[key]).join(" | ")} |`);
}
