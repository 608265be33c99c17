/**
 * The load of the POST bench: keep-alive POSTs of a list of bodies, taken in turn, for a
 * number of seconds; counts 200 answers and the others. `wrk` (Debian's package) when it is on
 * PATH, with a Lua script that sends the bodies in turn and counts status codes; otherwise a
 * keep-alive loop in a Node process. Either runs in a process of its own, pinned by the caller.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** One load run: 200 answers and others, per second, over the run. */
export interface LoadRun {
  /** All answers per second. */
  rate: number;
  /** 200 answers per second. */
  ok: number;
  /** Answers other than 200, per second. */
  other: number;
}

/** The wrk script: bodies from the files given after `--`, sent in turn, statuses counted per thread. */
const wrkScript = `
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
  requests = {}
  for i, file in ipairs(args) do
    local f = assert(io.open(file, "rb"))
    local body = f:read("*a")
    f:close()
    requests[i] = wrk.format("POST", wrk.path, { ["Content-Type"] = "application/json" }, body)
  end
  n = 0
  ok = 0
  other = 0
end
function request()
  n = n % #requests + 1
  return requests[n]
end
function response(status, headers, body)
  if status == 200 then ok = ok + 1 else other = other + 1 end
end
function done(summary, latency, requests)
  local o, x = 0, 0
  for _, t in ipairs(threads) do
    o = o + t:get("ok")
    x = x + t:get("other")
  end
  io.write(string.format("ok: %d\\nother: %d\\nseconds: %f\\n", o, x, summary.duration / 1e6))
end
`;

/** The Node fallback: the same, from one Node process (argv: url seconds connections files…). */
const nodeScript = `
const http = require("node:http");
const fs = require("node:fs");
const [url, seconds, connections, ...files] = process.argv.slice(1);
const bodies = files.map((file) => fs.readFileSync(file));
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const target = new URL(url);
const end = Date.now() + Number(seconds) * 1000;
let ok = 0, other = 0;
const loop = (k) => new Promise((resolve) => {
  let n = k;
  const next = () => {
    if (Date.now() >= end) return resolve();
    const body = bodies[n++ % bodies.length];
    const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname, method: "POST",
      headers: { "content-type": "application/json", "content-length": body.length } }, (res) => {
      res.resume();
      res.on("end", () => { if (res.statusCode === 200) ok++; else other++; next(); });
    });
    req.on("error", () => { other++; next(); });
    req.end(body);
  };
  next();
});
const start = Date.now();
Promise.all(Array.from({ length: Number(connections) }, (_, k) => loop(k))).then(() => {
  console.log("ok: " + ok + "\\nother: " + other + "\\nseconds: " + (Date.now() - start) / 1000);
  agent.destroy();
});`;

/**
 * POSTs the bodies in `files` (in turn) to `url` for `seconds` with `connections` keep-alive
 * connections, the load process run under `prefix` (e.g. `taskset -c 1`).
 */
export function postLoad(options: {
  url: string;
  files: readonly string[];
  seconds: number;
  connections: number;
  prefix: readonly string[];
  wrk: boolean;
  scratch: string;
}): Promise<LoadRun> {
  const { url, files, seconds, connections, prefix, wrk, scratch } = options;
  let command: string[];
  if (wrk) {
    const script = join(scratch, "post.lua");
    writeFileSync(script, wrkScript);
    command = [...prefix, "wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "-s", script, url, "--", ...files];
  } else {
    command = [...prefix, process.execPath, "-e", nodeScript, url, String(seconds), String(connections), ...files];
  }
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.on("error", reject);
    child.on("exit", () => {
      const ok = /ok: (\d+)/.exec(out);
      const other = /other: (\d+)/.exec(out);
      const time = /seconds: ([\d.]+)/.exec(out);
      if (!ok || !other || !time) return reject(new Error(`no counts in:\n${out}`));
      const s = Number(time[1]);
      return resolve({
        rate: (Number(ok[1]) + Number(other[1])) / s,
        ok: Number(ok[1]) / s,
        other: Number(other[1]) / s,
      });
    });
  });
}
