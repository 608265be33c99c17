/**
 * The code blocks of README.md and docs/ that are files of a user's project, as the documents
 * mark them: an HTML comment right before the block,
 *
 *     <!-- snippet: workers src/app.ts GET /greeting -->
 *
 * names the runtime of the project `gpt-address init` makes for it (`workers` or `node`), the
 * file's path in that project, and optionally what to do with it besides building and
 * typechecking: `GET /path` (serve the project with this file in it; the path answers 200) or
 * `run` (run the file with node; exit 0). A TypeScript or JavaScript block that is no such file
 * says why: `<!-- not a snippet: the reason -->`. test/node/docs-snippets.test.ts runs them.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FIRST_ADDRESS } from "../../src/cli/runtimes.ts";
import { addressFiles } from "../../src/cli/scaffold.ts";

export const root = join(import.meta.dirname, "../..");

/** README.md and every page of docs/. */
export const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

export type SnippetRuntime = "workers" | "node";

export interface Snippet {
  readonly document: string;
  /** 1-based line of the block's opening fence. */
  readonly line: number;
  readonly runtime: SnippetRuntime;
  /** The file's path in the project. */
  readonly path: string;
  /** `GET /path`: the path a server started with this file answers 200. */
  readonly get?: string;
  /** `run`: the file runs with node and exits 0. */
  readonly run: boolean;
  readonly language: string;
  readonly code: string;
}

export interface CodeBlock {
  readonly document: string;
  readonly line: number;
  readonly language: string;
  readonly code: string;
  /** The marker comment right before it (blank lines between allowed), if any. */
  readonly marker?: string;
}

const markerPattern = /^<!-- ((?:snippet|not a snippet):.*?) -->$/;

/** Every fenced code block of `document`, with the marker before it. */
export function codeBlocks(document: string): CodeBlock[] {
  const lines = readFileSync(join(root, document), "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(`{3,})(\S*)/.exec(lines[index]!);
    if (open === null) continue;
    const fence = open[1]!;
    const end = lines.findIndex((line, at) => at > index && line.startsWith(fence) && line.trim() === fence);
    if (end < 0) throw new Error(`${document}:${index + 1}: unclosed code block`);
    let before = index - 1;
    while (before >= 0 && lines[before]!.trim() === "") before--;
    const marker = before >= 0 ? markerPattern.exec(lines[before]!.trim())?.[1] : undefined;
    blocks.push({
      document,
      line: index + 1,
      language: open[2]!,
      code: `${lines.slice(index + 1, end).join("\n")}\n`,
      ...(marker === undefined ? {} : { marker }),
    });
    index = end;
  }
  return blocks;
}

/** The marked snippets of `document`; throws on a marker it cannot read. */
export function snippetsOf(document: string): Snippet[] {
  const snippets: Snippet[] = [];
  for (const block of codeBlocks(document)) {
    if (block.marker === undefined || !block.marker.startsWith("snippet:")) continue;
    const where = `${document}:${block.line}`;
    const words = block.marker.slice("snippet:".length).trim().split(/\s+/);
    const [runtime, path, ...rest] = words;
    if (runtime !== "workers" && runtime !== "node") throw new Error(`${where}: runtime ${runtime}?`);
    if (path === undefined || path.startsWith("/") || path.includes("..")) throw new Error(`${where}: path ${path}?`);
    let get: string | undefined;
    let run = false;
    if (rest[0] === "GET" && rest[1]?.startsWith("/") && rest.length === 2) get = rest[1];
    else if (rest[0] === "run" && rest.length === 1) run = true;
    else if (rest.length > 0) throw new Error(`${where}: ${rest.join(" ")}? (GET /path or run)`);
    snippets.push({
      document,
      line: block.line,
      runtime,
      path,
      ...(get === undefined ? {} : { get }),
      run,
      language: block.language,
      code: block.code,
    });
  }
  return snippets;
}

/**
 * The files of a project `gpt-address init` makes, on any runtime (its templates and its first
 * address), and the folder `gpt-address build` writes, `src/generated/`.
 */
export async function projectPaths(): Promise<Set<string>> {
  const paths = new Set(["package.json", "tsconfig.json", "src/generated", "src/generated/"]);
  for (const folder of readdirSync(join(root, "templates"))) {
    if (folder === "address") continue;
    for (const file of readdirSync(join(root, "templates", folder), { recursive: true, encoding: "utf8" }))
      paths.add(file.replace(/(^|\/)(gitignore|dev\.vars)$/, "$1.$2"));
  }
  for (const file of Object.keys(await addressFiles(FIRST_ADDRESS))) paths.add(file);
  return paths;
}
