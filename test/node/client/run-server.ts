/**
 * A small address that offers runs (docs/runs.md) on loopback, for the client's tests until the
 * doors implement runs on main: then `serveRunAddress` becomes `address()` with `runs`. It uses
 * the real run engine (`startRun`, `readRun`, `cancelRun` over a `MemoryRunStore`); only the
 * HTTP around it is written here, plainly. The act renders `pages` pages, one every `stepMs`,
 * reporting progress and heeding its signal; a report titled `fail` fails after its first page.
 *
 * Faults, for `check`: `noLocation` (a 202 without `Location`), `notFoundBody` (a 404 with a
 * body). `retryAfter` fixes (or drops) the `Retry-After` of every answer about a working run.
 */
import { Hono } from "hono";
import { compileValidator } from "../../../src/client/form-validator.ts";
import { checkLocally } from "../../../src/client/local-check.ts";
import { parseJson } from "../../../src/json/parse.ts";
import {
  cancelRun,
  IdempotencyKeyReused,
  MemoryRunStore,
  type Run,
  RunQuotaExceeded,
  readRun,
  startRun,
} from "../../../src/run/index.ts";
import { idempotencyClaim } from "../../../src/run/run-id.ts";
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

/** Options of {@link serveRunAddress}. */
export interface RunAddressOptions {
  /** The act's time per page, ms. Default 100. */
  readonly stepMs?: number;
  /** The runs' `pollIntervalMs`. Default 300. */
  readonly pollIntervalMs?: number;
  readonly noLocation?: boolean;
  readonly notFoundBody?: boolean;
  /** A `Retry-After` value sent instead of the one from `pollIntervalMs`; `null`: none. */
  readonly retryAfter?: string | null;
  /** Answers every act with a run, as if it had asked `Prefer: respond-async` (a client must follow a 202 anyway). */
  readonly alwaysAsync?: boolean;
}

/** A request the address received. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** When it arrived, `performance.now()`. */
  readonly at: number;
}

export interface RunAddress extends Served {
  /** The address: `${url}/render`. */
  readonly address: string;
  readonly seen: SeenRequest[];
  /** Runs whose act saw its signal abort, by id. */
  readonly aborted: string[];
  /** Acts begun (each value, as acted on). */
  readonly acted: unknown[];
}

/** `Prefer` preferences (RFC 7240 §2): names in lower case, with their value; every field read. */
function preferences(field: string | undefined): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const item of (field ?? "").split(",")) {
    const [name, value] = item
      .split(";")[0]!
      .split("=", 2)
      .map((part) => part.trim());
    if (name) out.set(name.toLowerCase(), value?.replace(/^"|"$/g, ""));
  }
  return out;
}

/** Serves `/render` with runs on 127.0.0.1. */
export async function serveRunAddress(options: RunAddressOptions = {}): Promise<RunAddress> {
  const validator = await compileValidator(renderForm.s);
  const runs = new MemoryRunStore();
  const stepMs = options.stepMs ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 300;
  const seen: SeenRequest[] = [];
  const aborted: string[] = [];
  const acted: unknown[] = [];
  const app = new Hono();
  app.use(async (c, next) => {
    seen.push({
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      headers: Object.fromEntries(c.req.raw.headers),
      at: performance.now(),
    });
    await next();
  });
  const state = (run: Run, status = 200) => {
    const headers: Record<string, string> = { "cache-control": "no-store" };
    const retryAfter = options.retryAfter === undefined ? String(Math.ceil(pollIntervalMs / 1000)) : options.retryAfter;
    if (run.status === "working" && retryAfter !== null) headers["retry-after"] = retryAfter;
    return Response.json(run, { status, headers });
  };
  const gone = () =>
    options.notFoundBody ? new Response("no such run", { status: 404 }) : new Response(null, { status: 404 });

  app.get("/render", (c) => c.json(renderForm));
  app.post("/render", async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length > 1024 * 1024) return c.body(null, 413);
    if (checkLocally(bytes, validator) !== null) return c.body(null, 204);
    const value = parseJson(bytes) as { title: string; pages: number };
    const prefer = preferences(c.req.header("prefer"));
    const key = /^"((?:[^"\\]|\\.)*)"$/.exec(c.req.header("idempotency-key") ?? "")?.[1];
    const asked = prefer.has("respond-async") || options.alwaysAsync === true;
    const wait = Number(prefer.get("wait") ?? 0);
    let id = "";
    const started = startRun(
      runs,
      async (page: typeof value, { signal, progress }) => {
        acted.push(page);
        for (let i = 1; i <= page.pages; i++) {
          await new Promise<void>((resolve, reject) => {
            const onAbort = () => {
              clearTimeout(timer);
              aborted.push(id);
              reject(signal.reason);
            };
            const timer = setTimeout(() => {
              signal.removeEventListener("abort", onAbort);
              resolve();
            }, stepMs);
            if (signal.aborted) onAbort();
            else signal.addEventListener("abort", onAbort, { once: true });
          });
          progress(`page ${i} of ${page.pages}`, i / page.pages);
          if (page.title === "fail") throw new Error("the renderer broke");
        }
        return { title: page.title, pages: page.pages, rendered: true };
      },
      value,
      {
        waitMs: asked ? Math.min(Number.isFinite(wait) ? wait * 1000 : 0, 10_000) : 60_000,
        pollIntervalMs,
        ...(key === undefined ? {} : { idempotency: await idempotencyClaim("/render", key, bytes) }),
        onFault: () => {},
      },
    );
    let outcome: Awaited<typeof started>;
    try {
      outcome = await started;
    } catch (error) {
      if (error instanceof IdempotencyKeyReused) return c.body(null, 422);
      if (error instanceof RunQuotaExceeded)
        return c.body(null, 503, { "retry-after": String(error.retryAfterSeconds) });
      throw error;
    }
    id = outcome.run.taskId;
    if (outcome.finished) {
      return outcome.run.status === "completed" ? c.json(outcome.run.result) : c.body(null, 503);
    }
    const response = state(outcome.run, 202);
    if (!options.noLocation) response.headers.set("location", `/render/runs/${outcome.run.taskId}`);
    response.headers.set("preference-applied", "respond-async");
    return response;
  });
  app.get("/render/runs/:id", async (c) => {
    const run = await readRun(runs, c.req.param("id"));
    return run === null ? gone() : state(run);
  });
  app.delete("/render/runs/:id", async (c) => {
    const run = await cancelRun(runs, c.req.param("id"));
    return run === null ? gone() : state(run);
  });
  const served = await serveApp(app);
  return { ...served, address: `${served.url}/render`, seen, aborted, acted };
}
