/**
 * A user's own project from an empty folder (issue 30): the packed package installed as a user
 * installs a tool (with Node 22 from the npm package `node`, and nothing of this repository on
 * PATH but Bun and Deno), then for each runtime `gpt-address init`, `npm install` (no warning),
 * the project's own `npm test`, its `npm run dev` answering the four requests every address
 * must get right (GET the form 200, the form's example 200, a refused act 204, a 3 MB act 204,
 * never a 5xx), `gpt-address check` against it (exit 0), and for Workers `wrangler deploy
 * --dry-run`.
 *
 * npm installs from its cache when it can (`--prefer-offline`), else from the registry.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES } from "../../src/cli/runtimes.ts";
import { freePort, NODE_22, npm, run, userTool, whileServing } from "./packed.ts";

let scratch = "";
let tarball = "";
/** The environment of every command a user types: Node 22 and the installed tool first on PATH. */
let userEnv: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "gpt-address-init-"));
  // Bun and Deno for those runtimes' dev scripts.
  ({ tarball, env: userEnv } = await userTool(scratch, ["bun", "deno"]));
}, 240_000);

afterAll(async () => {
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

const post = (url: string, body: string | Uint8Array) =>
  fetch(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
    signal: AbortSignal.timeout(30_000),
  });

describe.each([
  {
    runtime: "workers",
    dev: (port: number) => ({ args: ["--", "--ip", "127.0.0.1", "--port", String(port)], env: {} }),
  },
  { runtime: "node", dev: (port: number) => ({ args: [], env: { PORT: String(port) } }) },
  { runtime: "bun", dev: (port: number) => ({ args: [], env: { PORT: String(port) } }) },
  { runtime: "deno", dev: (port: number) => ({ args: [], env: { PORT: String(port) } }) },
  { runtime: "vercel", dev: (port: number) => ({ args: [], env: { PORT: String(port) } }) },
])("gpt-address init --runtime $runtime, in an empty folder, on Node 22", ({ runtime, dev }) => {
  let project = "";

  beforeAll(async () => {
    project = join(scratch, `my-${runtime}-address`);
    const { stdout } = await run("gpt-address", ["init", project, "--runtime", runtime, "--from", tarball], {
      cwd: scratch,
      env: userEnv,
    });
    expect(stdout).toContain(`cd my-${runtime}-address\n  npm install\n  npm run dev\n`);
  }, 60_000);

  it("installs with no warning, and the project's own npm test passes as generated", async () => {
    const install = await npm(project, ["install"], { env: userEnv, loglevel: "warn" });
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/warn/i);
    const manifest = JSON.parse(await readFile(join(project, "package.json"), "utf8"));
    expect(manifest.type).toBe("module");
    const { stdout } = await run("npm", ["test"], { cwd: project, env: userEnv, timeout: 120_000 });
    expect(stdout).toMatch(/Tests\s+3 passed/);
    const { stdout: version } = await run("node", ["--version"], { cwd: project, env: userEnv });
    expect(version.trim()).toBe(`v${NODE_22}`);
  }, 300_000);

  it("npm run dev serves the address: GET 200, its example 200, a refused act 204, a 3 MB act 204; check conforms", async () => {
    const port = await freePort();
    const { args, env } = dev(port);
    const url = `http://127.0.0.1:${port}/hello`;
    await whileServing(
      "npm",
      ["run", "dev", ...args],
      { cwd: project, env: { ...userEnv, ...env } },
      url,
      async (_, log) => {
        const form = (await (await fetch(url)).json()) as { p: string; m: { content: string }[]; s: unknown };
        expect(form.s).toEqual(JSON.parse(await readFile(join(project, "forms", "hello.json"), "utf8")).s);
        const example = form.m.at(-1)?.content ?? "";
        const accepted = await post(url, example);
        expect(accepted.status).toBe(200);
        expect(await accepted.json()).toMatchObject({ received: true });
        const refused = await post(url, `${example.slice(0, -1)}, "extra": 1}`);
        expect(refused.status).toBe(204);
        const large = await post(url, new Uint8Array(3_000_000).fill(0x61));
        expect(large.status).toBe(204);
        expect(await large.text()).toBe("");
        const check = await run("gpt-address", ["check", url], { cwd: project, env: userEnv }).catch(
          (error: { stdout?: string; code?: number }) => ({ stdout: `exit ${error.code}\n${error.stdout}` }),
        );
        expect(check.stdout).toMatch(/: conforms \(/);
        // npm echoes the script it runs: the runtime's own server answered.
        expect(log()).toContain(RUNTIMES[runtime as keyof typeof RUNTIMES].devCommand);
        expect(log()).not.toMatch(/\b5\d\d\b.*(?:Internal|Server Error)|Uncaught|ERR_/);
      },
    );
  }, 180_000);
});

it("gpt-address new adds a second address to a project init made, and the project's npm test covers it", async () => {
  const project = join(scratch, "my-node-address");
  const { stdout } = await run("npx", ["gpt-address", "new", "guest-book"], { cwd: project, env: userEnv });
  expect(stdout).toContain("wrote src/app.ts");
  const tested = await run("npm", ["test"], { cwd: project, env: userEnv, timeout: 120_000 });
  expect(tested.stdout).toMatch(/Tests\s+6 passed/);
}, 180_000);

it("a Workers project: wrangler deploy --dry-run builds the forms (wrangler.toml [build]) and bundles the Worker", async () => {
  const project = join(scratch, "my-workers-address");
  await rm(join(project, "src", "generated"), { recursive: true, force: true });
  const { stdout } = await run("npx", ["wrangler", "deploy", "--dry-run", "--outdir", "dist"], {
    cwd: project,
    env: userEnv,
    timeout: 120_000,
  });
  expect(stdout).toContain("built forms/hello.json → src/generated/hello.js");
  expect(stdout).toMatch(/Total Upload: .* gzip: [\d.]+ KiB/);
}, 180_000);
