/**
 * The valid actor of the hostile mix, in its own thread (bench/hostile-mix.ts starts it with
 * `workerData = { port, until, body }`): acts back to back from 127.0.0.200 until `until`
 * (epoch ms), each on a fresh connection, and posts `{ latencies, statuses }` back. Its own
 * event loop keeps the attackers' sending out of its timings.
 */
import { request } from "node:http";
import { parentPort, workerData } from "node:worker_threads";

const { port, until, body } = workerData as { port: number; until: number; body: Uint8Array };
const latencies: number[] = [];
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
  const { status, ms } = await act();
  statuses.push(status);
  if (status === 200) latencies.push(ms);
}
parentPort!.postMessage({ latencies, statuses });
