/**
 * Following a run from the actor's side (docs/runs.md, "What a client must do"): the library's
 * act against the project's own `address()` with runs on loopback (render-address.ts). A 202 is
 * followed to `completed` with progress, whether asked for or not; `Retry-After` and `pollIntervalMs` set the pace (clamped); a signal or a time limit DELETEs
 * the run, whose act sees its signal abort; a 404 is a gone run; `Idempotency-Key` acts once.
 * A hostile address is not trusted: a `Location` that is no run URL of the address is neither
 * read nor deleted, and a state with a field of the wrong type or another `taskId` is refused.
 */
import { afterEach, describe, expect, it } from "vitest";
import { actWithBody } from "../../../src/client/act.ts";
import {
  followRun,
  idempotencyKeyField,
  isRunUrlOf,
  pollDelay,
  type Run,
  RunGone,
  RunReadError,
} from "../../../src/client/run.ts";
import { type RenderAddress, type RenderAddressOptions, serveRenderAddress } from "./render-address.ts";

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
let server: RenderAddress | undefined;
const serve = async (options: RenderAddressOptions = {}) => {
  server = await serveRenderAddress(options);
  return server;
};
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The gaps between the reads of the run, ms. */
const readGaps = (address: RenderAddress) => {
  const reads = address.seen.filter((r) => r.method === "GET" && r.path.includes("/runs/")).map((r) => r.at);
  return reads.slice(1).map((at, i) => at - reads[i]!);
};

describe("followRun and the act through a run", () => {
  it("asks with Prefer: respond-async, wait=N, follows the 202's Location to completed with progress, and answers with the run's result", async () => {
    const address = await serve({ stepMs: 150, pollIntervalMs: 250, retryAfter: null });
    const progress: Run[] = [];
    const result = await actWithBody(address.address, encode({ title: "Q3", pages: 6 }), {
      respondAsync: { wait: 0 },
      onRun: (run) => progress.push(run),
    });
    const answer = result.answer!;
    expect(answer.kind).toBe("accepted");
    expect(answer.status).toBe(202);
    expect(answer.json).toEqual({ title: "Q3", pages: 6, rendered: true });
    expect(answer.run?.status).toBe("completed");
    expect(answer.runUrl).toBe(`${address.address}/runs/${answer.run?.taskId}`);
    const post = address.seen.find((r) => r.method === "POST")!;
    expect(post.headers.prefer).toBe("respond-async, wait=0");
    // The 202's run first, then each read: progress that grows, and the end.
    expect(progress[0]!.status).toBe("working");
    expect(progress.at(-1)!.status).toBe("completed");
    const fractions = progress.flatMap((run) => (run.progress === undefined ? [] : [run.progress]));
    expect(fractions.length).toBeGreaterThanOrEqual(2);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(progress.some((run) => /^page \d of 6$/.test(run.statusMessage ?? ""))).toBe(true);
  });

  it("follows a 202 it did not ask for; an act that finishes within the wait is a plain 200", async () => {
    const address = await serve({ alwaysAsync: true, stepMs: 50, pollIntervalMs: 250 });
    const followed = await actWithBody(address.address, encode({ title: "A", pages: 3 }));
    expect(address.seen.find((r) => r.method === "POST")!.headers.prefer).toBeUndefined();
    expect(followed.answer).toMatchObject({ kind: "accepted", status: 202, json: { title: "A", pages: 3 } });
    await address.close();
    const quick = await serve({ stepMs: 10 });
    const plain = await actWithBody(quick.address, encode({ title: "B", pages: 0 }), { respondAsync: { wait: 5 } });
    expect(plain.answer).toMatchObject({ kind: "accepted", status: 200, json: { title: "B", pages: 0 } });
    expect(plain.answer?.run).toBeUndefined();
  });

  it("waits Retry-After (seconds) between reads when the address gives one, else pollIntervalMs, never under 250 ms", async () => {
    // The address's own Retry-After: 250 ms rounded up to whole seconds, 1.
    const slow = await serve({ stepMs: 400, pollIntervalMs: 250 });
    await actWithBody(slow.address, encode({ title: "R", pages: 5 }), { respondAsync: true });
    const gaps = readGaps(slow);
    expect(gaps.length).toBeGreaterThanOrEqual(1);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(950);
    await slow.close();

    const fast = await serve({ stepMs: 200, pollIntervalMs: 300, retryAfter: null });
    await actWithBody(fast.address, encode({ title: "P", pages: 8 }), { respondAsync: true });
    const paced = readGaps(fast);
    expect(paced.length).toBeGreaterThanOrEqual(3);
    for (const gap of paced) expect(gap).toBeGreaterThanOrEqual(280);
    // Not the 1 s a Retry-After would have set: the run's own interval.
    expect(Math.min(...paced)).toBeLessThan(800);
    expect(pollDelay(null, 10)).toBe(250);
    expect(pollDelay("600", 10)).toBe(30_000);
    expect(pollDelay(null, 90_000)).toBe(30_000);
  });

  it("an aborted signal DELETEs the run: the act sees its signal abort and the answer is run-cancelled", async () => {
    const address = await serve({ stepMs: 200, pollIntervalMs: 250, retryAfter: null });
    const controller = new AbortController();
    const result = await actWithBody(address.address, encode({ title: "C", pages: 50 }), {
      respondAsync: true,
      signal: controller.signal,
      onRun: (run) => {
        if ((run.progress ?? 0) > 0) controller.abort();
      },
    });
    expect(result.answer?.kind).toBe("run-cancelled");
    expect(result.answer?.run?.status).toBe("cancelled");
    const id = result.answer!.run!.taskId;
    expect(address.seen.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([`/render/runs/${id}`]);
    await expect.poll(() => address.aborted).toContain(id);
  });

  it("a time limit DELETEs the run too", async () => {
    const address = await serve({ stepMs: 200, pollIntervalMs: 250, retryAfter: null });
    const started = Date.now();
    const result = await actWithBody(address.address, encode({ title: "T", pages: 50 }), {
      respondAsync: true,
      runTimeoutMs: 700,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.answer?.kind).toBe("run-cancelled");
    expect(address.seen.some((r) => r.method === "DELETE")).toBe(true);
    await expect.poll(() => address.aborted).toContain(result.answer!.run!.taskId);
  });

  it("a 404 ends the run with no answer: RunGone (and run-gone for an act)", async () => {
    const address = await serve();
    const url = `${address.address}/runs/AAAAAAAAAAAAAAAAAAAAAA`;
    await expect(followRun(url)).rejects.toBeInstanceOf(RunGone);
    await expect(followRun(`${address.address}/runs/not-a-run`)).rejects.toThrow(/gone \(404\)/);
  });

  it("Idempotency-Key goes as a quoted structured-field string; a retry with the same key and bytes gets the same run, acted on once", async () => {
    const address = await serve({ stepMs: 100, pollIntervalMs: 250, retryAfter: null });
    const bytes = encode({ title: "I", pages: 3 });
    const key = 'order-7 "quoted" \\ back';
    const [first, second] = await Promise.all([
      actWithBody(address.address, bytes, { respondAsync: true, idempotencyKey: key }),
      actWithBody(address.address, bytes, { respondAsync: true, idempotencyKey: key }),
    ]);
    expect(address.seen.find((r) => r.method === "POST")!.headers["idempotency-key"]).toBe(
      '"order-7 \\"quoted\\" \\\\ back"',
    );
    expect(first.answer?.json).toEqual({ title: "I", pages: 3, rendered: true });
    expect(second.answer?.runUrl).toBe(first.answer?.runUrl);
    expect(address.acted).toHaveLength(1);
    expect(() => idempotencyKeyField("é")).toThrow(RangeError);
    expect(() => idempotencyKeyField("")).toThrow(RangeError);
  });

  it("a Location on another host, or another path of the same host, is refused: nothing is read or deleted there", async () => {
    const elsewhere = await serveRenderAddress();
    try {
      const hosts = await serve({ stepMs: 100, location: (run) => `${elsewhere.url}${new URL(run).pathname}` });
      const controller = new AbortController();
      const error = await actWithBody(hosts.address, encode({ title: "H", pages: 3 }), {
        respondAsync: true,
        signal: controller.signal,
        onRun: () => controller.abort(),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunReadError);
      expect((error as Error).message).toMatch(/is not a run of the address .*nothing was read or deleted/);
      expect(elsewhere.seen).toEqual([]);
      await hosts.close();

      const paths = await serve({ stepMs: 100, location: (run) => run.replace("/render/runs/", "/admin/users/") });
      await expect(
        actWithBody(paths.address, encode({ title: "P", pages: 3 }), { respondAsync: true }),
      ).rejects.toBeInstanceOf(RunReadError);
      expect(paths.seen.filter((r) => r.method !== "POST" && r.method !== "GET").map((r) => r.method)).toEqual([]);
      expect(paths.seen.some((r) => r.path.startsWith("/admin/"))).toBe(false);
    } finally {
      await elsewhere.close();
    }
    const address = "https://example.org/render";
    expect(isRunUrlOf("https://example.org/render/runs/abc", address)).toBe(true);
    expect(isRunUrlOf("https://example.org/render/runs/abc?x=1", `${address}/`)).toBe(true);
    for (const url of [
      "http://example.org/render/runs/abc",
      "https://example.org:444/render/runs/abc",
      "https://example.com/render/runs/abc",
      "https://example.org/renderx/runs/abc",
      "https://example.org/render/runsabc",
      "https://example.org/render/runs/",
      "https://example.org/render/runs/a/b",
      "https://example.org/render/runs/../../admin",
    ])
      expect(isRunUrlOf(url, address), url).toBe(false);
  });

  it("a run state with a field of the wrong type, or another taskId, is a RunReadError, not NaN% or [object Object]", async () => {
    const faults: [string, (state: Record<string, unknown>) => unknown, RegExp][] = [
      ["progress", (state) => ({ ...state, progress: "abc" }), /progress is not a number from 0 to 1/],
      ["statusMessage", (state) => ({ ...state, statusMessage: { a: 1 } }), /statusMessage is not a string/],
      [
        "taskId",
        (state) => ({ ...state, taskId: "AAAAAAAAAAAAAAAAAAAAAA" }),
        /taskId is not the run URL's last segment/,
      ],
      ["pollIntervalMs", (state) => ({ ...state, pollIntervalMs: "1000" }), /pollIntervalMs is not a number/],
    ];
    for (const [field, runState, message] of faults) {
      const address = await serve({ stepMs: 100, pollIntervalMs: 250, retryAfter: null, runState });
      const seen: Run[] = [];
      const error = await actWithBody(address.address, encode({ title: field, pages: 4 }), {
        respondAsync: true,
        onRun: (run) => seen.push(run),
      }).catch((e: unknown) => e);
      expect(error, field).toBeInstanceOf(RunReadError);
      expect((error as Error).message, field).toMatch(message);
      // Only the 202's own (well-formed) state was shown.
      for (const run of seen)
        expect(typeof run.statusMessage === "string" || run.statusMessage === undefined).toBe(true);
      await address.close();
      server = undefined;
    }
  });
});
