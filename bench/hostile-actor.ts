/**
 * The valid actor of the hostile mix, in its own thread (bench/hostile-mix.ts starts it with
 * `workerData = { port, until, body, priority }`): acts back to back from 127.0.0.200 until
 * `until` (epoch ms), each on a fresh connection, and posts `{ samples, statuses }` back, a
 * sample being `[start, ms]`: when the act was sent (epoch ms) and how long its 200 took.
 *
 * Its own event loop keeps the attackers' sending out of its timings; `priority`, when set, is
 * this thread's nice value (Linux: `os.setPriority` changes the calling thread only), so that
 * on the load generator's core the actor is not made to wait behind the attackers' thread. What
 * its latency then measures is the server's.
 */
import { request } from "node:http";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";

const { port, until, body, priority } = workerData as {
  port: number;
  until: number;
  body: Uint8Array;
  priority?: number;
};
if (priority !== undefined) {
  try {
    setPriority(priority);
  } catch {} // not allowed: the timings then hold the load generator's own queueing too
}
const samples: [number, number][] = [];
const statuses: (number | null)[] = [];

function act(): Promise<{ status: number | null; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        localAddress: "127.0.0.200",
        method: "POST",
        path: "/page",
        headers: { "content-type": "application/json", connection: "close" },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? null, ms: performance.now() - started }));
        res.on("error", () => resolve({ status: res.statusCode ?? null, ms: performance.now() - started }));
      },
    );
    req.setTimeout(30_000, () => req.destroy());
    req.on("error", () => resolve({ status: null, ms: performance.now() - started }));
    req.end(body);
  });
}

while (Date.now() < until) {
  const start = Date.now();
  const { status, ms } = await act();
  statuses.push(status);
  if (status === 200) samples.push([start, ms]);
}
parentPort!.postMessage({ samples, statuses });
