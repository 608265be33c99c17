/**
 * The package as a library user gets it (issue 10 §2): `npm pack` of the working tree (its
 * `prepack` script builds dist/ and leaves `prepare` out of the packed manifest), checked by publint and @arethetypeswrong/cli, installed
 * from the tarball and from a git URL into new projects that have only it, hono and, for the
 * tarball, Node 22 from the npm package `node`; there a form is built with
 * `gpt-address/compile` and served with `gpt-address` on Node 22 with no TypeScript loader,
 * the generated `.d.ts` typecheck against the package's types, and a Worker bundle of
 * `gpt-address` reaches none of the build-time tooling.
 *
 * npm installs from its cache when it can (`--prefer-offline`), else from the registry.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyWorkingTree, NODE_20, NODE_22, npm, pack, repo, run } from "./packed.ts";

const bin = (name: string, path: string) => join(repo, "node_modules", name, path);

/** hono, as pinned in this repository's devDependencies. */
const HONO = (JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as { devDependencies: { hono: string } })
  .devDependencies.hono;

const greeting = {
  p: "Send a greeting.",
  m: [{ role: "user", content: "Say hi." }],
  s: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://example.com/greeting",
    title: "Greeting",
    type: "object",
    additionalProperties: false,
    required: ["text"],
    properties: { text: { $ref: "#text" } },
    $defs: { text: { $anchor: "text", type: "string", maxLength: 20 } },
  },
};

/** A project that uses the package: builds its forms, serves them, and is typechecked. */
const consumerFiles: Record<string, string> = {
  "forms/greeting.json": JSON.stringify(greeting, null, 2),
  "build.mjs": `import { buildForms } from "gpt-address/compile";
const built = await buildForms({ root: import.meta.dirname, outDir: "generated" });
console.log(JSON.stringify(built));
`,
  // Only hono and gpt-address: a few lines of node:http stand in for a server adapter.
  "server.mjs": `import { createServer } from "node:http";
import { Hono } from "hono";
import { address } from "gpt-address";
import { form } from "./generated/greeting.js";

const app = new Hono();
app.route("/greeting", address({ form, act: (greeting) => ({ received: greeting.text }) }));
const server = createServer(async (incoming, outgoing) => {
  const chunks = [];
  for await (const chunk of incoming) chunks.push(chunk);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
  const method = incoming.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks);
  const response = await app.fetch(new Request("http://127.0.0.1" + incoming.url, { method, headers, body }));
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(0, "127.0.0.1", () => console.log("listening " + server.address().port + " on " + process.version));
`,
  "worker.mjs": `import { Hono } from "hono";
import { address } from "gpt-address";
import { form } from "./generated/greeting.js";
const app = new Hono();
app.route("/greeting", address({ form, act: (greeting) => ({ received: greeting.text }) }));
export default app;
`,
  "check.ts": `import { address, type CompiledForm } from "gpt-address";
import { compileForm } from "gpt-address/compile";
import { forms } from "./generated/forms.js";
import { type Act, form } from "./generated/greeting.js";

const typed: CompiledForm<Act> = forms.greeting;
const value: unknown = JSON.parse('{"text":"x"}');
export const text: string | undefined = form.validate(value) ? value.text : undefined;
export const app = address({ form: typed, act: (act) => ({ length: act.text.length }) });
export const source: string = compileForm({ type: "string" });
`,
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "ES2022",
      lib: ["ES2023", "DOM"],
      types: [],
    },
    include: ["check.ts", "generated/*.d.ts"],
  }),
};

/**
 * A project with `consumerFiles` and `dependencies` installed. npm must print no warning: its
 * `allowScripts` approves the `node` package's install script, and gpt-address's `prepare`
 * only where asked (an install from a git URL runs it to build dist/).
 */
async function consumer(
  root: string,
  dependencies: Record<string, string>,
  allowScripts: Record<string, boolean> = {},
): Promise<string> {
  await mkdir(root, { recursive: true });
  const manifest = { name: "consumer", private: true, type: "module", allowScripts: { node: true, ...allowScripts } };
  await writeFile(join(root, "package.json"), JSON.stringify(manifest, null, 2));
  for (const [name, text] of Object.entries(consumerFiles)) {
    await mkdir(join(root, name, ".."), { recursive: true });
    await writeFile(join(root, name), text);
  }
  const specs = Object.entries(dependencies).map(([name, version]) => (version === "" ? name : `${name}@${version}`));
  const { stdout, stderr } = await npm(root, ["install", "--save-exact", ...specs], { loglevel: "warn" });
  if (/warn/i.test(`${stdout}${stderr}`)) throw new Error(`npm install warned:\n${stdout}${stderr}`);
  return root;
}

let scratch = "";
let source = "";
let tarball = "";
/** The install from the git URL, started as soon as the clone source exists (it takes longest). */
let gitConsumer: Promise<string> | undefined;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "gpt-address-package-"));
  // What a clone of this commit would hold, committed in a repository of its own.
  source = join(scratch, "source");
  await copyWorkingTree(source);
  const git = (...args: string[]) =>
    run("git", ["-c", "user.name=test", "-c", "user.email=test@localhost", ...args], { cwd: source });
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-q", "-m", "the working tree");
  gitConsumer = consumer(
    join(scratch, "git-consumer"),
    { [`git+file://${source}`]: "", hono: HONO },
    // npm matches a git dependency's approval by its spec, not its name.
    { [`git+file://${source}`]: true },
  );
  gitConsumer.catch(() => {}); // awaited (and its error reported) by its own test
  tarball = await pack(source, scratch);
}, 120_000);

afterAll(async () => {
  await gitConsumer?.catch(() => {});
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

describe("the package (issue 10 §2)", () => {
  it("packs dist/ built by prepack, init's templates, the manifest, README and LICENSE; no sources, tests or examples", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.split("\n").filter((line) => line !== "");
    expect(files).toContain("package/dist/index.js");
    expect(files).toContain("package/dist/index.d.ts");
    expect(files).toContain("package/dist/compile/index.js");
    expect(files).toContain("package/dist/client/index.js");
    expect(files).toContain("package/dist/compile/meta-schema/2020-12/schema.json");
    expect(files).toContain("package/templates/common/src/app.ts");
    expect(
      files.filter((file) => !/^package\/(dist\/|templates\/|package\.json$|README\.md$|LICENSE$)/.test(file)),
    ).toEqual([]);
    // TypeScript sources only as templates of a user's project.
    expect(files.filter((file) => /(?<!\.d)\.ts$/.test(file) && !file.startsWith("package/templates/"))).toEqual([]);
  });

  it("publint reports no problem, suggestions included (--strict)", async () => {
    const { stdout } = await run(process.execPath, [bin("publint", "src/cli.js"), "run", tarball, "--strict"]);
    expect(stdout).toMatch(/All good!/);
  }, 60_000);

  it("@arethetypeswrong/cli reports no problem for an ESM-only package (profile esm-only)", async () => {
    // The profile leaves out node10 and require() from CommonJS: the package ships ESM only.
    // attw exits non-zero when it finds a problem (checked: it does without the profile).
    const { stdout } = await run(process.execPath, [
      bin("@arethetypeswrong/cli", "dist/index.js"),
      tarball,
      "--profile",
      "esm-only",
      "--format",
      "json",
    ]);
    const report = JSON.parse(stdout) as {
      analysis: { entrypoints: Record<string, unknown> };
      problems: Record<string, { entrypoint: string; resolutionKind: string }[]>;
    };
    const entries = Object.keys(JSON.parse(await readFile(join(repo, "package.json"), "utf8")).exports);
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(entries.sort());
    // Problems the profile ignores are still listed in JSON: only those may be there.
    const counted = Object.values(report.problems)
      .flat()
      .filter((problem) => !["node10", "node16-cjs"].includes(problem.resolutionKind));
    expect(counted).toEqual([]);
  }, 60_000);

  describe("installed from the tarball with hono and Node 22", () => {
    let root = "";
    let node = "";
    beforeAll(async () => {
      root = await consumer(join(scratch, "tarball-consumer"), { [tarball]: "", hono: HONO, node: NODE_22 });
      node = join(root, "node_modules", ".bin", "node");
      await run(node, ["build.mjs"], { cwd: root });
    }, 240_000);

    it("has only the compiler's and the command's dependencies (no devDependency of this repository)", async () => {
      const manifest = JSON.parse(await readFile(join(root, "node_modules", "gpt-address", "package.json"), "utf8"));
      // The compiler's (meta-schema check, Act types), the command's (citty; cli-progress for act's run bar; recheck for lint)
      // and gpt-address/node's (@hono/node-server).
      expect(Object.keys(manifest.dependencies).sort()).toEqual([
        "@cfworker/json-schema",
        "@hono/node-server",
        "citty",
        "cli-progress",
        "json-schema-to-typescript",
        "recheck",
      ]);
      await expect(readFile(join(root, "node_modules", "wrangler", "package.json"))).rejects.toThrow(/ENOENT/);
    });

    it("builds the form with gpt-address/compile into .js modules with .d.ts beside them", async () => {
      const index = await readFile(join(root, "generated", "greeting.d.ts"), "utf8");
      expect(index).toContain(`import type { CompiledForm } from "gpt-address";`);
      expect(index).toMatch(/export interface Act \{\s+text: Text;\s+\}/);
      await expect(readFile(join(root, "generated", "greeting.js"), "utf8")).resolves.toContain("export const form");
    });

    it("installs the gpt-address bin, which lints the project's form on Node 22 (a warning only: exit 0)", async () => {
      await expect(readFile(join(root, "node_modules", ".bin", "gpt-address"))).resolves.toBeDefined();
      const bin = join(root, "node_modules", "gpt-address", "dist", "cli", "bin.js");
      const { stdout } = await run(node, [bin, "lint", join("forms", "greeting.json")], { cwd: root });
      expect(stdout).toContain("use-act-instructions");
      expect(stdout).toContain("1 problem(s) (0 error(s), 1 warning(s)) in 1 form(s)");
    });

    it("serves the form on Node 22 with no TypeScript loader: GET the form, POST a valid and an invalid act", async () => {
      const child: ChildProcess = spawn(node, ["server.mjs"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      try {
        let log = "";
        const [port, version] = await new Promise<[number, string]>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no port within 20 s:\n${log}`)), 20_000);
          child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
          child.stdout?.on("data", (chunk: Buffer) => {
            log += chunk.toString();
            const match = /listening (\d+) on (v\S+)/.exec(log);
            if (match) {
              clearTimeout(timer);
              resolve([Number(match[1]), match[2] as string]);
            }
          });
          child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${log}`)));
        });
        expect(version).toBe(`v${NODE_22}`);
        const url = `http://127.0.0.1:${port}/greeting`;
        const got = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        expect(got.status).toBe(200);
        expect(((await got.json()) as { s: unknown }).s).toEqual(greeting.s);
        const post = (body: string) =>
          fetch(url, {
            method: "POST",
            body,
            headers: { "content-type": "application/json" },
            signal: AbortSignal.timeout(10_000),
          });
        const accepted = await post('{"text":"hi"}');
        expect(accepted.status).toBe(200);
        expect(await accepted.json()).toEqual({ received: "hi" });
        const rejected = await post('{"text":"hi","extra":1}');
        expect(rejected.status).toBe(204);
        expect(log).not.toMatch(/Warning|Error/);
      } finally {
        child.kill("SIGTERM");
      }
    }, 60_000);

    it("typechecks a TypeScript user of both entries and the generated .d.ts (nodenext, declarations checked)", async () => {
      const result = await run(process.execPath, [bin("typescript", "bin/tsc"), "-p", root], { cwd: root }).then(
        () => "",
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(result).toBe("");
    }, 60_000);

    it("a Worker bundle of gpt-address reaches none of the build tooling and no Node module", async () => {
      const { build } = await import("esbuild");
      const result = await build({
        entryPoints: [join(root, "worker.mjs")],
        absWorkingDir: root,
        bundle: true,
        write: false,
        metafile: true,
        format: "esm",
        platform: "neutral",
        mainFields: ["module", "main"],
        conditions: ["workerd", "worker", "browser"],
        logLevel: "silent",
      });
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs).toContain("node_modules/gpt-address/dist/index.js");
      expect(
        inputs.filter((input) => /json-schema-to-typescript|@cfworker|prettier|lodash|compile\//.test(input)),
      ).toEqual([]);
      expect(Object.values(result.metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external))).toEqual(
        [],
      );
    });
  });

  it("runs on Node 20.20, the oldest line its engines (>=20.19) name: the command builds and lints, gpt-address/node serves", async () => {
    const root = await consumer(join(scratch, "node20-consumer"), { [tarball]: "", hono: HONO, node: NODE_20 });
    const node = join(root, "node_modules", ".bin", "node");
    const command = join(root, "node_modules", "gpt-address", "dist", "cli", "bin.js");
    const built = await run(node, [command, "build", "--out", "generated"], { cwd: root });
    expect(built.stdout).toContain("built forms/greeting.json → generated/greeting.js");
    const linted = await run(node, [command, "lint", join("forms", "greeting.json")], { cwd: root });
    expect(linted.stdout).toContain("in 1 form(s)");
    const served = await run(
      node,
      [
        "--input-type=module",
        "-e",
        `import { Hono } from "hono";
import { address } from "gpt-address";
import { serve } from "gpt-address/node";
import { form } from "./generated/greeting.js";
const app = new Hono().route("/greeting", address({ form, act: (greeting) => ({ received: greeting.text }) }));
const server = serve(app, { port: 0, onListen: async ({ port }) => {
  const response = await fetch("http://127.0.0.1:" + port + "/greeting", { method: "POST", body: '{"text":"hi"}' });
  console.log(process.version, response.status, await response.text());
  server.close();
} });`,
      ],
      { cwd: root, timeout: 30_000 },
    );
    expect(served.stdout.trim()).toBe(`v${NODE_20} 200 {"received":"hi"}`);
  }, 300_000);

  it("installs from a git URL with its prepare approved (allowScripts): npm runs it in the clone, and the form builds", async () => {
    const root = await (gitConsumer as Promise<string>);
    const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
    expect(manifest.dependencies["gpt-address"]).toMatch(/^git\+file:/);
    const { stdout } = await run(process.execPath, ["build.mjs"], { cwd: root });
    expect(JSON.parse(stdout)).toMatchObject([
      { name: "greeting", module: "generated/greeting.js", typeFallback: null },
    ]);
    const { form } = await import(pathToFileURL(join(root, "generated", "greeting.js")).href);
    expect(form.validate({ text: "hi" })).toBe(true);
    expect(form.validate({ text: "a".repeat(21) })).toBe(false);
  }, 300_000);
});
