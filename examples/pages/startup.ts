/**
 * What the runtime entries do when the example cannot start: one line on stderr that names
 * what failed, why, and the setting to change, then exit status 1, instead of a stack trace
 * (or a server that starts and then fails every act).
 *
 * @module
 */

/**
 * A failure to start that the operator can fix. `message` is that one line: the file or
 * setting, the cause (`ENOENT`, `EACCES`, `SQLITE_CANTOPEN`…) and what to do.
 */
export class StartupError extends Error {
  override readonly name = "StartupError";
}

/**
 * Runs `start`; a {@link StartupError} is written as its one line on stderr and ends the
 * process with `exit(1)`. Any other error is thrown on (a bug, with its stack).
 *
 * @param exit - the runtime's exit (`process.exit`, `Deno.exit`).
 */
export async function startOrExit<T>(start: () => T | Promise<T>, exit: (code: number) => never): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    console.error(`gpt-address example: ${error.message}`);
    return exit(1);
  }
}
