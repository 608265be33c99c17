/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned) against
 * `mcp()` on Node over loopback: the scenarios that apply to a tools-only server, and the
 * `tools-call-*` and `json-schema-2020-12` scenarios through test-only fixture forms named as
 * the suite expects (test/fixtures/mcp-forms/README.md). The suite's own checks judge the
 * call path, not ours. Each scenario is one child process with a bounded time.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { type ServerType, serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { forms } from "../../examples/pages/generated/forms.js";
import type { CompiledForm } from "../../src/address/form.ts";
import { buildForms } from "../../src/compile/build-forms.ts";
import { mcp } from "../../src/mcp/mcp.ts";
import type { AnyMcpAddress } from "../../src/mcp/tools.ts";
import { root } from "./harness.ts";

const FIXTURES = "test/fixtures/mcp-forms";
/** The fixtures' build output: a scratch folder outside the tree, removed afterwards. */
const generated = mkdtempSync(join(tmpdir(), "gpt-address-mcp-forms-"));
const CLI = join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

/** The scenarios that apply to a server whose only primitive is tools (`conformance list --server`). */
const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "dns-rebinding-protection",
  "tools-call-simple-text",
  "tools-call-error",
  "json-schema-2020-12",
];

let server: ServerType;
let url: string;

beforeAll(async () => {
  // The generated modules import only a type from typesFrom, which the transform erases.
  await buildForms({ root, formsDir: FIXTURES, outDir: relative(root, generated), typesFrom: "gpt-address" });
  // The build writes forms.ts (or forms.js once generated modules are JavaScript).
  const index = existsSync(join(generated, "forms.ts")) ? "forms.ts" : "forms.js";
  const module = await import(/* @vite-ignore */ join(generated, index));
  const fixtures = module.forms as Record<string, CompiledForm>;

  const tools: AnyMcpAddress[] = [
    {
      form: fixtures["test-simple-text"]!,
      toolName: "test_simple_text",
      act: () => "This is a simple text response for testing.",
    },
    {
      form: fixtures["test-error-handling"]!,
      toolName: "test_error_handling",
      act: () => {
        throw new Error("This tool intentionally returns an error for testing");
      },
    },
    { form: fixtures["json-schema-2020-12-tool"]!, toolName: "json_schema_2020_12_tool", act: () => ({ ok: true }) },
    { form: forms.feedback, act: (feedback: { rating: number }) => ({ received: true, rating: feedback.rating }) },
  ];
  const app = new Hono();
  app.all("/mcp", mcp(tools, { name: "gpt-address-conformance" }));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve());
  });
  url = `http://localhost:${(server.address() as AddressInfo).port}/mcp`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  rmSync(generated, { recursive: true, force: true });
});

/** Runs one scenario of the suite; resolves with its exit code and output. */
function scenario(name: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, "server", "--url", url, "--scenario", name],
      { cwd: root, timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe("MCP conformance suite 0.1.16 against mcp() on Node", () => {
  for (const name of SCENARIOS) {
    it(`${name} passes`, { timeout: 90_000 }, async () => {
      // The error fixture's act throws on purpose; the door logs it. Keep it out of the output,
      // and check that the suite's call did reach the act.
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        const { code, output } = await scenario(name);
        expect(output, output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
        expect(output, output).not.toMatch(/FAILURE/);
        expect(code, output).toBe(0);
        if (name === "tools-call-error")
          expect(errors).toHaveBeenCalledWith(expect.stringContaining("test_error_handling"), expect.any(Error));
      } finally {
        errors.mockRestore();
      }
    });
  }
});
