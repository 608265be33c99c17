/**
 * `gpt-address act --async` as a user runs it (the bin spawned, standard error not a terminal)
 * against the project's own `address()` with runs on loopback
 * (test/node/client/render-address.ts): the run is followed with one plain line per change and the
 * result printed; `--run-timeout` gives it up; Ctrl-C (SIGINT) DELETEs the run, whose act sees
 * its signal abort, and exits 130.
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

  it("Ctrl-C (SIGINT) DELETEs the run, its act sees the signal abort, and the command exits 130", async () => {
    const address = await serve({ stepMs: 300, pollIntervalMs: 250, retryAfter: null });
    const spawned = start(["act", address.address, "--body", bodyFile({ title: "Stop", pages: 60 }), "--async"]);
    await expect.poll(() => spawned.stderr(), { timeout: 15_000, interval: 50 }).toMatch(/: working \d+%/);
    spawned.child.kill("SIGINT");
    const run = await spawned.done;
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toMatch(/run was cancelled .*: cancelled/);
    const deleted = address.seen.filter((r) => r.method === "DELETE");
    expect(deleted).toHaveLength(1);
    const id = deleted[0]!.path.split("/").at(-1)!;
    await expect.poll(() => address.aborted).toContain(id);
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
    expect(address.seen.filter((r) => r.method === "POST")).toHaveLength(0);
  });
});
