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

/**
 * The wrk script: bodies from the files given after `--`, sent in turn with the header fields
 * `headers` (a Lua table constructor's members), statuses counted per thread.
 */
const wrkScript = (headers: string) => `
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
  requests = {}
  for i, file in ipairs(args) do
    local f = assert(io.open(file, "rb"))
    local body = f:read("*a")
    f:close()
    requests[i] = wrk.format("POST", wrk.path, { ["Content-Type"] = "application/json"${headers} }, body)
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

/**
 * The Node fallback: the same, from one Node process (argv: url seconds connections files…),
 * over raw keep-alive sockets: each request is written as bytes prepared once, and each answer
 * is only framed (status line, `Content-Length` or chunked, `Connection: close`), so that the
 * load costs less per request (at 1 KiB against B2, one run: 28 µs of CPU per request
 * against 36 µs with `node:http` as the client, about what the server itself spends). One request in flight
 * per connection, as with wrk; a connection the server closes is opened again.
 */
const nodeScript = `
const net = require("node:net");
const fs = require("node:fs");
const [url, seconds, connections, headers, ...files] = process.argv.slice(1);
const target = new URL(url);
const port = Number(target.port);
const fields = Object.entries(JSON.parse(headers)).map(([name, value]) => name + ": " + value + "\\r\\n").join("");
const head = (n) => "POST " + target.pathname + " HTTP/1.1\\r\\nHost: " + target.host +
  "\\r\\nContent-Type: application/json\\r\\n" + fields + "Content-Length: " + n + "\\r\\n\\r\\n";
const requests = files.map((file) => { const body = fs.readFileSync(file); return Buffer.concat([Buffer.from(head(body.length), "latin1"), body]); });
const end = Date.now() + Number(seconds) * 1000;
let ok = 0, other = 0;
const CRLF2 = Buffer.from("\\r\\n\\r\\n");
/** The length of the first whole answer in buf, its status and whether it closes; null when incomplete. */
function frame(buf) {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd === -1) return null;
  const text = buf.toString("latin1", 0, headEnd);
  const status = Number(text.slice(9, 12));
  const close = /\\r\\nconnection: *close/i.test(text);
  let at = headEnd + 4;
  if (status === 204 || status === 304) return { length: at, status, close };
  const length = /\\r\\ncontent-length: *(\\d+)/i.exec(text);
  if (length) { at += Number(length[1]); return buf.length >= at ? { length: at, status, close } : null; }
  if (!/\\r\\ntransfer-encoding: *chunked/i.test(text)) return { length: at, status, close: true };
  for (;;) {
    const line = buf.indexOf("\\r\\n", at, "latin1");
    if (line === -1) return null;
    const size = parseInt(buf.toString("latin1", at, line), 16);
    at = line + 2 + size + 2;
    if (buf.length < at) return null;
    if (size === 0) return { length: at, status, close };
  }
}
const loop = (k) => new Promise((resolve) => {
  let n = k;
  const open = () => {
    if (Date.now() >= end) return resolve();
    const socket = net.connect(port, target.hostname);
    socket.setNoDelay(true);
    let buf = null;
    let waiting = false;
    const send = () => {
      if (Date.now() >= end) { socket.destroy(); return resolve(); }
      waiting = true;
      socket.write(requests[n++ % requests.length]);
    };
    socket.on("connect", send);
    socket.on("data", (chunk) => {
      buf = buf === null ? chunk : Buffer.concat([buf, chunk]);
      while (buf !== null) {
        const answer = frame(buf);
        if (answer === null) return;
        waiting = false;
        if (answer.status === 200) ok++; else other++;
        buf = buf.length === answer.length ? null : buf.subarray(answer.length);
        if (answer.close) { socket.destroy(); return open(); }
        send();
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => { if (waiting) { waiting = false; other++; open(); } });
  };
  open();
});
const start = Date.now();
Promise.all(Array.from({ length: Number(connections) }, (_, k) => loop(k))).then(() => {
  console.log("ok: " + ok + "\\nother: " + other + "\\nseconds: " + (Date.now() - start) / 1000);
});`;

/**
 * POSTs the bodies in `files` (in turn) to `url` for `seconds` with `connections` keep-alive
 * connections, the load process run under `prefix` (e.g. `taskset -c 1`); `headers`: header
 * fields sent besides `Content-Type: application/json` (e.g. an MCP client's `Accept`).
 */
export function postLoad(options: {
  url: string;
  files: readonly string[];
  headers?: Readonly<Record<string, string>>;
  seconds: number;
  connections: number;
  prefix: readonly string[];
  wrk: boolean;
  scratch: string;
}): Promise<LoadRun> {
  const { url, files, seconds, connections, prefix, wrk, scratch, headers = {} } = options;
  let command: string[];
  if (wrk) {
    const script = join(scratch, "post.lua");
    const fields = Object.entries(headers)
      .map(([name, value]) => `, [${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
      .join("");
    writeFileSync(script, wrkScript(fields));
    command = [...prefix, "wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "-s", script, url, "--", ...files];
  } else {
    command = [
      ...prefix,
      process.execPath,
      "-e",
      nodeScript,
      url,
      String(seconds),
      String(connections),
      JSON.stringify(headers),
      ...files,
    ];
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
