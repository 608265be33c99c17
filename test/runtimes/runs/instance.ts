/**
 * One instance of a server acting through a shared run store, for the cross-instance tests of
 * issue 34 (test/runtimes/runs-shared.test.ts): a `Request → Response` handler, served by Node,
 * Bun, Deno or a Worker (each entry beside this file), over JSON:
 *
 * - `POST /start` `{ waitMs, token, hold?, delayMs?, key?, bytes? }`: `startRun` of an act that
 *   reports progress (`"started by <instance>"`, 0.1), then waits `delayMs`, or (`hold`) until
 *   `POST /release/<token>` or its signal aborts, and returns `{ token, by }`; with `key`, an
 *   `Idempotency-Key` claim of `bytes`. Answers the outcome, or `{ refused, retryAfterSeconds }`.
 * - `GET /runs/<id>`, `DELETE /runs/<id>`: `readRun`, `cancelRun` (JSON, `null` when absent).
 * - `GET /state`: `{ acted, aborted }`, the acts performed in this instance and the tokens of
 *   those whose signal aborted.
 */
import { cancelRun, idempotencyClaim, type RunStore, readRun, startRun } from "../../../src/run/index.ts";

/** The handler of instance `name`; `runs` gives the store for a request (a Worker's per request). */
export function runInstance(
  name: string,
): (request: Request, runs: RunStore, waitUntil?: (promise: Promise<unknown>) => void) => Promise<Response> {
  let acted = 0;
  const aborted: string[] = [];
  const releases = new Map<string, () => void>();
  return async function handle(request, runs, waitUntil) {
    const { pathname } = new URL(request.url);
    const [, first, second] = pathname.split("/");
    if (request.method === "POST" && first === "start") {
      const body = (await request.json()) as {
        waitMs: number;
        token: string;
        hold?: boolean;
        delayMs?: number;
        key?: string;
        bytes?: string;
      };
      const act = async (
        token: string,
        { signal, progress }: { signal: AbortSignal; progress: (m: string, f?: number) => void },
      ) => {
        acted++;
        signal.addEventListener("abort", () => aborted.push(token));
        progress(`started by ${name}`, 0.1);
        await new Promise<void>((resolve) => {
          if (body.hold) releases.set(token, resolve);
          else setTimeout(resolve, body.delayMs ?? 0);
          signal.addEventListener("abort", () => resolve());
        });
        return { token, by: name };
      };
      try {
        const outcome = await startRun(runs, act, body.token, {
          waitMs: body.waitMs,
          pollIntervalMs: 100,
          ...(body.key === undefined
            ? {}
            : { idempotency: await idempotencyClaim("/test", body.key, body.bytes ?? "") }),
          ...(waitUntil === undefined ? {} : { waitUntil }),
        });
        return Response.json(outcome);
      } catch (error) {
        const { name: refused, retryAfterSeconds } = error as { name: string; retryAfterSeconds?: number };
        return Response.json({ refused, retryAfterSeconds: retryAfterSeconds ?? null });
      }
    }
    if (request.method === "POST" && first === "release" && second !== undefined) {
      releases.get(second)?.();
      return Response.json(releases.delete(second));
    }
    if (first === "runs" && second !== undefined) {
      if (request.method === "GET") return Response.json(await readRun(runs, second));
      if (request.method === "DELETE") return Response.json(await cancelRun(runs, second));
    }
    if (request.method === "GET" && first === "state") return Response.json({ acted, aborted });
    return new Response(null, { status: 404 });
  };
}

/** The limits of every instance in these tests: at most 8 runs, each kept a minute. */
export const INSTANCE_LIMITS = { maxRuns: 8, ttlMs: 60_000 } as const;
