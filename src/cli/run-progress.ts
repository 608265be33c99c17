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
import { terminalText } from "./terminal-text.ts";

/** Shows a run's progress; `stop` ends the display (the bar leaves its last state on the line). */
export interface RunProgress {
  update(run: Run, url: string): void;
  stop(): void;
}

/**
 * A run's state as one line: `working 40% page 2 of 5`. The server's words (status, message)
 * go through {@link terminalText}; a `progress` that is no finite number is left out, and a
 * message that only repeats the status too.
 */
export function describeRun(run: Run): string {
  const percent = Number.isFinite(run.progress) ? ` ${Math.round(run.progress! * 100)}%` : "";
  // A message that only repeats the status (an address's "cancelled") is not said twice.
  const message =
    typeof run.statusMessage === "string" && run.statusMessage !== "" && run.statusMessage !== run.status
      ? ` ${terminalText(run.statusMessage)}`
      : "";
  return `${terminalText(String(run.status))}${percent}${message}`;
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
        if (last === "") io.stderr(`run ${terminalText(url)}\n`);
        const line = describeRun(run);
        if (line !== last) io.stderr(`run ${terminalText(String(run.taskId))}: ${line}\n`);
        last = line;
      },
      stop() {},
    };
  }
  const { SingleBar, Presets } = (await import("cli-progress")).default;
  let bar: SingleBar | undefined;
  return {
    update(run, url) {
      const message = typeof run.statusMessage === "string" ? terminalText(run.statusMessage, 60) : "";
      const payload = { status: terminalText(String(run.status)), message };
      if (bar === undefined) {
        io.stderr(`run ${terminalText(url)}\n`);
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
      const fraction = Number.isFinite(run.progress) ? run.progress! : 0;
      bar.update(run.status === "completed" ? 100 : Math.round(fraction * 100), payload);
    },
    stop() {
      bar?.stop();
    },
  };
}
