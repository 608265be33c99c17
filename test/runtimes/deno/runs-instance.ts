/**
 * A Deno instance of ../runs/instance.ts over a Deno KV file. Usage:
 * `deno run --unstable-kv --allow-net=127.0.0.1 --allow-read --allow-write=<dir> test/runtimes/deno/runs-instance.ts <name> <file>`;
 * prints `listening <port>`.
 */
import { DenoKvRunStore } from "../../../src/run/deno-kv.ts";
import { INSTANCE_LIMITS, runInstance } from "../runs/instance.ts";

const [name, file] = Deno.args;
if (name === undefined || file === undefined) throw new Error("usage: runs-instance.ts <name> <file>");
const runs = new DenoKvRunStore(await Deno.openKv(file), INSTANCE_LIMITS);
const handle = runInstance(name);
Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`listening ${port}`) },
  (request: Request) => handle(request, runs),
);
