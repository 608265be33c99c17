/**
 * The render address on loopback, for the client's run tests (docs/runs.md): the project's own
 * `address()` with `runs` over a `MemoryRunStore`, serving {@link renderForm} built by the real
 * build (`buildForms`, in a temporary folder, once per process). Its act renders `pages` pages,
 * one every `stepMs`, reporting each with `progress` and heeding its signal; a report titled
 * `fail` throws after its first page (the run ends `failed`; the door logs the error).
 *
 * Faults, for `check` and for clients that must cope with them, are made by one Hono middleware
 * in front of the real address that alters what goes in or out, never by a second door:
 * `noLocation` (a 202 without `Location`), `notFoundBody` (a run URL's 404 with a body),
 * `retryAfter` (the `Retry-After` of every answer about a working run fixed, or dropped), and
 * `alwaysAsync` (every act answered as if it had sent `Prefer: respond-async`, which docs/runs.md
 * forbids an address: a client must follow a 202 anyway). Hostile servers, for clients that must
 * not trust them: `location` (the 202's `Location` rewritten, to another host or path) and
 * `runState` (a run URL's 200 state rewritten: fields of the wrong type, another `taskId`). The
 * act's own `message` (what it reports as progress, control characters and all) and a store of
 * `maxRuns` (0: full, every request for a run answered 503 with `Retry-After`) are the real
 * address's behaviour, not faults.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Hono } from "hono";
import { address } from "../../../src/address/address.ts";
import type { ActContext } from "../../../src/address/options.ts";
import { buildForms } from "../../../src/compile/build-forms.ts";
import type { CompiledForm } from "../../../src/index.ts";
import { MemoryRunStore } from "../../../src/run/memory.ts";
import { DEFAULT_RUN_LIMITS } from "../../../src/run/run.ts";
import { type Served, serveApp } from "./servers.ts";

/** The form of `/render`. */
export const renderForm = {
  p: "Renders a report of the given number of pages; a long one runs in the background.",
  m: [
    { role: "user", content: "A two-page report called Q3." },
    { role: "assistant", content: '{"title":"Q3","pages":2}' },
  ],
  s: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "render",
    description: "A report to render.",
    type: "object",
    additionalProperties: false,
    required: ["title", "pages"],
    properties: {
      title: { type: "string", minLength: 1, maxLength: 100 },
      pages: { type: "integer", minimum: 0, maximum: 100 },
    },
  },
};

/** A valid act of {@link renderForm}. */
export interface Render {
  readonly title: string;
  readonly pages: number;
}

let built: Promise<CompiledForm<Render>> | undefined;

/**
 * {@link renderForm} as `gpt-address build` compiles it: written to `forms/render.json` in a
 * temporary project, built, and its generated module imported (then the folder is removed).
 */
export function compiledRenderForm(): Promise<CompiledForm<Render>> {
  built ??= (async () => {
    const root = await mkdtemp(join(tmpdir(), "gpt-address-render-address-"));
    try {
      await writeFile(join(root, "package.json"), '{ "type": "module" }\n');
      await mkdir(join(root, "forms"));
      await writeFile(join(root, "forms", "render.json"), JSON.stringify(renderForm, null, 2));
      await buildForms({ root, outDir: "out" });
      const module = (await import(pathToFileURL(join(root, "out", "render.js")).href)) as {
        form: CompiledForm<Render>;
      };
      return module.form;
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  })();
  return built;
}

/** Options of {@link serveRenderAddress}. */
export interface RenderAddressOptions {
  /** The act's time per page, ms. Default 100. */
  readonly stepMs?: number;
  /** The runs' `pollIntervalMs`. Default 300. */
  readonly pollIntervalMs?: number;
  /** Fault: the 202 loses its `Location`. */
  readonly noLocation?: boolean;
  /** Fault: a run URL's 404 carries the 11 bytes `no such run`. */
  readonly notFoundBody?: boolean;
  /** Fault: a `Retry-After` sent instead of the address's own on answers about a working run; `null`: none. */
  readonly retryAfter?: string | null;
  /** Fault: every act is answered as if it had asked `Prefer: respond-async` (a client must follow a 202 anyway). */
  readonly alwaysAsync?: boolean;
  /** Hostile: the 202's `Location` replaced by what this returns for it (the absolute run URL). */
  readonly location?: (runUrl: string) => string;
  /** Hostile: a run URL's 200 state (parsed) replaced by what this returns for it. */
  readonly runState?: (state: Record<string, unknown>) => unknown;
  /** What the act reports as progress on each page instead of `page i of n` (sent as it is). */
  readonly message?: string;
  /** The run store's `maxRuns` (default the store's own); 0 makes it full. */
  readonly maxRuns?: number;
}

/** A request the address received, as it arrived (before any fault altered it). */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** When it arrived, `performance.now()`. */
  readonly at: number;
}

export interface RenderAddress extends Served {
  /** The address: `${url}/render`. */
  readonly address: string;
  readonly seen: SeenRequest[];
  /** Runs whose act saw its signal abort, by id. */
  readonly aborted: string[];
  /** Acts begun (each value, as acted on). */
  readonly acted: Render[];
}

/** One act's request, shared by the middleware and the act: the run id its 202 named, once known. */
interface Acting {
  taskId?: string;
}
type RenderEnv = { Variables: { acting: Acting } };

/** `ms` on `signal`: resolves after `ms`, rejects with the signal's reason when it aborts first. */
function step(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Serves `/render` with runs on 127.0.0.1: `address()` over a `MemoryRunStore`, behind the faults asked for. */
export async function serveRenderAddress(options: RenderAddressOptions = {}): Promise<RenderAddress> {
  const form = await compiledRenderForm();
  const stepMs = options.stepMs ?? 100;
  const seen: SeenRequest[] = [];
  const aborted: string[] = [];
  const acted: Render[] = [];

  async function render(page: Render, { c, signal, progress }: ActContext<RenderEnv>) {
    const acting = c.get("acting");
    acted.push(page);
    for (let i = 1; i <= page.pages; i++) {
      try {
        await step(stepMs, signal);
      } catch (reason) {
        aborted.push(acting.taskId ?? "");
        throw reason;
      }
      progress(options.message ?? `page ${i} of ${page.pages}`, i / page.pages);
      if (page.title === "fail") throw new Error("the renderer broke");
    }
    return { title: page.title, pages: page.pages, rendered: true };
  }

  const app = new Hono<RenderEnv>();
  app.use(async (c, next) => {
    const request = c.req.raw;
    const path = new URL(request.url).pathname;
    seen.push({ method: request.method, path, headers: Object.fromEntries(request.headers), at: performance.now() });
    const acting: Acting = {};
    c.set("acting", acting);
    if (options.alwaysAsync && request.method === "POST" && !request.headers.has("prefer"))
      request.headers.set("prefer", "respond-async");
    await next();
    const answer = c.res;
    if (answer.status === 202) {
      acting.taskId = answer.headers.get("location")?.split("/").at(-1);
      if (options.noLocation) answer.headers.delete("location");
      const location = answer.headers.get("location");
      if (options.location && location !== null)
        answer.headers.set("location", options.location(new URL(location, request.url).href));
    }
    if (options.runState && answer.status === 200 && path.startsWith("/render/runs/")) {
      const state = (await answer.json()) as Record<string, unknown>;
      const headers = new Headers(answer.headers);
      headers.delete("content-length");
      c.res = undefined;
      c.res = new Response(JSON.stringify(options.runState(state)), { status: 200, headers });
    }
    // Only an answer about a working run, 202 or a run URL's 200, carries Retry-After with a 2xx.
    const aboutWorkingRun = (answer.status === 200 || answer.status === 202) && answer.headers.has("retry-after");
    if (options.retryAfter !== undefined && aboutWorkingRun) {
      if (options.retryAfter === null) answer.headers.delete("retry-after");
      else answer.headers.set("retry-after", options.retryAfter);
    }
    if (options.notFoundBody && answer.status === 404 && path.startsWith("/render/runs/")) {
      // Cleared first: Hono's `c.res` setter would copy the old answer's fields (Content-Length: 0) onto the new one.
      c.res = undefined;
      c.res = new Response("no such run", { status: 404, headers: { "content-type": "text/plain" } });
    }
  });
  app.route(
    "/render",
    address<Render, RenderEnv>({
      form,
      act: render,
      runs: {
        store:
          options.maxRuns === undefined
            ? new MemoryRunStore()
            : new MemoryRunStore({ ...DEFAULT_RUN_LIMITS, maxRuns: options.maxRuns }),
        pollIntervalMs: options.pollIntervalMs ?? 300,
      },
    }),
  );
  const served = await serveApp(app);
  return { ...served, address: `${served.url}/render`, seen, aborted, acted };
}
