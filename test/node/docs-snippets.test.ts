/**
 * The code blocks of README.md and docs/ that are files of a user's project (marked
 * `<!-- snippet: RUNTIME PATH [GET /path | run] -->`, test/node/doc-snippets.ts) work in a
 * project made by `gpt-address init` from the packed package, on Node 22 (issue 30): for each
 * document and runtime, one project with that document's snippets written into it, then
 *
 * - `npm run build` (`gpt-address build`) builds and lints its forms, a JSON snippet under
 *   `forms/` included, and a form module (`forms/x.ts`, its schema library installed by
 *   `gpt-address new --form` in the projects' shared install);
 * - the project's own `tsc` typechecks it, every TypeScript snippet included;
 * - a `run` snippet runs with node and exits 0;
 * - a `GET` snippet is served, and the path answers 200: on Node `node <file>` (`src/server.ts`
 *   for `src/app.ts`), on Workers `wrangler dev` (with `-c <file>` for a `wrangler*.toml`).
 *
 * The projects of one runtime share one `npm install` (their `node_modules` link to it). Without
 * an install: every TypeScript or JavaScript block of those documents says whether it is such a
 * file, and no snippet imports anything outside its project (this repository's `src/`, say).
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlocks, documents, projectPaths, type Snippet, type SnippetRuntime, snippetsOf } from "./doc-snippets.ts";
import { freePort, npm, run, userTool, whileServing } from "./packed.ts";

const snippets = documents.flatMap(snippetsOf);

/** One project per document and runtime, holding that document's snippets. */
const groups = [...new Set(snippets.map((snippet) => `${snippet.document} ${snippet.runtime}`))].map((key) => {
  const [document, runtime] = key.split(" ") as [string, SnippetRuntime];
  return {
    document,
    runtime,
    snippets: snippets.filter((snippet) => snippet.document === document && snippet.runtime === runtime),
  };
});

const scriptLanguages = new Set(["ts", "typescript", "tsx", "js", "javascript", "mjs", "jsx"]);

describe("the documents' code blocks, read", () => {
  it("mark every TypeScript and JavaScript block: a file of a project (snippet), or why not", () => {
    const unmarked = documents
      .flatMap(codeBlocks)
      .filter((block) => scriptLanguages.has(block.language) && block.marker === undefined)
      .map((block) => `${block.document}:${block.line}`);
    expect(unmarked).toEqual([]);
  });

  it("import the package by its name: a relative import names a file of the project (never ../src/ of this repository)", async () => {
    const inAProject = await projectPaths();
    const outside = snippets.flatMap((snippet) => {
      const own = new Set(
        snippets
          .filter((other) => other.document === snippet.document && other.runtime === snippet.runtime)
          .map((other) => other.path),
      );
      return [...snippet.code.matchAll(/\bfrom\s+["'](\.{1,2}\/[^"']*)["']/g)]
        .map((match) => match[1]!)
        .filter((specifier) => {
          const path = normalize(join(dirname(snippet.path), specifier));
          return !own.has(path) && !inAProject.has(path) && !/^src\/generated\/[\w-]+\.js$/.test(path);
        })
        .map((specifier) => `${snippet.document}:${snippet.line} ${snippet.path}: ${specifier}`);
    });
    expect(outside).toEqual([]);
    expect(snippets.filter((snippet) => /from ["']gpt-address(\/\w+)?["']/.test(snippet.code)).length).toBeGreaterThan(
      5,
    );
  });

  it("cover the README, both runtimes, a served Worker and Node server, a build script", () => {
    expect(groups.map((group) => `${group.document} ${group.runtime}`)).toContain("README.md workers");
    expect(snippets.some((snippet) => snippet.runtime === "node" && snippet.get !== undefined)).toBe(true);
    expect(snippets.some((snippet) => snippet.runtime === "workers" && snippet.get !== undefined)).toBe(true);
    expect(snippets.some((snippet) => snippet.run)).toBe(true);
  });
});

let scratch = "";
let tarball = "";
/** The environment of every command a user types: Node 22 and the installed tool first on PATH. */
let userEnv: NodeJS.ProcessEnv = {};
/** The installed node_modules of a project of each runtime. */
const installed = new Map<SnippetRuntime, string>();

/** `gpt-address init` of a project named `name` on `runtime` in the scratch folder. */
async function init(name: string, runtime: SnippetRuntime): Promise<string> {
  const project = join(scratch, name);
  await run("gpt-address", ["init", project, "--runtime", runtime, "--from", tarball], { cwd: scratch, env: userEnv });
  return project;
}

/** A project made by init whose node_modules is the installed one of its runtime. */
async function linkedProject(name: string, runtime: SnippetRuntime): Promise<string> {
  const project = await init(name, runtime);
  await symlink(installed.get(runtime)!, join(project, "node_modules"), "dir");
  return project;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "gpt-address-snippets-"));
  ({ tarball, env: userEnv } = await userTool(scratch));
  for (const runtime of new Set(groups.map((group) => group.runtime))) {
    const project = await init(`installed-${runtime}`, runtime);
    // The schema libraries a form as code imports (docs/address.md), as `new --form` adds them.
    for (const form of ["zod", "valibot", "arktype"])
      await run("gpt-address", ["new", `with-${form}`, "--dir", project, "--form", form], {
        cwd: scratch,
        env: userEnv,
      });
    await npm(project, ["install"], { env: userEnv });
    installed.set(runtime, join(project, "node_modules"));
  }
}, 420_000);

afterAll(async () => {
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

/** Serves `project` as `snippet` says, and answers whether `snippet.get` answered 200 (with the log if not). */
async function served(project: string, snippet: Snippet): Promise<{ status: number; log: string }> {
  const port = await freePort();
  const bin = (name: string) => join(project, "node_modules", ".bin", name);
  const [command, args] =
    snippet.runtime === "workers"
      ? [
          bin("wrangler"),
          [
            "dev",
            ...(snippet.path.endsWith(".toml") ? ["-c", snippet.path] : []),
            "--ip",
            "127.0.0.1",
            "--port",
            String(port),
          ],
        ]
      : ["node", [snippet.path === "src/app.ts" ? "src/server.ts" : snippet.path]];
  const options = { cwd: project, env: { ...userEnv, PORT: String(port), HOST: "127.0.0.1" } };
  const url = `http://127.0.0.1:${port}${snippet.get}`;
  try {
    return await whileServing(
      command,
      args,
      options,
      url,
      async (status, log) => ({ status, log: log() }),
      (status) => status !== 0,
    );
  } catch (error) {
    return { status: -1, log: (error as Error).message };
  }
}

describe.each(groups)("the snippets of $document in a $runtime project made by gpt-address init", (group) => {
  it("build, typecheck, run and serve", async () => {
    const name = `${group.document.replace(/\W+/g, "-")}-${group.runtime}`.toLowerCase();
    const project = await linkedProject(name, group.runtime);
    for (const snippet of group.snippets) {
      await mkdir(dirname(join(project, snippet.path)), { recursive: true });
      await writeFile(join(project, snippet.path), snippet.code);
    }
    const options = { cwd: project, env: userEnv, timeout: 120_000 };
    await run("npm", ["run", "build"], options);
    const where = (snippet: Snippet) => `${snippet.document}:${snippet.line} (${snippet.path})`;
    const typecheck = await run(join(project, "node_modules", ".bin", "tsc"), [], options).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(typecheck, group.snippets.map(where).join(", ")).toBe("");
    for (const snippet of group.snippets.filter((each) => each.run)) await run("node", [snippet.path], options);
    for (const snippet of group.snippets.filter((each) => each.get !== undefined)) {
      const { status, log } = await served(project, snippet);
      expect(status, `${where(snippet)}: GET ${snippet.get}\n${log}`).toBe(200);
    }
  }, 300_000);
});

it("control: a snippet importing this repository's sources instead of the package fails the project's tsc", async () => {
  const [first] = snippets.filter(
    (snippet) => snippet.runtime === "workers" && /from "gpt-address"/.test(snippet.code),
  );
  if (first === undefined) throw new Error("no workers snippet importing gpt-address");
  const project = await linkedProject("control-workers", "workers");
  await writeFile(
    join(project, first.path),
    first.code.replace('from "gpt-address"', 'from "../src/address/address.ts"'),
  );
  await run("npm", ["run", "build"], { cwd: project, env: userEnv });
  const typecheck = run(join(project, "node_modules", ".bin", "tsc"), [], { cwd: project, env: userEnv });
  await expect(typecheck).rejects.toMatchObject({ stdout: expect.stringContaining("error TS") });
}, 120_000);
