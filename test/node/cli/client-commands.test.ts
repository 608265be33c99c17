/**
 * `gpt-address check` and `gpt-address act` as a user runs them: the bin spawned as a child
 * process (Node's type stripping, as `npx gpt-address` in this checkout), against addresses
 * and model APIs this test starts itself on loopback. Exit codes: 0 conforming / accepted, 1 a
 * MUST failure / a failed act, 2 a usage error.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLocally } from "../../../src/client/act.ts";
import { compileValidator } from "../../../src/client/form-validator.ts";
import { profiles } from "../../../src/client/profiles.ts";
import { projectForm } from "../../../src/client/projection.ts";
import {
  type BrokenAddress,
  pageFile,
  type ReceivedAct,
  root,
  type Served,
  serveBrokenAddress,
  serveRecordingExample,
  startFakeApi,
} from "../client/servers.ts";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the bin with `args`, an environment without API keys, and optional standard input. */
function cli(args: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1" };
    const child = execFile(
      process.execPath,
      [join(root, "src/cli/bin.ts"), ...args],
      { cwd: root, env: { ...env, ...options.env }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin!.end(options.input);
    else child.stdin!.end();
  });
}

const example = pageFile.m.find((m) => m.role === "assistant")!.content;

describe("gpt-address check and act (the bin)", () => {
  let good: Served & { received: ReceivedAct[] };
  let broken: BrokenAddress;
  let dir: string;
  beforeAll(async () => {
    [good, broken] = await Promise.all([serveRecordingExample(), serveBrokenAddress()]);
    dir = mkdtempSync(join(tmpdir(), "gpt-address-cli-"));
  });
  afterAll(async () => {
    await Promise.all([good?.close(), broken?.close()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("check: a conforming address exits 0 with a table; what it POSTs the form refuses (but for its size, the 10 MiB probe)", async () => {
    const before = good.received.length;
    const run = await cli(["check", `${good.url}/page`]);
    expect(run.code, run.stderr).toBe(0);
    const validator = await compileValidator(pageFile.s);
    const sent = good.received.slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(10);
    // Every probe is bytes the form refuses, except the one over 10 MiB (a valid value padded
    // with spaces): only its size makes an address refuse it.
    for (const post of sent) {
      if (post.bytes.length > 10 * 1024 * 1024) continue;
      expect(checkLocally(post.bytes, validator)).not.toBeNull();
    }
    expect(sent.filter((post) => post.bytes.length > 10 * 1024 * 1024)).toHaveLength(1);
    expect(run.stdout).toMatch(/^PASS\s+MUST\s+arrival\s/m);
    expect(run.stdout).toMatch(/^PASS\s+MUST\s+duplicate-name\s/m);
    expect(run.stdout).toMatch(/^SKIP\s+MUST\s+act\s.*needs --act/m);
    expect(run.stdout).toContain(": conforms");
  });

  it("check: a JSON.parse address exits 1 and names each broken point; --format json gives the same points", async () => {
    const run = await cli(["check", `${broken.url}/page`]);
    expect(run.code).toBe(1);
    for (const id of [
      "duplicate-name",
      "duplicate-name-escaped",
      "duplicate-name-nested",
      "invalid-utf8",
      "oversize",
    ]) {
      expect(run.stdout).toMatch(new RegExp(`^FAIL\\s+MUST\\s+${id}\\s.*acted on \\(200\\)`, "m"));
    }
    expect(run.stdout).toMatch(/does not conform: MUST failed: .*duplicate-name/);
    const json = await cli(["check", `${broken.url}/page`, "--format", "json"]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { ok: boolean; points: { id: string; outcome: string }[] };
    expect(report.ok).toBe(false);
    expect(report.points.filter((p) => p.outcome === "fail").map((p) => p.id)).toContain("duplicate-name-nested");
  });

  it("check: exit 1 for an address that needs a header, 2 for a usage error (no URL, unknown flag)", async () => {
    const needs = await cli(["check", `${broken.url}/needs-header`]);
    expect(needs.code).toBe(1);
    expect(needs.stdout).toMatch(/^FAIL\s+MUST\s+arrival\s.*406/m);
    expect((await cli(["check", "not a url"])).code).toBe(2);
    expect((await cli(["check", `${good.url}/page`, "--frobnicate"])).code).toBe(2);
  });

  it("act --body FILE: 200 from the example, the JSON answer on stdout, the exact bytes sent", async () => {
    const file = join(dir, "page.json");
    writeFileSync(file, example);
    const run = await cli(["act", `${good.url}/page`, "--body", file]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: expect.any(String), url: expect.any(String) });
    expect(new TextDecoder().decode(good.received.at(-1)!.bytes)).toBe(example);
  });

  it("act --body -: reads standard input; a value the form rejects is not sent (exit 1, pointer and keyword named)", async () => {
    const before = good.received.length;
    const run = await cli(["act", `${good.url}/page`, "--body", "-"], {
      input: example.replace('"title": "', '"title": "'),
    });
    expect(run.code, run.stderr).toBe(0);
    const bad = await cli(["act", `${good.url}/page`, "--body", "-"], { input: "{}" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("not sent: the form rejects it at /required (required)");
    expect(good.received.length).toBe(before + 1);
    const forced = await cli(["act", `${good.url}/page`, "--body", "-", "--force", "--verbose"], { input: "{}" });
    expect(forced.code).toBe(1);
    expect(forced.stderr).toContain("refused (204)");
    expect(forced.stderr).toMatch(/POST .*\/page\ncontent-type: application\/json\ngpt-actor: gpt-address act --body/);
  });

  it("act --actor openai --base-url: the form reaches the fake as a strict JSON schema and the act lands (200)", async () => {
    const fake = await startFakeApi([{ fixture: "openai-page.json" }]);
    try {
      const run = await cli([
        "act",
        `${good.url}/page`,
        "--actor",
        "openai",
        "--base-url",
        `${fake.url}/v1`,
        "--model",
        "local-model",
        "--prompt",
        "Publish a page about GPT addresses",
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ id: expect.any(String) });
      expect(run.stderr).toMatch(/openai local-model: attempt 1\/3 valid/);
      const format = fake.requests[0]!.json.response_format as { type: string; json_schema: Record<string, unknown> };
      expect(format).toMatchObject({ type: "json_schema", json_schema: { strict: true, name: "page" } });
      expect(format.json_schema.schema).toEqual(projectForm(pageFile.s, profiles.openai).schema);
      expect(good.received.at(-1)!.headers["gpt-actor"]).toBe("openai local-model; via=gpt-address");
    } finally {
      await fake.close();
    }
  });

  it("act --actor without its key or model: exit 2 before any request", async () => {
    const fake = await startFakeApi([{ fixture: "anthropic-page.json" }]);
    try {
      const run = await cli(["act", `${good.url}/page`, "--actor", "anthropic", "--model", "m", "--prompt", "x"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("ANTHROPIC_API_KEY");
      const noModel = await cli(["act", `${good.url}/page`, "--actor", "openai", "--prompt", "x"]);
      expect(noModel.code).toBe(2);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await fake.close();
    }
  });
});
