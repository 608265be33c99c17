/**
 * A Bun instance of ../runs/instance.ts over an SQLite file (`bun:sqlite`). Usage:
 * `bun run test/runtimes/bun/runs-instance.ts <name> <file>`; prints `listening <port>`.
 */
import { Database } from "bun:sqlite";
import { SqliteRunStore } from "../../../src/run/sqlite.ts";
import { INSTANCE_LIMITS, runInstance } from "../runs/instance.ts";

const [name, file] = process.argv.slice(2);
if (name === undefined || file === undefined) throw new Error("usage: runs-instance.ts <name> <file>");
const runs = new SqliteRunStore(new Database(file), INSTANCE_LIMITS);
const handle = runInstance(name);
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request: Request) => handle(request, runs) });
console.log(`listening ${server.port}`);
