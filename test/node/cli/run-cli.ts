/**
 * Runs `gpt-address` in-process (through `main`, as the bin does) and collects its output.
 *
 * @module
 */
import { main } from "../../../src/cli/main.ts";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `gpt-address ...args` with `cwd` as the working folder. */
export async function runCli(args: ReadonlyArray<string>, cwd: string): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    cwd,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}
