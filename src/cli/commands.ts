/**
 * The table of subcommands, the only list of them. Each entry loads its file lazily, so that
 * `gpt-address lint` never loads what `unroll` needs.
 *
 * To add a subcommand (`check`, `act`, …): write `src/cli/<name>.ts` whose default export is a
 * citty `defineCommand({ meta, args, run })` whose `run` returns an exit code from
 * `exitCodes` (never calling `process.exit`), and add one line here. `main.ts` gives it
 * `--help`, the unknown-flag check and the exit-code handling.
 *
 * @module
 */
import type { CommandDef } from "citty";

export const commands: Readonly<Record<string, () => Promise<CommandDef>>> = {
  init: () => import("./init.ts").then((module) => module.default as CommandDef),
  build: () => import("./build.ts").then((module) => module.default as CommandDef),
  lint: () => import("./lint.ts").then((module) => module.default as CommandDef),
  unroll: () => import("./unroll.ts").then((module) => module.default as CommandDef),
  upgrade: () => import("./upgrade.ts").then((module) => module.default as CommandDef),
  new: () => import("./new.ts").then((module) => module.default as CommandDef),
  check: () => import("./check.ts").then((module) => module.default as CommandDef),
  act: () => import("./act.ts").then((module) => module.default as CommandDef),
  mcp: () => import("./mcp.ts").then((module) => module.default as CommandDef),
};
