/**
 * The runtime entries stay thin and alone: the library's runtime code (`src/` but the build-time
 * `src/compile/`, `src/lint/`, `src/cli/`, the actor's side `src/client/` and the `node:http` server
 * of gpt-address/node, `src/node/`) touches no runtime global (`Deno`, `Bun`, `process`, `node:` modules) and
 * imports nothing of the example; the example's entries (`examples/pages/<runtime>.ts`) are a
 * few lines each; and the
 * Vercel entry has the shape Vercel's edge runtime loads (`config.runtime = "edge"`, a default
 * `Request → Response` handler).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { root } from "./harness.ts";

/** Every `.ts` file under `dir`, as paths relative to the project root. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** The code of a file without its comments (so that prose naming `Deno.openKv` is allowed). */
function code(file: string): string {
  return readFileSync(join(root, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
}

/**
 * Node-only code: the compiler, the form linter, the `gpt-address` command and the client (build
 * time or the actor's side), and gpt-address/node (a `node:http` server, for Node, Bun and Deno).
 */
const buildTime = /^src\/(compile|lint|cli|client|node)\//;
const runtimeCode = sources("src").filter((file) => !buildTime.test(file));
const entries = ["node", "bun", "deno", "vercel", "worker"].map((runtime) => `examples/pages/${runtime}.ts`);
const globals = /\bDeno\.|\bBun\.|\bprocess\.|from\s+"node:|from\s+"bun:/;

describe("runtime entries", () => {
  it("the library's runtime code touches no runtime global or runtime module", () => {
    expect(runtimeCode.length).toBeGreaterThan(10);
    const offenders = runtimeCode.filter((file) => globals.test(code(file)));
    expect(offenders).toEqual([]);
  });

  it("the check above would notice a runtime global (control)", () => {
    expect(globals.test(code("examples/pages/deno.ts"))).toBe(true);
    expect(globals.test(code("examples/pages/bun.ts"))).toBe(true);
    expect(globals.test(code("examples/pages/node.ts"))).toBe(true);
  });

  it("nothing in the library imports the example", () => {
    const offenders = sources("src").filter((file) => /from\s+"[^"]*\/examples\//.test(code(file)));
    expect(offenders).toEqual([]);
  });

  it("each entry is a few lines", () => {
    for (const file of entries) {
      const lines = code(file)
        .split("\n")
        .filter((line) => line.trim() !== "");
      expect(lines.length, file).toBeLessThanOrEqual(30);
    }
  });

  it("the Vercel entry selects the edge runtime and answers a Request with a Response", async () => {
    // With no UPSTASH_* variables here, the entry warns once at start-up that pages stay in memory.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let warned: unknown[][] = [];
    const entry = await (async () => {
      try {
        return (await import("../../examples/pages/vercel.ts")) as {
          config: unknown;
          default: (request: Request) => Response | Promise<Response>;
        };
      } finally {
        warned = warn.mock.calls.map((call) => [...call]);
        warn.mockRestore();
      }
    })();
    expect(warned).toEqual([[expect.stringMatching(/^gpt-address example: pages are kept in memory/)]]);
    expect(entry.config).toEqual({ runtime: "edge" });
    const response = await entry.default(new Request("https://example.vercel.app/page"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
  });
});
