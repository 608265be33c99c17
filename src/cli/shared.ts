/**
 * What every subcommand shares: the exit codes, the output sink, and flag fragments.
 *
 * @module
 */
import type { ArgsDef } from "citty";

/** Exit codes (ESLint's discipline): only the bin sets `process.exitCode`. */
export const exitCodes = {
  /** Clean: no error-level finding, or the command did what it was asked. */
  ok: 0,
  /** An error-level finding (lint), or a failed act. */
  findings: 1,
  /** A usage error (unknown command or flag, missing argument), unreadable input, or an internal error. */
  usage: 2,
  /** Interrupted (Ctrl-C, SIGINT): 128 + 2, as a shell reports it. */
  interrupted: 130,
  /** Terminated (SIGTERM: `timeout`, a supervisor): 128 + 15. */
  terminated: 143,
  /** Hung up (SIGHUP: the terminal closed): 128 + 1. */
  hungUp: 129,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** Where a command writes and the folder it resolves relative paths against. */
export interface CliIo {
  readonly cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A usage error or unreadable input: the bin prints the message and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The sink a command was run with (`runCommand`'s `data`). */
export function ioOf(context: { readonly data?: unknown }): CliIo {
  return context.data as CliIo;
}

/** `--format text|json`: readable in a terminal, or machine-readable. */
export const formatArg = {
  format: {
    type: "enum",
    options: ["text", "json"],
    default: "text",
    description: "Output format: text (terminal) or json (machine-readable)",
    valueHint: "text|json",
  },
} as const satisfies ArgsDef;
