/**
 * The act of the render address (`forms/render.json`, served at `/render`): an act that takes
 * seconds, the example of a run (docs/runs.md). It writes a document of `pages` pages, one page
 * every {@link RenderSettings.pageMs} (250 ms by default: 10 s for the longest, 40 pages),
 * reports each page done with `progress(message, fraction)`, stops at once when its `signal`
 * aborts (the run was cancelled or expired), and hands the document to the app, which publishes
 * it as a page (`/pages/<id>`).
 *
 * The pause stands for real work (a renderer, a slow service); its length is a setting
 * (`RENDER_PAGE_MS`) so that tests and benches run the whole life cycle of a run in a fraction
 * of a second.
 *
 * @module
 */
import type { Act as RenderAct } from "./generated/render.js";
import type { Block, PageDocument } from "./render.ts";

/** How the render address works; docs/operations.md, "Runs of the example". */
export interface RenderSettings {
  /** The time one page of a document takes, in ms (a non-negative integer). */
  readonly pageMs: number;
}

/** 250 ms a page: a few seconds for a document of ten pages. */
export const DEFAULT_RENDER_SETTINGS: RenderSettings = { pageMs: 250 };

/**
 * Reads the render address's settings: `RENDER_PAGE_MS`, the time one page takes in ms (an
 * integer from 0 to 60,000; unset or empty for {@link DEFAULT_RENDER_SETTINGS}).
 *
 * @throws {RangeError} naming the setting, for any other value.
 */
export function renderSettings(setting: (name: string) => string | undefined): RenderSettings {
  const value = setting("RENDER_PAGE_MS");
  if (value === undefined || value === "") return DEFAULT_RENDER_SETTINGS;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 60_000) {
    throw new RangeError(`RENDER_PAGE_MS must be an integer from 0 to 60000 (ms), got "${value}"`);
  }
  return { pageMs: Number(value) };
}

/** How a rendering ended: published, stopped by its signal, or failed otherwise. */
export type RenderOutcome = "completed" | "stopped" | "failed";

/**
 * Renderings of this process or isolate, for `/metrics`: how many are running now, and how many
 * ended each way. A cancelled run whose act went on would stay `running`; one that stopped is
 * counted `stopped` at once (test/runtimes/wire.ts reads it so).
 */
export class RenderCounters {
  #running = 0;
  readonly #ended: Record<RenderOutcome, number> = { completed: 0, stopped: 0, failed: 0 };

  /** Renderings running now. */
  get running(): number {
    return this.#running;
  }

  /** Renderings that ended with `outcome`. */
  ended(outcome: RenderOutcome): number {
    return this.#ended[outcome];
  }

  /** Counts one rendering from its start to its end, `work`, and returns what it returns. */
  async count<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    this.#running++;
    let outcome: RenderOutcome = "failed";
    try {
      const done = await work();
      outcome = "completed";
      return done;
    } catch (error) {
      if (signal.aborted) outcome = "stopped";
      throw error;
    } finally {
      this.#running--;
      this.#ended[outcome]++;
    }
  }

  /**
   * The counters in the Prometheus text format (version 0.0.4): the gauge
   * `gpt_address_example_renders_running` and the counter
   * `gpt_address_example_renders_total{outcome}`.
   *
   * @see https://prometheus.io/docs/instrumenting/exposition_formats/
   */
  prometheus(): string {
    const lines = [
      "# HELP gpt_address_example_renders_running Renderings of the render address running in this instance.",
      "# TYPE gpt_address_example_renders_running gauge",
      `gpt_address_example_renders_running ${this.#running}`,
      "# HELP gpt_address_example_renders_total Renderings of the render address that ended, by outcome (stopped: its run was cancelled or expired).",
      "# TYPE gpt_address_example_renders_total counter",
      ...Object.entries(this.#ended).map(
        ([outcome, count]) => `gpt_address_example_renders_total{outcome="${outcome}"} ${count}`,
      ),
    ];
    return `${lines.join("\n")}\n`;
  }
}

/**
 * Waits `ms`, or rejects with `signal.reason` as soon as `signal` aborts (at once when it has).
 */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** The blocks of page `n` of `total` of a document titled `title`. */
function pageBlocks(title: string, n: number, total: number): Block[] {
  return [
    { type: "heading", level: 2, spans: [{ text: `Page ${n} of ${total}` }] },
    {
      type: "paragraph",
      spans: [
        { text: "This is page " },
        { text: String(n), marks: ["bold"] },
        { text: " of " },
        { text: title, marks: ["italic"] },
        { text: ", written by the render address of the gpt-address example in one step of its run." },
      ],
    },
  ];
}

/**
 * Renders the document `act` asks for, a page at a time: after each page, `progress("rendered
 * page n of total", n / total)`.
 *
 * @param context - the act's `signal` and `progress` (`ActContext`; a run's, or the request's).
 * @returns the document: its title, then each page's heading and paragraph.
 * @throws the signal's reason (an `AbortError` or `TimeoutError` `DOMException`) as soon as it
 *   aborts; nothing is returned then.
 */
export async function renderDocument(
  act: RenderAct,
  context: { readonly signal: AbortSignal; progress(message: string, fraction?: number): void },
  settings: RenderSettings,
): Promise<PageDocument> {
  const blocks: Block[] = [];
  for (let n = 1; n <= act.pages; n++) {
    await pause(settings.pageMs, context.signal);
    blocks.push(...pageBlocks(act.title, n, act.pages));
    context.progress(`rendered page ${n} of ${act.pages}`, n / act.pages);
  }
  return { title: act.title, blocks };
}
