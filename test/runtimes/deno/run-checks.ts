/**
 * Every check of test/node/run/checks.ts on Deno KV, in Deno: each check opens one KV file twice
 * (two `Deno.Kv` handles, standing for two instances). Usage:
 * `deno run --unstable-kv --allow-read --allow-write=<dir> test/runtimes/deno/run-checks.ts <dir>`;
 * prints one JSON line, the outcome of each check.
 */
import { DenoKvRunStore } from "../../../src/run/deno-kv.ts";
import { runChecks } from "../../node/run/checks.ts";

const dir = Deno.args[0];
if (dir === undefined) throw new Error("usage: run-checks.ts <scratch dir>");
const results = await runChecks(async (name, limits, now) => {
  const path = `${dir}/${name}.sqlite3`;
  const first = await Deno.openKv(path);
  const second = await Deno.openKv(path);
  return {
    a: new DenoKvRunStore(first, limits, now),
    b: new DenoKvRunStore(second, limits, now),
    close() {
      first.close();
      second.close();
    },
  };
});
console.log(JSON.stringify(results));
