/**
 * Following a run from the actor's side (docs/runs.md, "What a client must do"): an address
 * that answers an act `202 Accepted` names the run in `Location`; the client `GET`s that URL
 * until the run's `status` is terminal, waits `Retry-After` (seconds) between reads when the
 * address gives one, else the run's `pollIntervalMs`, and `DELETE`s the run to give up. One
 * function, {@link followRun}, used by every client: the library's act, the CLI, the tool
 * adapters and the MCP bridge.
 *
 * @see docs/runs.md; RFC 7240 §4.1 (`respond-async`); RFC 9110 §15.3.3 (202), §10.2.3 (Retry-After)
 * @module
 */
import type { Run, RunStatus } from "../run/run.ts";
import { boundedRequest, EXCHANGE_TIMEOUT_MS, MAX_RESPONSE_BYTES, readAnswer } from "./bounded-answer.ts";

export type { Run, RunStatus } from "../run/run.ts";

/** The shortest wait between two reads of a run, in ms. */
export const MIN_POLL_MS = 250;
/** The longest wait between two reads of a run, in ms. */
export const MAX_POLL_MS = 30_000;

/** Options of {@link followRun}. */
export interface FollowRunOptions {
  /** Aborting it gives the run up: the run is `DELETE`d, then {@link RunCancelled} is thrown. */
  readonly signal?: AbortSignal;
  /** Called with the run after each read (and with the 202's run first, when given). */
  readonly onProgress?: (run: Run) => void;
  /** Gives the run up after this many ms (`DELETE`, then {@link RunCancelled}). Default: none. */
  readonly timeoutMs?: number;
  /** The `fetch` to reach the run with (default: the global one). */
  readonly fetch?: (input: Request) => Promise<Response>;
  /** Header fields sent with every read and the `DELETE` (such as `GPT-Actor`). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The `202` that named the run: its `Retry-After` is the first wait, its run (parsed JSON)
   * the first progress. Without it the run is read at once.
   */
  readonly accepted?: { readonly retryAfter?: string | null; readonly run?: unknown };
  /**
   * The address the act was POSTed to. When given, a run URL that is not one of its runs
   * ({@link isRunUrlOf}: the same origin, `<address path>/runs/<id>`) is refused with a
   * {@link RunReadError} before anything is sent to it: neither read nor `DELETE`d.
   */
  readonly address?: string;
  /**
   * The time limit of each read of the run, head and content, in ms (default 30 000); a read
   * past it counts as one with no answer. No redirect is followed: a 3xx is a {@link RunReadError}.
   */
  readonly readTimeoutMs?: number;
  /** The largest run state read, in bytes (default 16 MiB); a larger one is a {@link RunReadError}. */
  readonly maxResponseBytes?: number;
}

/** The run is unknown to the address (404): it expired, or never existed there. It has no answer. */
export class RunGone extends Error {
  override readonly name = "RunGone";
  readonly url: string;
  constructor(url: string) {
    super(`the run ${url} is gone (404): it expired or is unknown, and its answer is lost`);
    this.url = url;
  }
}

/**
 * The run was given up by the caller (`signal`) or the time limit, and `DELETE`d. `run` is the
 * address's answer to the `DELETE` (`cancelled`, or `failed` if it had just ended so), or
 * `undefined` when the `DELETE` got no readable answer.
 */
export class RunCancelled extends Error {
  override readonly name = "RunCancelled";
  readonly url: string;
  readonly reason: "signal" | "timeout";
  readonly run: Run | undefined;
  constructor(url: string, reason: RunCancelled["reason"], run: Run | undefined) {
    super(
      `the run ${url} was given up (${reason === "signal" ? "cancelled by the actor" : "time limit"}) and deleted${run ? `: ${run.status}` : ""}`,
    );
    this.url = url;
    this.reason = reason;
    this.run = run;
  }
}

/**
 * The run could not be read: a 4xx other than 404 and 429; no answer, a 429 or a 5xx five
 * times in a row; an answer that is no run state of this URL (a field of the wrong type, a
 * `taskId` other than the URL's last segment); or a run URL not under the address (nothing sent).
 */
export class RunReadError extends Error {
  override readonly name = "RunReadError";
  readonly url: string;
  /** The last status, when the address answered. */
  readonly status: number | undefined;
  constructor(url: string, message: string, status?: number, cause?: unknown) {
    super(`the run ${url} could not be read: ${message}`, { cause });
    this.url = url;
    this.status = status;
  }
}

const STATUSES: readonly RunStatus[] = ["working", "input_required", "completed", "failed", "cancelled"];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What makes `value` no run state as docs/runs.md shows it (empty: nothing): the fields a
 * client relies on, each of its type (`taskId`, `createdAt`, `lastUpdatedAt` strings, `status`
 * one of the five, `pollIntervalMs` and `ttlMs` numbers), and the optional ones, when present,
 * of theirs (`statusMessage` a string, `progress` a number from 0 to 1). With `runUrl`, the
 * `taskId` must also be the URL's last path segment.
 */
export function runStateFaults(value: unknown, runUrl?: string): string[] {
  if (!isObject(value)) return ["not a JSON object"];
  const faults: string[] = [];
  if (typeof value.taskId !== "string") faults.push("taskId is not a string");
  if (!STATUSES.includes(value.status as RunStatus)) faults.push("status is none of the five");
  for (const field of ["pollIntervalMs", "ttlMs"] as const)
    if (typeof value[field] !== "number") faults.push(`${field} is not a number`);
  for (const field of ["createdAt", "lastUpdatedAt"] as const)
    if (typeof value[field] !== "string") faults.push(`${field} is not a string`);
  if ("statusMessage" in value && typeof value.statusMessage !== "string") faults.push("statusMessage is not a string");
  if ("progress" in value) {
    const { progress } = value;
    if (typeof progress !== "number" || !(progress >= 0 && progress <= 1))
      faults.push("progress is not a number from 0 to 1");
  }
  if (runUrl !== undefined && typeof value.taskId === "string" && runIdOf(runUrl) !== value.taskId)
    faults.push("taskId is not the run URL's last segment");
  return faults;
}

/** Whether `value` is a run's state as docs/runs.md shows it ({@link runStateFaults} finds nothing). */
export function isRun(value: unknown, runUrl?: string): value is Run {
  return runStateFaults(value, runUrl).length === 0;
}

/** The last path segment of a run URL (its `taskId`, as docs/runs.md names it), percent-decoded when it can be. */
function runIdOf(runUrl: string): string {
  const segment = new URL(runUrl).pathname.split("/").at(-1) ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Whether `runUrl` is a run URL of the address at `address` (docs/runs.md, "The run URL"): the
 * same origin, and a path of `<the address's path>/runs/<id>` with a non-empty id and no more
 * segments. A `Location` elsewhere (another host, port or scheme, another path) is no run of
 * this address: a client must neither read it nor `DELETE` it.
 */
export function isRunUrlOf(runUrl: string, address: string): boolean {
  let run: URL;
  let home: URL;
  try {
    run = new URL(runUrl);
    home = new URL(address);
  } catch {
    return false;
  }
  if (run.origin !== home.origin) return false;
  const prefix = `${home.pathname.replace(/\/$/, "")}/runs/`;
  if (!run.pathname.startsWith(prefix)) return false;
  const id = run.pathname.slice(prefix.length);
  return id.length > 0 && !id.includes("/");
}

/** Whether the run's status is terminal (`completed`, `failed`, `cancelled`). */
export const isTerminalStatus = (status: RunStatus): boolean =>
  status === "completed" || status === "failed" || status === "cancelled";

/**
 * Seconds of a `Retry-After` field value (delta-seconds or an HTTP-date, RFC 9110 §10.2.3), or
 * `undefined` when there is none or it is neither.
 */
export function retryAfterSeconds(field: string | null | undefined): number | undefined {
  if (field === null || field === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(field)) return Number(field);
  const date = Date.parse(field);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The wait before the next read, in ms: `Retry-After` when given, else `pollIntervalMs`, clamped 250 ms–30 s. */
export function pollDelay(retryAfter: string | null | undefined, pollIntervalMs: number | undefined): number {
  const seconds = retryAfterSeconds(retryAfter);
  const ms = seconds !== undefined ? seconds * 1000 : (pollIntervalMs ?? 1_000);
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, Number.isFinite(ms) ? ms : 1_000));
}

/** Resolves after `ms`, or when `signal` aborts (never rejects). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** The longest a `DELETE` that gives a run up is waited for, in ms. */
const DELETE_TIMEOUT_MS = 10_000;
/** Reads in a row with no answer, a 429 or a 5xx before {@link RunReadError}. */
const MAX_FAILED_READS = 5;

/**
 * Follows the run at `runUrl` to its end: reads it after `Retry-After` (seconds) when the
 * address gives one, else after its `pollIntervalMs`, each wait clamped to 250 ms–30 s, until
 * its status is `completed`, `failed` or `cancelled`; no answer, a 429 or a 5xx waits (its
 * `Retry-After`, if any) and reads again, five times in a row at most. Aborting `signal`, or `timeoutMs` passing, `DELETE`s the run (RFC 9110 §9.3.5)
 * and throws {@link RunCancelled}, unless the `DELETE` finds the run `completed` (the act was
 * done: its run is returned).
 *
 * @returns the run in its terminal state; `result` carries the act's answer when `completed`.
 * @throws {RunGone} on 404: the run expired or is unknown, its answer lost.
 * @throws {RunCancelled} when given up by `signal` or `timeoutMs` (the run was `DELETE`d).
 * @throws {RunReadError} on another answer, one that is no state of this run (a field of the
 *   wrong type, a `taskId` other than the URL's last segment), after five failed reads in a row,
 *   or, with `address`, at once when `runUrl` is not one of its runs.
 * @example
 * ```ts
 * const run = await followRun(new URL(response.headers.get("location")!, url).href, {
 *   signal: AbortSignal.timeout(60_000),
 *   onProgress: (run) => console.error(run.status, run.statusMessage ?? ""),
 * });
 * if (run.status === "completed") console.log(run.result);
 * ```
 */
export async function followRun(runUrl: string, options: FollowRunOptions = {}): Promise<Run> {
  if (options.address !== undefined && !isRunUrlOf(runUrl, options.address))
    throw new RunReadError(
      runUrl,
      `it is not a run of the address ${options.address} (a run URL is ${options.address.replace(/\/$/, "")}/runs/<id>): nothing was read or deleted`,
    );
  const doFetch = options.fetch ?? ((input: Request) => fetch(input));
  const headers = { accept: "application/json", ...options.headers };
  const readTimeoutMs = options.readTimeoutMs ?? EXCHANGE_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  /** A run state's bytes as JSON, as `Response.json()` reads them, but bounded. */
  const json = async (response: Response): Promise<unknown> =>
    JSON.parse(new TextDecoder().decode(await readAnswer(response, runUrl, maxBytes)));
  const stop = new AbortController();
  let reason: RunCancelled["reason"] = "signal";
  const onAbort = () => stop.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) stop.abort();
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          reason = "timeout";
          stop.abort();
        }, options.timeoutMs);

  const giveUp = async (): Promise<Run> => {
    let run: Run | undefined;
    try {
      const response = await doFetch(boundedRequest(runUrl, { method: "DELETE", headers }, DELETE_TIMEOUT_MS));
      const body: unknown = response.status === 200 ? await json(response).catch(() => undefined) : undefined;
      if (response.status !== 200) await response.body?.cancel();
      if (isRun(body, runUrl)) run = body;
    } catch {
      // No answer to the DELETE: the run may go on until it expires.
    }
    if (run?.status === "completed") return run;
    throw new RunCancelled(runUrl, reason, run);
  };

  try {
    let wait = MIN_POLL_MS;
    const first = options.accepted;
    if (first !== undefined) {
      // The 202's content is only a first progress: one that is no state of this run is not shown.
      const run = isRun(first.run, runUrl) ? first.run : undefined;
      if (run !== undefined) options.onProgress?.(run);
      wait = pollDelay(first.retryAfter, run?.pollIntervalMs);
    } else wait = 0;
    let failures = 0;
    for (;;) {
      if (wait > 0) await pause(wait, stop.signal);
      if (stop.signal.aborted) return await giveUp();
      let response: Response;
      try {
        response = await doFetch(boundedRequest(runUrl, { headers }, readTimeoutMs, stop.signal));
      } catch (error) {
        if (stop.signal.aborted) return await giveUp();
        if (++failures >= MAX_FAILED_READS) throw new RunReadError(runUrl, String(error), undefined, error);
        wait = pollDelay(null, undefined);
        continue;
      }
      const { status } = response;
      if (status === 404) {
        await response.body?.cancel();
        throw new RunGone(runUrl);
      }
      if (status === 429 || status >= 500) {
        // Rate limited, or the address cannot answer now: the run goes on; read it again later.
        await response.body?.cancel();
        if (++failures >= MAX_FAILED_READS) throw new RunReadError(runUrl, `answered ${status}`, status);
        wait = pollDelay(response.headers.get("retry-after"), undefined);
        continue;
      }
      let body: unknown;
      try {
        body = status === 200 ? await json(response) : undefined;
      } catch (error) {
        if (stop.signal.aborted) return await giveUp();
        throw new RunReadError(runUrl, `the answer could not be read as JSON: ${String(error)}`, status, error);
      }
      if (status !== 200) await response.body?.cancel();
      if (status !== 200) throw new RunReadError(runUrl, `answered ${status}`, status);
      const faults = runStateFaults(body, runUrl);
      if (faults.length > 0 || !isRun(body, runUrl))
        throw new RunReadError(runUrl, `the answer is no state of this run: ${faults.join("; ")}`, status);
      failures = 0;
      options.onProgress?.(body);
      if (isTerminalStatus(body.status)) return body;
      wait = pollDelay(response.headers.get("retry-after"), body.pollIntervalMs);
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * The `Prefer` field value asking for a run (RFC 7240 §4.1, §4.3): `respond-async`, with
 * `wait=N` (whole seconds) when given; `undefined` when not asked.
 */
export function preferField(respondAsync: boolean | { readonly wait?: number } | undefined): string | undefined {
  if (respondAsync === undefined || respondAsync === false) return undefined;
  const wait = respondAsync === true ? undefined : respondAsync.wait;
  if (wait === undefined) return "respond-async";
  if (!Number.isInteger(wait) || wait < 0) throw new RangeError(`wait must be a whole number of seconds: ${wait}`);
  return `respond-async, wait=${wait}`;
}

/**
 * `key` as an `Idempotency-Key` field value: a structured-field String (RFC 9651 §3.3.3),
 * quoted, with `\` and `"` escaped (draft-ietf-httpapi-idempotency-key-header §2.1).
 *
 * @throws {RangeError} when `key` is empty or has a character outside printable ASCII.
 */
export function idempotencyKeyField(key: string): string {
  if (key.length === 0 || !/^[\x20-\x7e]+$/.test(key))
    throw new RangeError("an Idempotency-Key is one or more printable ASCII characters");
  return `"${key.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
