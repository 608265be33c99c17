/**
 * `check --act` on an address that offers runs (docs/runs.md): its act, sent with
 * `Prefer: respond-async`, was answered `202 Accepted`. The run URL is checked as a client
 * sees it: `Location` under the address and naming the run; the 202's fields; every `GET` of
 * the run (its state in MCP task field names, `Retry-After` while working, `no-store`); the run
 * followed to its end; `DELETE` answering the state (a run already ended left as it is); an
 * unknown run `404` with no content, for `GET` and `DELETE`.
 *
 * @see docs/runs.md; RFC 7240 §4.1; RFC 9110 §15.3.3, §10.2.3
 * @module
 */
import { type Exchange, exchange } from "./http.ts";
import { mediaType } from "./media-type.ts";
import { followRun, isRun, isRunUrlOf, type Run, RunCancelled, RunGone, RunReadError, runStateFaults } from "./run.ts";

/** Adds one check point (as `check.ts` does). */
export type AddPoint = (
  id: string,
  requirement: string,
  level: "MUST" | "SHOULD",
  outcome: "pass" | "fail" | "warn" | "skip",
  title: string,
  detail: string,
) => void;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const REQUIREMENT = "runs.md";
const TITLES = {
  location: "the 202 names the run: Location under the address (<address>/runs/<id>), ending in its taskId",
  accepted: "the 202 says Preference-Applied: respond-async, Retry-After and Cache-Control: no-store",
  state:
    "GET of the run URL: 200 JSON in task fields (taskId, status, pollIntervalMs, ttlMs, createdAt, lastUpdatedAt; result when completed)",
  retryAfter: "a working run's state carries Retry-After (seconds)",
  noStore: "the run's state is not cached (Cache-Control: no-store)",
  end: "the run ends completed, with the act's answer as result",
  delete: "DELETE of the run URL answers 200 with its state (cancelled, or its end left as it was)",
  unknown: "an unknown run is 404 with no content (GET and DELETE)",
} as const;

/** What is wrong with a run's state read from the run URL `url` (empty: nothing). */
function stateFaults(run: unknown, url: string): string[] {
  const faults = runStateFaults(run, url);
  if (!isRun(run)) return faults;
  if (!(run.pollIntervalMs > 0)) faults.push(`pollIntervalMs ${run.pollIntervalMs}`);
  if (!(run.ttlMs > 0)) faults.push(`ttlMs ${run.ttlMs}`);
  for (const field of ["createdAt", "lastUpdatedAt"] as const)
    if (!RFC3339.test(run[field])) faults.push(`${field} ${JSON.stringify(run[field])} is not RFC 3339`);
  if (run.status === "completed" && !("result" in run)) faults.push("completed without result");
  return faults;
}

/**
 * Checks the run of the 202 `accepted`, the answer to an act POSTed to `url`, and returns the
 * run's end (or `undefined` when it could not be followed).
 */
export async function checkRun(
  url: string,
  accepted: Exchange,
  add: AddPoint,
  options: { readonly timeoutMs?: number; readonly runTimeoutMs?: number },
): Promise<Run | undefined> {
  const location = accepted.headers.location;
  let runUrl: URL | undefined;
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(accepted.body));
  } catch {
    body = undefined;
  }
  if (location === undefined) {
    add(
      "run-location",
      REQUIREMENT,
      "MUST",
      "fail",
      TITLES.location,
      "the 202 has no Location: the run cannot be followed",
    );
  } else {
    const resolved = new URL(location, url);
    // A Location elsewhere is no run of this address: it is neither read nor deleted.
    const under = isRunUrlOf(resolved.href, url);
    if (under) runUrl = resolved;
    const taskId = isRun(body) ? body.taskId : undefined;
    const names = taskId !== undefined && isRun(body, resolved.href);
    add(
      "run-location",
      REQUIREMENT,
      "MUST",
      under && names ? "pass" : "fail",
      TITLES.location,
      `Location: ${location}${under ? "" : " (not under the address: not followed)"}${names ? "" : ` (does not end in the 202's taskId${taskId === undefined ? ": its content is no run state" : ""})`}`,
    );
  }
  const missing: string[] = [];
  if (!/(^|,)\s*respond-async\s*(,|$)/i.test(accepted.headers["preference-applied"] ?? ""))
    missing.push("Preference-Applied");
  if (!/^\s*\d+\s*$/.test(accepted.headers["retry-after"] ?? "")) missing.push("Retry-After");
  if (!/(^|,)\s*no-store\b/i.test(accepted.headers["cache-control"] ?? "")) missing.push("Cache-Control: no-store");
  add(
    "run-accepted",
    REQUIREMENT,
    "SHOULD",
    missing.length === 0 ? "pass" : "warn",
    TITLES.accepted,
    missing.length === 0 ? "all three" : `missing: ${missing.join(", ")}`,
  );
  if (runUrl === undefined) {
    for (const id of ["run-state", "run-end", "run-delete", "run-unknown"] as const) {
      const key = id === "run-state" ? "state" : id === "run-end" ? "end" : id === "run-delete" ? "delete" : "unknown";
      add(id, REQUIREMENT, "MUST", "skip", TITLES[key], "no run URL of this address");
    }
    return undefined;
  }
  const href = runUrl.href;

  // Follow the run to its end, looking at every read.
  const faults = new Set<string>();
  const noRetryAfter: string[] = [];
  const cached: string[] = [];
  let reads = 0;
  const recording = async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    if (request.method !== "GET" || response.status !== 200) return response;
    reads++;
    const text = await response.text();
    let state: unknown;
    try {
      state = JSON.parse(text);
    } catch {
      state = undefined;
    }
    if (mediaType(response.headers.get("content-type")) !== "application/json") faults.add("not application/json");
    for (const fault of stateFaults(state, href)) faults.add(fault);
    if (isRun(state) && state.status === "working" && !/^\s*\d+\s*$/.test(response.headers.get("retry-after") ?? ""))
      noRetryAfter.push(`read ${reads}`);
    if (!/(^|,)\s*no-store\b/i.test(response.headers.get("cache-control") ?? "")) cached.push(`read ${reads}`);
    return new Response(text, { status: response.status, headers: response.headers });
  };
  let end: Run | undefined;
  let endDetail: string;
  try {
    end = await followRun(href, {
      address: url,
      fetch: recording,
      timeoutMs: options.runTimeoutMs ?? 60_000,
      accepted: { retryAfter: accepted.headers["retry-after"], run: body },
    });
    endDetail =
      end.status === "completed" ? `completed after ${reads} read(s)` : `ended ${end.status} after ${reads} read(s)`;
  } catch (error) {
    if (error instanceof RunCancelled) {
      end = error.run;
      endDetail = `still working after ${(options.runTimeoutMs ?? 60_000) / 1000} s: given up (DELETE)`;
    } else if (error instanceof RunGone) endDetail = "404 before it ended";
    else if (error instanceof RunReadError) endDetail = error.message;
    else throw error;
  }
  add(
    "run-state",
    REQUIREMENT,
    "MUST",
    reads === 0 ? "fail" : faults.size === 0 ? "pass" : "fail",
    TITLES.state,
    reads === 0 ? `no state read: ${endDetail}` : faults.size === 0 ? `${reads} read(s)` : [...faults].join("; "),
  );
  add(
    "run-retry-after",
    REQUIREMENT,
    "SHOULD",
    noRetryAfter.length === 0 ? "pass" : "warn",
    TITLES.retryAfter,
    noRetryAfter.length === 0 ? "on every working state" : `none on ${noRetryAfter.join(", ")}`,
  );
  add(
    "run-no-store",
    REQUIREMENT,
    "SHOULD",
    cached.length === 0 ? "pass" : "warn",
    TITLES.noStore,
    cached.length === 0 ? "no-store on every read" : `not on ${cached.join(", ")}`,
  );
  const completed = end?.status === "completed";
  add("run-end", "R1 (runs.md)", "MUST", completed ? "pass" : "fail", TITLES.end, endDetail);

  // DELETE: the run ended (or was given up), so its state stays as it is.
  const send = (method: string, target: string) =>
    exchange(target, { method, headers: { accept: "application/json" }, timeoutMs: options.timeoutMs });
  if (end === undefined) {
    add("run-delete", REQUIREMENT, "MUST", "skip", TITLES.delete, "the run could not be followed to its end");
  } else {
    const deleted = await send("DELETE", href);
    let after: unknown;
    try {
      after = JSON.parse(new TextDecoder().decode(deleted.body));
    } catch {
      after = undefined;
    }
    const kept = isRun(after) && after.status === end.status;
    add(
      "run-delete",
      REQUIREMENT,
      "MUST",
      deleted.status === 200 && kept ? "pass" : "fail",
      TITLES.delete,
      `${deleted.status}${isRun(after) ? `, ${after.status} (was ${end.status})` : ", no run state"}`,
    );
  }

  // An unknown run: a fresh id of the same shape, beside this one.
  const unknownId = `${crypto.randomUUID().replace(/-/g, "").slice(0, 22)}`;
  const unknown = new URL(unknownId, href).href;
  const answers = [await send("GET", unknown), await send("DELETE", unknown)];
  const wrong = answers
    .map((answer, i) => ({ answer, method: i === 0 ? "GET" : "DELETE" }))
    .filter(({ answer }) => answer.status !== 404 || answer.body.length > 0)
    .map(
      ({ answer, method }) =>
        `${method} → ${answer.status}${answer.body.length > 0 ? ` with ${answer.body.length} bytes` : ""}`,
    );
  add(
    "run-unknown",
    REQUIREMENT,
    "MUST",
    wrong.length === 0 ? "pass" : "fail",
    TITLES.unknown,
    wrong.length === 0 ? "404, empty, for GET and DELETE" : wrong.join("; "),
  );
  return end;
}
