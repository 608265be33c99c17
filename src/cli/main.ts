/**
 * `gpt-address`: finds the subcommand in the table, refuses unknown flags, prints `--help`,
 * runs the command and turns what happened into an exit code (0, 1, 2).
 *
 * @module
 */
import { type ArgsDef, type CommandDef, renderUsage, runCommand } from "citty";
import { commands } from "./commands.ts";
import { type CliIo, exitCodes, UsageError } from "./shared.ts";

const version = "0.1.0";

/** The top-level command, for `--help`. */
const root: CommandDef = {
  meta: {
    name: "gpt-address",
    version,
    description:
      "Tools for GPT addresses: lint a form, unroll recursion, upgrade an older draft, start a new address; check any address, act on it.",
  },
  subCommands: Object.fromEntries(Object.entries(commands)),
};

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The flags in `rawArgs` that `args` does not declare (before a `--`). */
function unknownFlags(rawArgs: ReadonlyArray<string>, args: ArgsDef): string[] {
  const known = new Set(["help", "h"]);
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    for (const spelling of [
      name,
      camel(name),
      kebab(name),
      ...([] as string[]).concat(("alias" in def ? def.alias : undefined) ?? []),
    ])
      known.add(spelling);
  }
  const unknown: string[] = [];
  for (const arg of rawArgs) {
    if (arg === "--") break;
    if (!arg.startsWith("-") || arg === "-" || /^-\d/.test(arg)) continue;
    const name = arg.replace(/^--?/, "").replace(/=.*$/, "").replace(/^no-/, "");
    if (!known.has(name)) unknown.push(arg);
  }
  return unknown;
}

/**
 * Runs `gpt-address` with `rawArgs` (without the node and script paths).
 *
 * @returns the exit code: 0 clean, 1 error findings (or a failed act), 2 usage or internal error.
 */
export async function main(rawArgs: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const [name, ...rest] = rawArgs;
  if (name === undefined || name === "--help" || name === "-h") {
    io.stdout(`${await renderUsage(root)}\n`);
    return name === undefined ? exitCodes.usage : exitCodes.ok;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(`${version}\n`);
    return exitCodes.ok;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (load === undefined) {
    io.stderr(`gpt-address: unknown command ${JSON.stringify(name)} (commands: ${Object.keys(commands).join(", ")})\n`);
    return exitCodes.usage;
  }
  const command = await load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(`${await renderUsage(command, root)}\n`);
    return exitCodes.ok;
  }
  const args = (typeof command.args === "function" ? await command.args() : await command.args) ?? {};
  const unknown = unknownFlags(rest, args);
  if (unknown.length > 0) {
    io.stderr(`gpt-address ${name}: unknown flag ${unknown.join(", ")} (see gpt-address ${name} --help)\n`);
    return exitCodes.usage;
  }
  try {
    const { result } = await runCommand(command, { rawArgs: [...rest], data: io });
    return typeof result === "number" ? result : exitCodes.ok;
  } catch (error) {
    if (error instanceof UsageError || (error instanceof Error && error.name === "CLIError")) {
      io.stderr(`gpt-address ${name}: ${error.message}\n`);
      return exitCodes.usage;
    }
    io.stderr(
      `gpt-address ${name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return exitCodes.usage;
  }
}
