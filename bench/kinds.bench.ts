/**
 * The hostile-kind matrix (issue 31), `npm run bench -- kinds` and the end of
 * `npm run bench:hostile`: for each hostile kind of `bench/kinds/hostile.ts` (wide objects, long
 * arrays of small values, deep nesting, long strings, many escapes, numbers, invalid UTF-8 late
 * in the body, a duplicate at the end), generated at the door's own limits (the `maxBytes`,
 * `maxDepth`, `maxStringLength`, `maxMembers` and `maxItems` the form derives, or the MCP door's
 * own), the server's CPU time per rejected act ÷ that of the most expensive valid act of the same
 * form at the same door. Goal: no kind above 2×.
 *
 * The server is `bench/kinds/doors.ts`: the example's forms `page` and `feedback`, each at its
 * HTTP door (`/page`, `/feedback`) and as a tool of the MCP door (`/mcp`, the body as
 * `arguments`: a 2025-era `tools/call` naming its tool first, read under that tool's bound from
 * its first bytes; one with its `arguments` first, read under the endpoint's; and a 2026-07-28
 * one naming its tool in `Mcp-Name`, read under that tool's), every act constant; on Node (@hono/node-server)
 * and on workerd (a socket of its own, behind `runtimeFetch`, as in `bench/post.bench.ts`). The
 * valid acts are the candidates of `bench/kinds/valid.ts`, each measured; the anchor of a door
 * and form is the one whose median CPU is highest, and each kind's ratio is the median over
 * rounds of its CPU ÷ the anchor's in the same round, with [min–max]. The last two kinds are made
 * from the candidate that costs most to parse and validate in this process.
 *
 * Load as in the POST bench (`bench/post/load.ts`): keep-alive POSTs of one body, 8 connections,
 * the server on core 0 and the load on core 1, nice -15 where allowed; every body is measured in
 * every round, the order reversed every other round; CPU per answered request from /proc.
 * `BENCH_KINDS_ROUNDS` (default 5), `BENCH_KINDS_SECONDS` (1), `BENCH_KINDS_RUNTIMES`
 * (`node,workerd`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_BYTES, verificationLimits } from "../src/address/verification.ts";
import { parseJson } from "../src/json/parse.ts";
import { MESSAGE_MAX_BYTES, MESSAGE_MAX_COUNT, NAMED_CALL_ENVELOPE_BYTES } from "../src/mcp/mcp.ts";
import { prepareTools } from "../src/mcp/tools.ts";
import { doorForms } from "./kinds/doors.ts";
import { hostileBody, KINDS, type KindLimits } from "./kinds/hostile.ts";
import { type Candidate, escapeNonAscii, feedbackCandidates, pageCandidates } from "./kinds/valid.ts";
import { postLoad } from "./post/load.ts";
import { cellAtMost, median, paired } from "./post/ratios.ts";
import {
  bundle,
  cpuSeconds,
  hasTaskset,
  hasWrk,
  mayRaisePriority,
  pin,
  priority,
  raise,
  startWorkerd,
} from "./serve.bench.ts";

const rounds = Number(process.env.BENCH_KINDS_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_KINDS_SECONDS ?? 1);
const connections = 8;
/** The goal: a rejected act of any kind costs at most this many times the costliest valid act. */
export const KIND_GOAL = 2;

type FormName = keyof typeof doorForms;

/** One body posted to a door: a valid candidate or a hostile kind. */
interface Body {
  readonly name: string;
  readonly valid: boolean;
  readonly file: string;
  readonly bytes: number;
}

/** A form at one door, with the bodies posted there. */
interface Door {
  readonly door: DoorName;
  readonly form: FormName;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodies: Body[];
}

/**
 * The doors a form is measured at: its HTTP door; the MCP door by a 2025-era `tools/call` as
 * the SDKs write it (`params.name` before `params.arguments`: read under the tool's bound from
 * its first bytes, `leadingCall`), by one with the `arguments` first (read under the endpoint's
 * bound, the largest tool's), and by a 2026-07-28 one naming its tool in `Mcp-Name`.
 */
type DoorName = "HTTP" | "MCP" | "MCP args first" | "MCP 2026";

/** A 2025-era `tools/call` of `tool` around `args` (split where the arguments go). */
const envelope = (tool: string) =>
  [
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":`,
    "}}",
  ] as const;

/** A 2025-era `tools/call` of `tool` with its `arguments` before its `name`. */
const argumentsFirstEnvelope = (tool: string) =>
  [
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":`,
    `,"name":${JSON.stringify(tool)}}}`,
  ] as const;

/**
 * A 2026-07-28 `tools/call` of `tool` around `args`, with its `_meta` envelope; sent with the
 * `Mcp-Method` and `Mcp-Name` fields ({@link modernHeaders}), so the door reads it under the
 * tool's own bound (`readLimits`).
 */
const modernEnvelope = (tool: string) =>
  [
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":${JSON.stringify(tool)},"arguments":`,
    "}}",
  ] as const;

const modernHeaders = (tool: string) => ({
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": tool,
});

/**
 * The MCP door's limits on a tool's arguments, as `mcp()` sets them (src/mcp/mcp.ts); `named`:
 * for a call whose tool `named` is known before its arguments, from `Mcp-Name` or the message's
 * first bytes (src/mcp/options.ts, `readLimits` and `callHeadLimit`).
 */
function mcpLimits(room: number, named?: FormName): KindLimits {
  const act = () => ({ ok: true });
  const tools = prepareTools(Object.values(doorForms).map((form) => ({ form, act })));
  const endpoint = Math.min(DEFAULT_MAX_BYTES, tools.maxBytes + MESSAGE_MAX_BYTES);
  const tool = named === undefined ? undefined : tools.byName.get(named);
  return {
    maxBytes: (tool === undefined ? endpoint : Math.min(endpoint, tool.maxBytes + NAMED_CALL_ENVELOPE_BYTES)) - room,
    // mcp.ts: the message nests at least 16 deep (MESSAGE_DEPTH), the arguments 2 below it.
    maxDepth: Math.max(16, tools.maxDepth + 2) - 2,
    maxStringLength: Infinity,
    maxMembers: Math.max(MESSAGE_MAX_COUNT, tools.maxMembers),
    maxItems: Math.max(MESSAGE_MAX_COUNT, tools.maxItems),
  };
}

/** The candidate that costs most to parse and validate in this process (the base of the late kinds). */
function heaviest(form: FormName, candidates: readonly Candidate[]): Candidate {
  const compiled = doorForms[form];
  const limits = verificationLimits(compiled);
  let best = candidates[0]!;
  let most = 0;
  for (const candidate of candidates) {
    const bytes = Buffer.from(candidate.text);
    const start = performance.now();
    for (let k = 0; k < 10; k++) {
      if (!compiled.validate(parseJson(bytes, limits))) throw new Error(`${form}: ${candidate.name} is not valid`);
    }
    const ms = performance.now() - start;
    if (ms > most) [best, most] = [candidate, ms];
  }
  return best;
}

/** The doors and their bodies, written to `scratch`. */
function doors(scratch: string): Door[] {
  const out: Door[] = [];
  let n = 0;
  const write = (bytes: Uint8Array) => {
    const file = join(scratch, `body-${n++}.json`);
    writeFileSync(file, bytes);
    return file;
  };
  for (const form of Object.keys(doorForms) as FormName[]) {
    const http = verificationLimits(doorForms[form]);
    const around = (wrapper: readonly [string, string]) => Buffer.byteLength(wrapper[0] + wrapper[1]);
    const mcpDoors = [
      ["MCP", envelope(form), mcpLimits(around(envelope(form)), form)],
      ["MCP args first", argumentsFirstEnvelope(form), mcpLimits(around(argumentsFirstEnvelope(form)))],
      ["MCP 2026", modernEnvelope(form), mcpLimits(around(modernEnvelope(form)), form)],
    ] as const;
    const budget = Math.min(http.maxBytes, ...mcpDoors.map(([, , limits]) => limits.maxBytes)) - 64;
    const candidates = form === "page" ? pageCandidates(budget) : feedbackCandidates();
    const base = heaviest(form, candidates);
    const serialize = base.escaped ? escapeNonAscii : undefined;
    for (const [door, wrapper, limits] of [["HTTP", null, http] as const, ...mcpDoors]) {
      const wrap = (body: Uint8Array) =>
        wrapper === null ? body : Buffer.concat([Buffer.from(wrapper[0]), body, Buffer.from(wrapper[1])]);
      const bodies: Body[] = [];
      for (const candidate of candidates) {
        const bytes = Buffer.from(candidate.text);
        if (bytes.length > limits.maxBytes) throw new Error(`${form}: ${candidate.name} is over ${door}'s maxBytes`);
        bodies.push({ name: candidate.name, valid: true, file: write(wrap(bytes)), bytes: bytes.length });
      }
      for (const kind of KINDS) {
        const bytes = hostileBody(kind, limits, base.text, serialize);
        bodies.push({ name: kind, valid: false, file: write(wrap(bytes)), bytes: bytes.length });
      }
      out.push({
        door,
        form,
        path: door === "HTTP" ? `/${form}` : "/mcp",
        headers:
          door === "HTTP"
            ? {}
            : door === "MCP 2026"
              ? modernHeaders(form)
              : { accept: "application/json, text/event-stream" },
        bodies,
      });
    }
  }
  return out;
}

interface Running {
  origin: string;
  pids: number[];
  stop: () => Promise<void>;
}

/** Starts the doors on Node, on core 0. */
function startNode(): Promise<Running> {
  const command = [
    ...(mayRaisePriority ? priority : []),
    ...(hasTaskset ? ["taskset", "-c", "0"] : []),
    process.execPath,
    join(import.meta.dirname, "kinds/node-server.ts"),
  ];
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(command[0]!, command.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.on("error", reject);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk;
      const line = /\{"port":(\d+)\}/.exec(out);
      if (line)
        resolve({
          origin: `http://127.0.0.1:${line[1]}`,
          pids: child.pid !== undefined && existsSync(`/proc/${child.pid}/stat`) ? [child.pid] : [],
          stop: () =>
            new Promise((done) => {
              child.on("exit", () => done());
              child.kill("SIGTERM");
            }),
        });
    });
  });
}

/** Starts the doors on workerd, on a socket of their own, pinned to core 0. */
async function startOnWorkerd(): Promise<Running> {
  const script = await bundle({
    source: `import { doorsApp } from "./bench/kinds/doors.ts";
import { runtimeFetch } from "./src/body/runtime-framed.ts";
const app = doorsApp();
export default { fetch: runtimeFetch(app.fetch) };`,
  });
  pin(process.pid, "0");
  try {
    const worker = await startWorkerd(script, { direct: true });
    raise(worker.pids);
    return { origin: worker.url.origin, pids: worker.pids, stop: worker.dispose };
  } finally {
    pin(process.pid, `0-${availableParallelism() - 1}`);
  }
}

/** Whether the answer says the act was accepted: 200 at the HTTP door, a result that is no error at the MCP door. */
async function accepted(response: Response, door: Door["door"]): Promise<boolean> {
  const text = await response.text();
  if (response.status !== 200) return false;
  if (door === "HTTP") return true;
  const answer = JSON.parse(text) as { result?: { isError?: boolean } };
  return answer.result !== undefined && answer.result.isError !== true;
}

/** One row of the matrix. */
export interface KindRow {
  readonly runtime: string;
  readonly door: string;
  readonly form: string;
  readonly body: string;
  readonly bytes: number;
  readonly cpu: number[];
  /** Per round, CPU ÷ the anchor's; `null` for the valid candidates. */
  readonly ratios: number[] | null;
}

/** Measures the matrix on `runtime`; returns its rows. */
async function measure(runtime: string, list: readonly Door[], scratch: string): Promise<KindRow[]> {
  const server = runtime === "node" ? await startNode() : await startOnWorkerd();
  const prefix = [...(mayRaisePriority ? priority : []), ...(hasTaskset ? ["taskset", "-c", "1"] : [])];
  const runs = list.flatMap((door) => door.bodies.map((body) => ({ door, body })));
  const cpu = new Map(runs.map((run) => [run, [] as number[]]));
  try {
    for (const { door, body } of runs) {
      const response = await fetch(server.origin + door.path, {
        method: "POST",
        body: readFileSync(body.file),
        headers: { "content-type": "application/json", ...door.headers },
      });
      if ((await accepted(response, door.door)) !== body.valid)
        throw new Error(`${runtime} ${door.door} ${door.form} ${body.name}: ${body.valid ? "refused" : "accepted"}`);
    }
    const load = (door: Door, body: Body, s: number) =>
      postLoad({
        url: server.origin + door.path,
        files: [body.file],
        headers: door.headers,
        seconds: s,
        connections,
        prefix,
        wrk: hasWrk,
        scratch,
      });
    for (const { door, body } of runs) await load(door, body, 1); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const run of round % 2 === 0 ? runs : [...runs].reverse()) {
        const before = server.pids.length > 0 ? cpuSeconds(server.pids) : 0;
        const result = await load(run.door, run.body, seconds);
        if (server.pids.length > 0)
          cpu.get(run)!.push(((cpuSeconds(server.pids) - before) / (result.rate * seconds)) * 1e6);
      }
    }
  } finally {
    await server.stop();
  }
  const rows: KindRow[] = [];
  for (const door of list) {
    const mine = runs.filter((run) => run.door === door);
    const valid = mine.filter((run) => run.body.valid);
    const anchor = valid.reduce((a, b) => (median(cpu.get(b)!) > median(cpu.get(a)!) ? b : a), valid[0]!);
    for (const run of mine) {
      const xs = cpu.get(run)!;
      rows.push({
        runtime,
        door: door.door,
        form: door.form,
        body: run.body.valid ? `valid: ${run.body.name}${run === anchor ? " (anchor)" : ""}` : run.body.name,
        bytes: run.body.bytes,
        cpu: xs,
        ratios: run.body.valid || xs.length === 0 ? null : paired(xs, cpu.get(anchor)!),
      });
    }
  }
  return rows;
}

/**
 * Runs the matrix on `runtimes` and prints it; returns the rows whose median ratio is above
 * {@link KIND_GOAL} (`bench:hostile` counts them as failed checks).
 */
export async function kindMatrix(runtimes: readonly string[]): Promise<KindRow[]> {
  const scratch = mkdtempSync(join(tmpdir(), "gpt-address-kinds-"));
  const rows: KindRow[] = [];
  try {
    const list = doors(scratch);
    console.log(
      `hostile kinds at each door's own limits: ${rounds} rounds × ${seconds} s per body, ${connections} connections, ${hasWrk ? "wrk" : "Node keep-alive loop"}; ${hasTaskset ? "server on core 0, load on core 1" : "unpinned"}`,
    );
    for (const runtime of runtimes) rows.push(...(await measure(runtime, list, scratch)));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log("\n| runtime | door | form | body | bytes | CPU µs/act | ÷ costliest valid act |");
  console.log("| --- | --- | --- | --- | ---: | ---: | ---: |");
  for (const row of rows) {
    const us = row.cpu.length === 0 ? "n/a" : median(row.cpu).toFixed(0);
    const ratio = row.ratios === null ? "" : cellAtMost(row.ratios, KIND_GOAL);
    console.log(`| ${row.runtime} | ${row.door} | ${row.form} | ${row.body} | ${row.bytes} | ${us} | ${ratio} |`);
  }
  console.log(
    `\n(server CPU per answered request from /proc, medians over rounds; ratio: per round, the kind's CPU ÷ the anchor's, the valid act of the highest median CPU at that door and form; goal ≤ ${KIND_GOAL})`,
  );
  return rows.filter((row) => row.ratios !== null && median(row.ratios) > KIND_GOAL);
}

export default async function kinds(): Promise<void> {
  await kindMatrix((process.env.BENCH_KINDS_RUNTIMES ?? "node,workerd").split(","));
}

if (import.meta.url === `file://${process.argv[1]}`) await kinds();
