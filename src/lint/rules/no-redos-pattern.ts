/**
 * `no-redos-pattern`: no `pattern` or `patternProperties` name takes long to match on a string
 * the form admits. The generated validator runs each pattern (`new RegExp(source, "u")`, see
 * `Compiler.regex`) on strings an unauthenticated actor chooses (draft "The Form Is the Attack
 * Surface", "Denial of Service"). Two checks, both fail closed:
 *
 * 1. `recheck` (automaton and fuzzing, `u` flag) judges how matching time grows with the input.
 *    Only its `safe` verdict passes: `vulnerable` is a finding, and so is `unknown` (a timeout,
 *    or syntax recheck cannot analyse), since an unproven pattern is not a safe one.
 * 2. A measured probe, for the patterns recheck cannot see: those whose backtracking cost grows
 *    with the pattern, not the input (`^(a?){100}a{100}$` backtracks through C(100, k) ways on
 *    k letters: recheck calls it `safe`, yet eight letters take seconds). A child process (a
 *    `worker_threads` Worker cannot be stopped inside a match) runs the pattern, compiled as the validator compiles it, on adversarial strings
 *    within the string's bounds (`maxLength`, or {@link unboundedLength} without one, at most
 *    {@link longestProbe}): each
 *    literal character of the pattern (and a few common ones) repeated, with and without a
 *    trailing mismatch, at lengths 1, 2, 4, … up to the bound. A match that costs more than
 *    {@link probeBudgetMs} ms of the child's CPU time, or that has not returned after
 *    {@link probeWallMs} ms of wall time (the child is then killed), is a finding. Ordinary
 *    patterns match these inputs in microseconds, so the budget leaves a margin of four orders of
 *    magnitude, and measuring CPU time keeps a loaded machine from producing false findings.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { checkSync } from "recheck";
import { childPointer } from "../../compile/pointer.ts";
import { defineRule } from "../rule.ts";

/** How long recheck may analyse one pattern (ms) before its verdict is `unknown`. */
export const recheckTimeoutMs = 10_000;
/** CPU time (ms) one probe match may take in the child process before it is a finding. */
export const probeBudgetMs = 50;
/** Wall time (ms) one probe match may run before the child is killed and it is a finding. */
export const probeWallMs = 1000;
/** The length bound (code points) probed for a string without `maxLength`: the portable bound of `use-portable-bounds`. */
export const unboundedLength = 1999;
/** The longest input (code points) probed, whatever `maxLength` says: it keeps the probe's own memory bounded. */
export const longestProbe = 65_536;

type Message = "vulnerable" | "unknown" | "slow";
interface Verdict {
  readonly messageId: Message;
  readonly data: Readonly<Record<string, string | number>>;
}

const recheckVerdicts = new Map<string, Verdict | null>();

/**
 * recheck's verdict on `source` (flag `u`): null when `safe`, else the finding's message and
 * data. Memoised per source for the default timeout.
 */
export function recheckVerdict(source: string, timeoutMs = recheckTimeoutMs): Verdict | null {
  const memo = timeoutMs === recheckTimeoutMs;
  if (memo && recheckVerdicts.has(source)) return recheckVerdicts.get(source) ?? null;
  const diagnostics = checkSync(source, "u", { timeout: timeoutMs });
  const pattern = JSON.stringify(source);
  let verdict: Verdict | null = null;
  if (diagnostics.status === "vulnerable")
    verdict = { messageId: "vulnerable", data: { pattern, complexity: diagnostics.complexity.summary } };
  else if (diagnostics.status === "unknown") {
    const { error } = diagnostics;
    const reason =
      error.kind === "timeout"
        ? `no verdict within ${timeoutMs} ms`
        : error.kind === "invalid"
          ? "recheck cannot parse it"
          : error.kind;
    const detail = "message" in error && error.message ? `: ${error.message}` : "";
    verdict = { messageId: "unknown", data: { pattern, reason: `${reason}${detail}` } };
  }
  if (memo) recheckVerdicts.set(source, verdict);
  return verdict;
}

/** Characters probed beside the pattern's own literals, and the mismatch candidates. */
const commonCharacters = ["a", "0", " ", "-", "."];
const mismatches = ["!", "~", "\u0000"];

/**
 * The probe inputs for `source` within `maxLength` code points: each literal character of the
 * source and of {@link commonCharacters}, repeated to lengths 1, 2, 4, … and `maxLength`, alone
 * and with a final character that does not occur in the source.
 */
export function probeInputs(source: string, maxLength: number): string[] {
  const characters = new Set<string>();
  for (const character of source.replace(/\\[a-zA-Z]/g, ""))
    if (/[\p{L}\p{N}\p{P}\p{S} ]/u.test(character)) characters.add(character);
  for (const character of commonCharacters) characters.add(character);
  const mismatch = mismatches.find((character) => !source.includes(character)) ?? "\u0001";
  const lengths = new Set<number>();
  for (let length = 1; length < maxLength; length *= 2) lengths.add(length);
  if (maxLength >= 1) lengths.add(maxLength);
  const inputs: string[] = [];
  for (const length of [...lengths].sort((a, b) => a - b))
    for (const character of characters) {
      inputs.push(character.repeat(length));
      if (length > 1) inputs.push(character.repeat(length - 1) + mismatch);
    }
  return inputs;
}

/**
 * The probe's program, run in a child process: reads `{source, inputs, budget}` as JSON on stdin
 * and writes one JSON line per event: `{start}` before each match, `{slow, ms}` when a match
 * spent more than `budget` ms of CPU time, `{done}` at the end.
 */
const probeProgram = `
let text = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { text += chunk; });
process.stdin.on("end", () => {
  const { source, inputs, budget } = JSON.parse(text);
  let re;
  try { re = new RegExp(source, "u"); } catch { inputs.length = 0; }
  const say = (event) => process.stdout.write(JSON.stringify(event) + "\\n");
  for (let index = 0; index < inputs.length; index++) {
    say({ start: index });
    const before = process.cpuUsage();
    re.test(inputs[index]);
    const spent = process.cpuUsage(before);
    const ms = (spent.user + spent.system) / 1000;
    if (ms > budget) { say({ slow: index, ms }); return; }
  }
  say({ done: true });
});
`;

const probeVerdicts = new Map<string, Promise<Verdict | null>>();

/**
 * Runs {@link probeInputs} for `source` in a child process: null when every match stays within budget,
 * else a `slow` verdict naming the input length. Memoised per source and bound.
 */
export function probeVerdict(source: string, maxLength: number): Promise<Verdict | null> {
  const key = `${maxLength}\u0000${source}`;
  let verdict = probeVerdicts.get(key);
  if (verdict === undefined) {
    verdict = runProbe(source, probeInputs(source, maxLength));
    probeVerdicts.set(key, verdict);
  }
  return verdict;
}

function runProbe(source: string, inputs: string[]): Promise<Verdict | null> {
  const pattern = JSON.stringify(source);
  const slow = (index: number, ms: number): Verdict => ({
    messageId: "slow",
    data: { pattern, ms: Math.floor(ms), length: [...(inputs[index] ?? "")].length },
  });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", probeProgram], { stdio: ["pipe", "pipe", "inherit"] });
    let running = -1;
    let settled = false;
    let pending = "";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (verdict: Verdict | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      resolve(verdict);
    };
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      pending += chunk;
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        const event = JSON.parse(pending.slice(0, newline)) as {
          start?: number;
          slow?: number;
          ms?: number;
          done?: true;
        };
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
        if (event.start !== undefined) {
          running = event.start;
          clearTimeout(timer);
          timer = setTimeout(() => finish(slow(running, probeWallMs)), probeWallMs);
        } else if (event.slow !== undefined) finish(slow(event.slow, event.ms ?? probeBudgetMs));
        else if (event.done) finish(null);
      }
    });
    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(new Error(`the pattern probe exited early (code ${code}, signal ${signal})`));
      }
    });
    child.stdin.end(JSON.stringify({ source, inputs, budget: probeBudgetMs }));
  });
}

/** The length bound of the strings a node's `pattern` is matched on. */
function boundOf(node: Record<string, unknown>): number {
  const bound = typeof node.maxLength === "number" ? node.maxLength : unboundedLength;
  return Math.min(bound, longestProbe);
}

export const noRedosPattern = defineRule({
  meta: {
    id: "no-redos-pattern",
    severity: "error",
    requirement: "S2",
    section: 'draft "The Form Is the Attack Surface", "Denial of Service"',
    description:
      "A pattern matches fast on every string the form admits (recheck, then a timed probe within maxLength).",
    messages: {
      vulnerable: "pattern {pattern} backtracks catastrophically ({complexity}): rewrite it",
      unknown: "pattern {pattern} could not be proven safe by recheck ({reason}): simplify it",
      slow: "pattern {pattern} took over {ms} ms on a {length}-character input within the form's bounds: rewrite it",
    },
    docs: {
      invalid: [
        { schema: { type: "string", maxLength: 99, pattern: "^(a+)+$" }, pointer: "/s/pattern" },
        {
          schema: { type: "string", maxLength: 20, pattern: `^${"(a?)".repeat(40)}${"a".repeat(40)}$` },
          pointer: "/s/pattern",
        },
        { schema: { type: "string", maxLength: 9, pattern: "^\\p{Script=Kawi}+$" }, pointer: "/s/pattern" },
      ],
      valid: [
        { schema: { type: "string", maxLength: 99, pattern: "^a+$" } },
        { schema: { type: "string", maxLength: 5, pattern: "^(?:[01]\\d|2[0-3]):[0-5]\\d$" } },
      ],
    },
  },
  async check(context) {
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      const node = schema as Record<string, unknown>;
      const sources: Array<[string, string, number]> = [];
      if (typeof node.pattern === "string")
        sources.push([node.pattern, childPointer(pointer, "pattern"), boundOf(node)]);
      const names = node.propertyNames;
      const nameBound =
        typeof names === "object" && names !== null ? boundOf(names as Record<string, unknown>) : unboundedLength;
      for (const name of Object.keys((node.patternProperties ?? {}) as object))
        sources.push([name, childPointer(pointer, "patternProperties", name), nameBound]);
      for (const [source, at, bound] of sources) {
        const verdict = recheckVerdict(source) ?? (await probeVerdict(source, bound));
        if (verdict !== null) context.report({ messageId: verdict.messageId, pointer: at, data: verdict.data });
      }
    }
  },
});
