/**
 * `gpt-address act --async` as a user runs it (the bin spawned, standard error not a terminal)
 * against the project's own `address()` with runs on loopback
 * (test/node/client/render-address.ts): the run is followed with one plain line per change and the
 * result printed; `--run-timeout` gives it up and says it timed out; Ctrl-C (SIGINT), SIGTERM and
 * SIGHUP DELETE the run, whose act sees its signal abort, and exit 130, 143, 129. What the
 * server says (a progress message with control characters) reaches the terminal escaped; 503,
 * 422 after an Idempotency-Key, and an empty key each get their own words.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type RenderAddress, type RenderAddressOptions, serveRenderAddress } from "../client/render-address.ts";
import { root } from "../client/servers.ts";

interface Spawned {
  readonly child: ChildProcess;
  stderr(): string;
  readonly done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts the bin with `args` (no terminal: pipes). */
function start(args: string[]): Spawned {
  const child = spawn(process.execPath, [join(root, "src/cli/bin.ts"), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, stderr: () => stderr, done };
}

describe("gpt-address act --async (the bin)", () => {
  let dir: string;
  let server: RenderAddress | undefined;
  const serve = async (options: RenderAddressOptions) => {
    server = await serveRenderAddress(options);
    return server;
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "gpt-address-act-runs-"));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const bodyFile = (value: unknown) => {
    const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(value));
    return file;
  };

  it("follows the run with a line per change on standard error and prints the result on standard output (exit 0)", async () => {
    const address = await serve({ stepMs: 150, pollIntervalMs: 250, retryAfter: null });
    const run = await start([
      "act",
      address.address,
      "--body",
      bodyFile({ title: "Q3", pages: 4 }),
      "--async",
      "--wait",
      "0",
      "--idempotency-key",
      "k-1",
    ]).done;
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ title: "Q3", pages: 4, rendered: true });
    expect(run.stderr).toMatch(new RegExp(`^run ${address.address}/runs/[\\w-]{22}$`, "m"));
    expect(run.stderr).toMatch(/^run [\w-]{22}: working/m);
    expect(run.stderr).toMatch(/^run [\w-]{22}: working \d+% page \d of 4$/m);
    expect(run.stderr).toMatch(/^run [\w-]{22}: completed$/m);
    // One line per change, not per read.
    const lines = run.stderr.split("\n").filter((line) => /^run [\w-]{22}:/.test(line));
    expect(new Set(lines).size).toBe(lines.length);
    const post = address.seen.find((r) => r.method === "POST")!;
    expect(post.headers.prefer).toBe("respond-async, wait=0");
    expect(post.headers["idempotency-key"]).toBe('"k-1"');
  });

  it("--run-timeout gives the run up: DELETE, exit 1", async () => {
    const address = await serve({ stepMs: 300, pollIntervalMs: 250, retryAfter: null });
    const run = await start([
      "act",
      address.address,
      "--body",
      bodyFile({ title: "Long", pages: 60 }),
      "--async",
      "--run-timeout",
      "1",
      "--format",
      "json",
    ]).done;
    expect(run.code, run.stderr).toBe(1);
    const out = JSON.parse(run.stdout) as { outcome: string; run: { status: string } };
    expect(out.outcome).toBe("run-cancelled");
    expect(out.run.status).toBe("cancelled");
    expect(address.seen.some((r) => r.method === "DELETE")).toBe(true);
  });

  it("--run-timeout says the run timed out (not a doubled 'cancelled cancelled', not Ctrl-C's words)", async () => {
    const address = await serve({ stepMs: 300, pollIntervalMs: 250, retryAfter: null });
    const run = await start([
      "act",
      address.address,
      "--body",
      bodyFile({ title: "Late", pages: 60 }),
      "--async",
      "--run-timeout",
      "1",
    ]).done;
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /^gpt-address act: the act's run timed out: still running after --run-timeout 1 s, so it was given up and deleted \(http:\/\/\S+\/render\/runs\/[\w-]{22}\); the address says: cancelled$/m,
    );
    expect(run.stderr).not.toMatch(/cancelled cancelled|interrupted/);
  });

  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    it(`${signal} DELETEs the run, its act sees the signal abort, and the command exits ${code}`, async () => {
      const address = await serve({ stepMs: 300, pollIntervalMs: 250, retryAfter: null });
      const spawned = start(["act", address.address, "--body", bodyFile({ title: "Stop", pages: 60 }), "--async"]);
      await expect.poll(() => spawned.stderr(), { timeout: 15_000, interval: 50 }).toMatch(/: working \d+%/);
      spawned.child.kill(signal);
      const run = await spawned.done;
      expect(run.code, run.stderr).toBe(code);
      expect(run.stderr).toMatch(
        new RegExp(
          `interrupted \\(${signal}\\): the act's run was given up and deleted .*; the address says: cancelled$`,
          "m",
        ),
      );
      const deleted = address.seen.filter((r) => r.method === "DELETE");
      expect(deleted).toHaveLength(1);
      const id = deleted[0]!.path.split("/").at(-1)!;
      await expect.poll(() => address.aborted).toContain(id);
    });
  }

  it("a progress message with NUL, a line break and an ANSI escape reaches standard error escaped, on one line", async () => {
    const address = await serve({
      stepMs: 100,
      pollIntervalMs: 250,
      retryAfter: null,
      message: "\u0000\n\u001b[31mred\u009b2J",
    });
    const run = await start(["act", address.address, "--body", bodyFile({ title: "X", pages: 3 }), "--async"]).done;
    expect(run.code, run.stderr).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the terminal
    expect(run.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(run.stderr).toMatch(/^run [\w-]{22}: working \d+% \\u0000\\u000a\\u001b\[31mred\\u009b2J$/m);
    expect(run.stderr).not.toMatch(/^\[31mred/m);
  });

  it("503 prints its Retry-After in seconds; 422 after an Idempotency-Key says the key was used with other bytes", async () => {
    const address = await serve({ maxRuns: 1, stepMs: 1_000 });
    const hold = await fetch(address.address, {
      method: "POST",
      headers: { "content-type": "application/json", prefer: "respond-async" },
      body: JSON.stringify({ title: "Hold", pages: 100 }),
    });
    expect(hold.status).toBe(202);
    await hold.body?.cancel();
    const full = await start(["act", address.address, "--body", bodyFile({ title: "F", pages: 1 }), "--async"]).done;
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/^gpt-address act: the address is unavailable for now \(503\), Retry-After: \d+ s; /m);
    await address.close();
    server = undefined;

    // The key's record needs room in the store: a store with room.
    const keyed = await serve({ stepMs: 10 });

    const first = await start([
      "act",
      keyed.address,
      "--body",
      bodyFile({ title: "K", pages: 0 }),
      "--idempotency-key",
      "key-1",
    ]).done;
    expect(first.code, first.stderr).toBe(0);
    const reused = await start([
      "act",
      keyed.address,
      "--body",
      bodyFile({ title: "K2", pages: 0 }),
      "--idempotency-key",
      "key-1",
    ]).done;
    expect(reused.code).toBe(1);
    expect(reused.stderr).toMatch(
      /refused \(422\): the Idempotency-Key "key-1" was used before with other bytes; nothing was done/,
    );
  });

  it("usage: --wait needs --async and whole seconds; the key must be printable ASCII", async () => {
    const address = await serve({});
    const body = bodyFile({ title: "U", pages: 0 });
    for (const extra of [
      ["--wait", "3"],
      ["--async", "--wait", "1.5"],
      ["--async", "--run-timeout", "0"],
    ]) {
      const run = await start(["act", address.address, "--body", body, ...extra]).done;
      expect(run.code, extra.join(" ")).toBe(2);
    }
    const run = await start(["act", address.address, "--body", body, "--idempotency-key", "ключ"]).done;
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--idempotency-key must be printable ASCII/);
    const empty = await start(["act", address.address, "--body", body, "--idempotency-key", ""]).done;
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/--idempotency-key is empty/);
    expect(address.seen.filter((r) => r.method === "POST")).toHaveLength(0);
  });
});
