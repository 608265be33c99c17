/**
 * What differs between the runtimes `gpt-address init` makes a project for: the template
 * folders copied over `templates/common/`, the scripts, the tools installed, the Node the
 * scripts need, and the TypeScript library. The one list of runtimes.
 *
 * @module
 */

export type Runtime = "workers" | "node" | "bun" | "deno" | "vercel";

/** The address a new project starts with. */
export const FIRST_ADDRESS = "hello";

export interface RuntimeTemplate {
  /** How the README and `init` name it. */
  readonly title: string;
  /** Folders of `templates/` copied after `common/`. */
  readonly folders: ReadonlyArray<string>;
  /** Scripts besides `build` and `test` (`dev` always). */
  readonly scripts: Readonly<Record<string, string>>;
  /** The command behind `npm run dev`, for the README. */
  readonly devCommand: string;
  /** The README's words on what `npm run dev` rebuilds and reloads when a file changes. */
  readonly devReload: string;
  /** The README's words on serving it for real. */
  readonly deploy: string;
  /** devDependencies besides typescript and vitest, at the versions gpt-address pins. */
  readonly devDependencies: ReadonlyArray<string>;
  /**
   * Packages whose install scripts npm may run (`allowScripts`, npm 11): without it npm warns
   * and skips them. wrangler's esbuild and workerd fetch their platform binaries so.
   */
  readonly allowScripts: ReadonlyArray<string>;
  /**
   * `engines.node`: what the scripts need. wrangler 4 needs Node 22; `node file.ts` (type
   * stripping without a flag) Node 22.18; the `gpt-address` command and vitest run on either.
   */
  readonly node: string;
  /** The folders of TypeScript the project's tsconfig.json checks. */
  readonly include: ReadonlyArray<string>;
  /** `compilerOptions.lib` and `types` of the project's tsconfig.json. */
  readonly lib: ReadonlyArray<string>;
  readonly types: ReadonlyArray<string>;
  /** wrangler.toml's `compatibility_date`. */
  readonly compatibilityDate?: string;
}

/** A server over `node:http` (`gpt-address/node`), with node, bun or deno running `src/server.ts`. */
const nodeHttp = (title: string, run: string, watch: string, extraFolders: string[] = []): RuntimeTemplate => ({
  title,
  folders: ["node-http", ...extraFolders],
  scripts: { dev: `gpt-address build && ${watch} src/server.ts`, start: `gpt-address build && ${run} src/server.ts` },
  devCommand: `${watch} src/server.ts`,
  devReload: `\`${watch}\` restarts the server when a module it loaded changes; it does not build the forms. After editing a form, run \`npm run build\` (the server restarts on the rebuilt module); after \`npx gpt-address new <name>\`, stop \`npm run dev\` and start it again (the new route imports a module that the build had not written when the server last started).`,
  deploy: `\`npm start\` serves it on \`PORT\` (default 8787), on loopback unless \`HOST\` says otherwise (\`HOST=0.0.0.0\` in a container), with the server timeouts a public address needs (\`serve\` of \`gpt-address/node\`).`,
  devDependencies: ["@types/node"],
  allowScripts: [],
  node: ">=22.18",
  include: ["src", "test"],
  lib: ["ES2023"],
  types: ["node"],
});

const deno = "deno run --allow-net --allow-env --allow-read";

export const RUNTIMES: Readonly<Record<Runtime, RuntimeTemplate>> = {
  workers: {
    title: "Cloudflare Workers",
    folders: ["workers"],
    scripts: { dev: "wrangler dev", deploy: "wrangler deploy" },
    devCommand: "wrangler dev",
    devReload:
      "`wrangler dev` builds the forms again and reloads when a file under `forms/` or `src/` changes (`[build]` in `wrangler.toml`).",
    deploy:
      "`npm run deploy` (`wrangler deploy`) builds the forms and publishes the Worker. `.dev.vars` is read by `wrangler dev` only: it makes the local proxy answer an oversize act 204, as a deployed Worker does.",
    devDependencies: ["wrangler"],
    allowScripts: ["esbuild", "workerd"],
    node: ">=22",
    include: ["src", "test"],
    lib: ["ES2023", "WebWorker"],
    types: [],
    compatibilityDate: "2026-08-01",
  },
  node: nodeHttp("Node", "node", "node --watch"),
  bun: nodeHttp("Bun", "bun", "bun --watch"),
  deno: nodeHttp("Deno", deno, `${deno} --watch`, ["deno"]),
  vercel: {
    title: "Vercel Edge",
    folders: ["vercel"],
    scripts: { dev: "gpt-address build && node scripts/dev.ts" },
    devCommand: "node scripts/dev.ts",
    devReload:
      "`npm run dev` builds the forms and bundles `api/index.ts` once, when it starts: after a change to a form or the code, stop it and start it again.",
    deploy:
      "`npx vercel deploy` publishes `api/index.ts` as an Edge Function; `vercel.json` sends every path to it. `npm run dev` runs the same function in edge-runtime, Vercel's open-source edge sandbox; `vercel dev` runs it with your Vercel project's settings.",
    devDependencies: ["@types/node", "edge-runtime", "esbuild"],
    allowScripts: ["esbuild"],
    node: ">=22.18",
    include: ["src", "test", "api", "scripts"],
    lib: ["ES2023"],
    types: ["node"],
  },
};

export const runtimeNames = Object.keys(RUNTIMES) as ReadonlyArray<Runtime>;
