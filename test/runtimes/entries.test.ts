/**
 * The runtime entries stay thin and alone: only `src/adapters/` touches runtime globals
 * (`Deno`, `Bun`, `process`, `node:` modules), nothing outside it imports an adapter, and the
 * Vercel entry has the shape Vercel's edge runtime loads (`config.runtime = "edge"`, a default
 * `Request → Response` handler). Build-time code (`src/compile/`) runs on Node and is exempt.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
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

const runtimeCode = sources("src").filter((file) => !file.startsWith("src/adapters/") && !file.startsWith("src/compile/"));
const globals = /\bDeno\.|\bBun\.|\bprocess\.|from\s+"node:|from\s+"bun:/;

describe("runtime entries", () => {
  it("only src/adapters/ touches runtime globals or runtime modules", () => {
    expect(runtimeCode.length).toBeGreaterThan(10);
    const offenders = runtimeCode.filter((file) => globals.test(code(file)));
    expect(offenders).toEqual([]);
  });

  it("the check above would notice a runtime global (control)", () => {
    expect(globals.test(code("src/adapters/deno.ts"))).toBe(true);
    expect(globals.test(code("src/adapters/bun.ts"))).toBe(true);
    expect(globals.test(code("src/adapters/node.ts"))).toBe(true);
  });

  it("nothing outside src/adapters/ imports an adapter", () => {
    const offenders = sources("src")
      .filter((file) => !file.startsWith("src/adapters/"))
      .filter((file) => /from\s+"[^"]*\/adapters\//.test(code(file)));
    expect(offenders).toEqual([]);
  });

  it("each entry is a few lines", () => {
    for (const file of sources("src/adapters")) {
      const lines = code(file).split("\n").filter((line) => line.trim() !== "");
      expect(lines.length, file).toBeLessThanOrEqual(30);
    }
  });

  it("the Vercel entry selects the edge runtime and answers a Request with a Response", async () => {
    const entry = (await import("../../src/adapters/vercel.ts")) as {
      config: unknown;
      default: (request: Request) => Response | Promise<Response>;
    };
    expect(entry.config).toEqual({ runtime: "edge" });
    const response = await entry.default(new Request("https://example.vercel.app/page"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
  });
});
