/**
 * A Node instance of ./instance.ts over an SQLite file (`node:sqlite`). Usage:
 * `node test/runtimes/runs/node-sqlite.ts <name> <file>`; prints `listening <port>`.
 */
import { createServer } from "node:http";
import { DatabaseSync } from "node:sqlite";
import { getRequestListener } from "@hono/node-server";
import { SqliteRunStore } from "../../../src/run/sqlite.ts";
import { INSTANCE_LIMITS, runInstance } from "./instance.ts";

const [name, file] = process.argv.slice(2);
if (name === undefined || file === undefined) throw new Error("usage: node-sqlite.ts <name> <file>");
const runs = new SqliteRunStore(new DatabaseSync(file), INSTANCE_LIMITS);
const handle = runInstance(name);
const server = createServer(getRequestListener((request) => handle(request, runs)));
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address !== null ? address.port : 0}`);
});
