#!/usr/bin/env node
/**
 * The `gpt-address` executable: the only place that sets `process.exitCode`.
 *
 * @module
 */
import { main } from "./main.ts";

process.exitCode = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
