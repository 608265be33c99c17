/**
 * The deploy path of the example worker: `wrangler deploy --dry-run` (what `npm run deploy`
 * uploads, without uploading) builds offline, and the bundle fits the budget: at most 40 KiB
 * gzipped for the worker (issue 5), plus the 12 KiB page-script budget of issue 14 for each
 * page — every form has two pages generated into the bundle, each with the form's validator
 * and the page runtime: the page for people at `/<name>` and its MCP Apps variant at
 * `ui://<name>/form` (docs/page.md).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wrangler } from "../../scripts/wrangler.ts";

const root = join(import.meta.dirname, "../..");
const addresses = readdirSync(join(root, "forms")).filter((file) => file.endsWith(".json")).length;
/** Pages per address: the page for people and its MCP Apps variant (issue 14 §5). */
const PAGES_PER_ADDRESS = 2;
const budgetKiB = 40 + 12 * PAGES_PER_ADDRESS * addresses;

let outdir = "";
let report = "";

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), "gpt-address-dry-run-"));
  const { stdout, stderr } = await wrangler(["deploy", "--dry-run", "--outdir", outdir], {
    cwd: root,
    timeout: 90_000,
    env: { NO_COLOR: "1" },
  });
  report = stdout + stderr;
}, 120_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Wrangler's own figure, from its line `Total Upload: 61.70 KiB / gzip: 15.80 KiB`. */
function wranglerGzipKiB(): number {
  const match = /Total Upload: [\d.]+ KiB \/ gzip: ([\d.]+) KiB/.exec(report);
  if (match === null) throw new Error(`no upload size in wrangler's output:\n${report}`);
  return Number(match[1]);
}

describe("wrangler deploy --dry-run", () => {
  it("builds the example worker offline, without an account, and does not upload", () => {
    expect(report).toContain("--dry-run: exiting now.");
    expect(readdirSync(outdir)).toContain("worker.js");
  });

  it(`keeps the example worker within ${budgetKiB} KiB gzipped`, () => {
    const gzipKiB = wranglerGzipKiB();
    console.log(`example worker: ${gzipKiB} KiB gzipped (wrangler), budget ${budgetKiB} KiB`);
    expect(gzipKiB).toBeGreaterThan(0);
    expect(gzipKiB).toBeLessThanOrEqual(budgetKiB);
  });

  it("agrees with a gzip of the bundle made here (wrangler's figure is not an estimate of something else)", () => {
    const bundle = readFileSync(join(outdir, "worker.js"));
    const ours = gzipSync(bundle).length / 1024;
    expect(Math.abs(ours - wranglerGzipKiB())).toBeLessThan(Math.max(1, ours * 0.1));
  });

  it("S4/V4 bundles no schema compiler and no run-time code generation (forms are compiled at build time)", () => {
    const bundle = readFileSync(join(outdir, "worker.js"), "utf8");
    expect(bundle).not.toContain("@cfworker/json-schema");
    expect(bundle).not.toMatch(/\bnew Function\s*\(/);
    expect(bundle).not.toMatch(/\beval\s*\(/);
  });
});

describe("one address per worker (docs/deploy.md)", () => {
  let dir = "";
  let output = "";
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "gpt-address-one-"));
    writeFileSync(
      join(dir, "feedback.ts"),
      `import { address } from ${JSON.stringify(join(root, "src/address/address.ts"))};
import { runtimeFetch } from ${JSON.stringify(join(root, "src/body/runtime-framed.ts"))};
import { form } from ${JSON.stringify(join(root, "examples/pages/generated/feedback.js"))};
const app = address({ form, gptType: "feedback", act: (feedback) => ({ received: true, rating: feedback.rating }) });
export default { fetch: runtimeFetch(app.fetch) };
`,
    );
    writeFileSync(
      join(dir, "wrangler.toml"),
      `name = "gpt-address-feedback"\nmain = "feedback.ts"\ncompatibility_date = "2026-08-01"\nsend_metrics = false\n`,
    );
    const { stdout, stderr } = await wrangler(
      ["deploy", "--dry-run", "-c", join(dir, "wrangler.toml"), "--outdir", join(dir, "out")],
      { cwd: dir, timeout: 90_000, env: { NO_COLOR: "1" } },
    );
    output = stdout + stderr;
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a worker of one address builds, fits the budget, and answers at / with its form and its act", async () => {
    const gzip = /Total Upload: [\d.]+ KiB \/ gzip: ([\d.]+) KiB/.exec(output);
    expect(gzip, output).not.toBeNull();
    console.log(`one address per worker (feedback): ${gzip![1]} KiB gzipped`);
    expect(Number(gzip![1])).toBeLessThanOrEqual(budgetKiB);
    const mf = new Miniflare(
      convertV4MiniflareOptions({
        modules: true,
        scriptPath: join(dir, "out", "feedback.js"),
        modulesRoot: join(dir, "out"),
        compatibilityDate: "2026-08-01",
      }),
    );
    try {
      const get = await mf.dispatchFetch("http://localhost/");
      expect(get.status).toBe(200);
      expect(get.headers.get("gpt-type")).toBe("feedback");
      expect(await get.json()).toEqual(JSON.parse(readFileSync(join(root, "forms/feedback.json"), "utf8")));
      const act = await mf.dispatchFetch("http://localhost/", {
        method: "POST",
        body: '{"rating": 5, "topic": "other"}',
      });
      expect(act.status).toBe(200);
      expect(await act.json()).toEqual({ received: true, rating: 5 });
      const rejected = await mf.dispatchFetch("http://localhost/", {
        method: "POST",
        body: '{"rating": 6, "topic": "other"}',
      });
      expect(rejected.status).toBe(204);
    } finally {
      await mf.dispose();
    }
  });
});
