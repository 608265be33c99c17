/**
 * Every check of test/node/run/checks.ts on `bun:sqlite`, in Bun: each check opens one SQLite
 * file twice (two connections, standing for two instances). Usage:
 * `bun run test/runtimes/bun/run-checks.ts <dir>`; prints one JSON line, the outcome of each check.
 */
import { Database } from "bun:sqlite";
import { SqliteRunStore } from "../../../src/run/sqlite.ts";
import { runChecks } from "../../node/run/checks.ts";

const dir = process.argv[2];
if (dir === undefined) throw new Error("usage: run-checks.ts <scratch dir>");
const results = await runChecks((name, limits, now) => {
  const file = `${dir}/${name}.sqlite`;
  const first = new Database(file);
  const second = new Database(file);
  return {
    a: new SqliteRunStore(first, limits, now),
    b: new SqliteRunStore(second, limits, now),
    close() {
      first.close();
      second.close();
    },
  };
});
console.log(JSON.stringify(results));
