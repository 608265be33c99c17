/**
 * How `gpt-address act` shows a run it follows (docs/runs.md): on a terminal, a progress bar
 * (cli-progress) on standard error, redrawn in place; elsewhere (a pipe, a log, CI), one plain
 * line per change of the run's status, message or fraction. Standard output keeps only the act's
 * answer.
 *
 * @module
 */
import type { SingleBar } from "cli-progress";
import type { Run } from "../client/run.ts";
import type { CliIo } from "./shared.ts";

/** Shows a run's progress; `stop` ends the display (the bar leaves its last state on the line). */
export interface RunProgress {
  update(run: Run, url: string): void;
  stop(): void;
}

/** A run's state as one line: `working 40% page 2 of 5`. */
export function describeRun(run: Run): string {
  const percent = run.progress === undefined ? "" : ` ${Math.round(run.progress * 100)}%`;
  return `${run.status}${percent}${run.statusMessage ? ` ${run.statusMessage}` : ""}`;
}

/**
 * A progress display on `io`: a bar when `tty` (standard error is a terminal), else lines.
 *
 * @param tty - whether to draw a bar on `process.stderr` (`process.stderr.isTTY`).
 */
export async function runProgress(io: CliIo, tty: boolean): Promise<RunProgress> {
  if (!tty) {
    let last = "";
    return {
      update(run, url) {
        if (last === "") io.stderr(`run ${url}\n`);
        const line = describeRun(run);
        if (line !== last) io.stderr(`run ${run.taskId}: ${line}\n`);
        last = line;
      },
      stop() {},
    };
  }
  const { SingleBar, Presets } = (await import("cli-progress")).default;
  let bar: SingleBar | undefined;
  return {
    update(run, url) {
      const payload = { status: run.status, message: (run.statusMessage ?? "").slice(0, 60) };
      if (bar === undefined) {
        io.stderr(`run ${url}\n`);
        bar = new SingleBar(
          {
            format: "{bar} {percentage}% | {duration_formatted} | {status} {message}",
            stream: process.stderr,
            hideCursor: true,
            barsize: 30,
          },
          Presets.shades_classic,
        );
        bar.start(100, 0, payload);
      }
      // A completed run keeps no fraction: it is whole.
      bar.update(run.status === "completed" ? 100 : Math.round((run.progress ?? 0) * 100), payload);
    },
    stop() {
      bar?.stop();
    },
  };
}
