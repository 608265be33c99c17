/**
 * `no-redos-pattern`: no `pattern` or `patternProperties` name takes long to match on a string
 * the form admits. The generated validator runs each pattern (`new RegExp(source, "u")`, see
 * `Compiler.regex`) on strings an unauthenticated actor chooses (draft "The Form Is the Attack
 * Surface", "Denial of Service"). Two checks, both fail closed:
 *
 * 1. `recheck` (automaton and fuzzing, `u` flag) judges how matching time grows with the input.
 *    Its `safe` verdict passes to step 2; `unknown` (a timeout, or syntax recheck cannot
 *    analyse) is a finding, since an unproven pattern is not a safe one; so is `vulnerable`,
 *    except a polynomial one on a string with `maxLength` (at most {@link longestProbe}): there
 *    the attack decides. recheck's attack string, built at `maxLength` code points (the whole
 *    string, since `pattern` matches the whole instance), runs in the probe's child as many
 *    times as one act can carry such strings (the `maxItems` / `maxProperties` on the way from
 *    the root, at most {@link defaultMaxBytes} / (maxLength + 3)); over {@link actBudgetMs} ms
 *    of CPU time in all is a finding with the measured time, within it the pattern goes on to
 *    step 2's inputs in the same child. Exponential patterns, and polynomial ones without a
 *    bound, stay findings.
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
import type { AttackPattern } from "recheck";
import { checkSync } from "recheck";
import { childPointer } from "../../compile/pointer.ts";
import { defaultMaxBytes } from "../cost.ts";
import { defineRule, type RuleContext } from "../rule.ts";
import type { SchemaNode } from "../schema-nodes.ts";

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

/**
 * CPU time (ms) that matching one `pattern` may cost per act, for a bounded polynomial pattern:
 * recheck's attack at `maxLength`, times the strings at that bound one act can carry. Parsing
 * a hostile body at the default limit of 1 MiB already costs about as much (7–37 ms in
 * `parseJson`; 10–80 ms to refuse one, docs/address.md, `maxBytes`), so a pattern within the budget at most about doubles
 * the worst act; above it, the pattern is the act's dominant cost.
 */
export const actBudgetMs = probeBudgetMs;

type Message = "vulnerable" | "unknown" | "slow" | "attack";
interface Verdict {
  readonly messageId: Message;
  readonly data: Readonly<Record<string, string | number>>;
  /** recheck's attack, on a `vulnerable` verdict of polynomial (not exponential) complexity. */
  readonly polynomial?: AttackPattern;
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
  if (diagnostics.status === "vulnerable") {
    const { complexity, attack } = diagnostics;
    verdict = { messageId: "vulnerable", data: { pattern, complexity: complexity.summary } };
    if (complexity.type === "polynomial") verdict = { ...verdict, polynomial: attack };
  } else if (diagnostics.status === "unknown") {
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
 * recheck's attack string (`pumps`: each `prefix`, then its `pump` repeated `n + bias` times;
 * then `suffix`) with the largest `n` that keeps it within `maxLength` code points, the whole
 * string an actor may send (`pattern` is matched against the whole instance). When even `n = 0`
 * does not fit, its first `maxLength` code points.
 */
export function attackAt(attack: AttackPattern, maxLength: number): string {
  const length = (text: string) => [...text].length;
  let fixed = length(attack.suffix);
  let perRound = 0;
  for (const { prefix, pump, bias } of attack.pumps) {
    fixed += length(prefix) + length(pump) * bias;
    perRound += length(pump);
  }
  const n = perRound === 0 ? 0 : Math.max(0, Math.floor((maxLength - fixed) / perRound));
  let text = "";
  for (const { prefix, pump, bias } of attack.pumps) text += prefix + pump.repeat(Math.max(0, n + bias));
  text += attack.suffix;
  return length(text) <= maxLength ? text : [...text].slice(0, maxLength).join("");
}

/**
 * The probe's program, run in a child process: reads `{source, inputs, budget, attack?}` as
 * JSON on stdin and writes one JSON line per event: `{start}` before each match (`-1` before
 * the attack), `{first}` with the CPU time (ms) of the attack's first match, `{attack, ms,
 * matches}` after the attack (`attack.copies` matches of
 * `attack.text`, stopped once `attack.budget` ms of CPU time are spent: `ms` over `matches`),
 * `{slow, ms}` when a match spent more than `budget` ms of CPU time, `{done}` at the end.
 */
const probeProgram = `
let text = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { text += chunk; });
process.stdin.on("end", () => {
  const { source, inputs, budget, attack } = JSON.parse(text);
  let re;
  try { re = new RegExp(source, "u"); } catch { inputs.length = 0; }
  const say = (event) => process.stdout.write(JSON.stringify(event) + "\\n");
  const cpu = (before) => { const spent = process.cpuUsage(before); return (spent.user + spent.system) / 1000; };
  if (attack && re) {
    // Compile and tier up the expression first, as a serving validator's already is.
    const warm = [...attack.text].slice(0, 8).join("");
    for (let round = 0; round < 3; round++) re.test(warm);
    say({ start: -1 });
    const before = process.cpuUsage();
    let matches = 0;
    let ms = 0;
    while (matches < attack.copies) {
      re.test(attack.text);
      matches++;
      if (matches === 1) say({ first: cpu(before) });
      if (matches < 16 || matches % 16 === 0 || matches === attack.copies) {
        ms = cpu(before);
        if (ms > attack.budget) break;
      }
    }
    say({ attack: true, ms: cpu(before), matches });
  }
  for (let index = 0; index < inputs.length; index++) {
    say({ start: index });
    const before = process.cpuUsage();
    re.test(inputs[index]);
    const ms = cpu(before);
    if (ms > budget) { say({ slow: index, ms }); return; }
  }
  say({ done: true });
});
`;

const probeVerdicts = new Map<string, Promise<Verdict | null>>();

/** A bounded polynomial pattern's attack for the probe: recheck's verdict, `maxLength`, and how many such strings one act holds. */
export interface BoundedAttack {
  readonly verdict: Verdict & { readonly polynomial: AttackPattern };
  readonly maxLength: number;
  readonly copies: number;
}

/**
 * Runs {@link probeInputs} for `source` in a child process: null when every match stays within
 * budget, else a `slow` verdict naming the input length. With `attack`, the same child first
 * runs recheck's attack at `maxLength` `copies` times: over {@link actBudgetMs} of CPU time (or
 * one match past {@link probeWallMs} of wall time) is an `attack` verdict with the measured
 * time. Memoised per source, bound and attack.
 */
export function probeVerdict(source: string, maxLength: number, attack?: BoundedAttack): Promise<Verdict | null> {
  const key = `${maxLength}\u0000${attack ? `${attack.maxLength}\u0000${attack.copies}` : ""}\u0000${source}`;
  let verdict = probeVerdicts.get(key);
  if (verdict === undefined) {
    verdict = runProbe(source, probeInputs(source, maxLength), attack);
    probeVerdicts.set(key, verdict);
  }
  return verdict;
}

function runProbe(source: string, inputs: string[], bounded?: BoundedAttack): Promise<Verdict | null> {
  const pattern = JSON.stringify(source);
  const slow = (index: number, ms: number): Verdict => ({
    messageId: "slow",
    data: { pattern, ms: Math.floor(ms), length: [...(inputs[index] ?? "")].length },
  });
  const attack = bounded && {
    text: attackAt(bounded.verdict.polynomial, bounded.maxLength),
    copies: bounded.copies,
    budget: actBudgetMs,
  };
  /** CPU time (ms) of the attack's first match, once the child reports it. */
  let firstMatchMs: number | undefined;
  const shown = (ms: number) => `${ms >= 10 ? Math.round(ms) : Number(ms.toPrecision(2))} ms`;
  /** The `attack` verdict, given the time per match and for the act, as shown. */
  const attackVerdict = (time: string, act: string): Verdict => ({
    messageId: "attack",
    data: {
      pattern,
      complexity: bounded?.verdict.data.complexity ?? "polynomial",
      length: [...(attack?.text ?? "")].length,
      time,
      copies: attack?.copies ?? 1,
      act,
      budget: actBudgetMs,
    },
  });
  /** The wall clock stopped the attack: its first match's CPU time if it returned, else the wall time. */
  const attackStopped = () =>
    attackVerdict(
      firstMatchMs === undefined ? `over ${probeWallMs} ms` : shown(firstMatchMs),
      `over ${probeWallMs} ms of wall time`,
    );
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
          first?: number;
          slow?: number;
          attack?: true;
          matches?: number;
          ms?: number;
          done?: true;
        };
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
        if (event.start !== undefined) {
          running = event.start;
          clearTimeout(timer);
          timer = setTimeout(() => finish(running < 0 ? attackStopped() : slow(running, probeWallMs)), probeWallMs);
        } else if (event.first !== undefined) firstMatchMs = event.first;
        else if (event.attack) {
          const perMatch = (event.ms ?? 0) / Math.max(1, event.matches ?? 1);
          const act = perMatch * (attack?.copies ?? 1);
          if (act > actBudgetMs) finish(attackVerdict(shown(perMatch), shown(act)));
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
    child.stdin.end(JSON.stringify({ source, inputs, budget: probeBudgetMs, attack }));
  });
}

/** The length bound of the strings a node's `pattern` is matched on. */
function boundOf(node: Record<string, unknown>): number {
  const bound = typeof node.maxLength === "number" ? node.maxLength : unboundedLength;
  return Math.min(bound, longestProbe);
}

/** The node's `maxLength` when it is one the probe can reach (at most {@link longestProbe}), else undefined. */
function probedMaxLength(node: unknown): number | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  const { maxLength } = node as Record<string, unknown>;
  return typeof maxLength === "number" && maxLength <= longestProbe ? maxLength : undefined;
}

/** How many instances one `via` child of `parent` may apply to, per instance of `parent`. */
function fanOut(via: string | undefined, parent: Readonly<Record<string, unknown>> | undefined): number {
  const bound = (keyword: string) => (typeof parent?.[keyword] === "number" ? (parent[keyword] as number) : Infinity);
  switch (via) {
    case "properties":
    case "prefixItems":
    case "allOf":
    case "anyOf":
    case "oneOf":
    case "not":
    case "if":
    case "then":
    case "else":
    case "dependentSchemas":
      return 1;
    case "items":
    case "contains":
      return bound("maxItems");
    case "additionalProperties":
    case "patternProperties":
    case "propertyNames":
      return bound("maxProperties");
    default:
      // `$defs` (reached through `$ref`s) and anything not listed: no bound from the walk.
      return Infinity;
  }
}

/**
 * A bound on how many instance locations the schema at `at` (a pointer into `s`) applies to in
 * one act: the product of the `maxItems` / `maxProperties` on its way from the root, Infinity
 * through an unbounded array or object, `$defs`, or a `$ref` target (a reference may apply it
 * anywhere, recursion included). Memoised in `memo`.
 */
function instancesOf(
  at: string,
  nodes: ReadonlyMap<string, SchemaNode>,
  context: RuleContext<Message>,
  memo: Map<string, number>,
): number {
  const known = memo.get(at);
  if (known !== undefined) return known;
  const node = nodes.get(at);
  let count: number;
  if (node === undefined || context.document.refCount(at) > 0) count = Infinity;
  else if (node.parentAt === undefined) count = 1;
  else count = instancesOf(node.parentAt, nodes, context, memo) * fanOut(node.via, node.parent);
  memo.set(at, count);
  return count;
}

/**
 * How many strings of `maxLength` code points one act can carry where a pattern applies
 * `instances` times: each takes at least `maxLength + 3` bytes (its code points, two quotes and
 * a separator) of a body of {@link defaultMaxBytes}.
 */
function copiesPerAct(instances: number, maxLength: number): number {
  return Math.max(1, Math.min(instances, Math.floor(defaultMaxBytes / (maxLength + 3))));
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
      attack:
        "pattern {pattern} backtracks in {complexity} time: recheck's attack at maxLength ({length} code points) took {time} per match; the {copies} such strings one act can carry take {act}, over the budget of {budget} ms per act: rewrite it or lower maxLength",
    },
    docs: {
      invalid: [
        { schema: { type: "string", maxLength: 99, pattern: "^(a+)+$" }, pointer: "/s/pattern" },
        {
          schema: { type: "string", maxLength: 20, pattern: `^${"(a?)".repeat(40)}${"a".repeat(40)}$` },
          pointer: "/s/pattern",
        },
        { schema: { type: "string", maxLength: 9, pattern: "^\\p{Script=Kawi}+$" }, pointer: "/s/pattern" },
        { schema: { type: "string", maxLength: 1000, pattern: "^\\s*\\s*\\s*$" }, pointer: "/s/pattern" },
      ],
      valid: [
        { schema: { type: "string", maxLength: 99, pattern: "^a+$" } },
        { schema: { type: "string", maxLength: 5, pattern: "^(?:[01]\\d|2[0-3]):[0-5]\\d$" } },
        { schema: { type: "string", maxLength: 64, pattern: "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$" } },
      ],
    },
  },
  async check(context) {
    const byAt = new Map(context.nodes.map((node) => [node.at, node]));
    const instances = new Map<string, number>();
    for (const { schema, pointer, at } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      const node = schema as Record<string, unknown>;
      /** Each source: its pointer, the probe's bound, and its `maxLength` with the instances it applies to. */
      const sources: Array<[string, string, number, number | undefined, number]> = [];
      const here = () => instancesOf(at, byAt, context, instances);
      if (typeof node.pattern === "string")
        sources.push([node.pattern, childPointer(pointer, "pattern"), boundOf(node), probedMaxLength(node), here()]);
      const names = node.propertyNames;
      const nameBound =
        typeof names === "object" && names !== null ? boundOf(names as Record<string, unknown>) : unboundedLength;
      const nameMax = probedMaxLength(names);
      const keys = Object.keys((node.patternProperties ?? {}) as object);
      const nameCount = keys.length > 0 ? here() * fanOut("propertyNames", node) : 1;
      for (const name of keys)
        sources.push([name, childPointer(pointer, "patternProperties", name), nameBound, nameMax, nameCount]);
      for (const [source, where, bound, maxLength, count] of sources) {
        const recheck = recheckVerdict(source);
        let verdict: Verdict | null;
        if (recheck === null) verdict = await probeVerdict(source, bound);
        else if (recheck.polynomial !== undefined && maxLength !== undefined) {
          const attack = {
            verdict: { ...recheck, polynomial: recheck.polynomial },
            maxLength,
            copies: copiesPerAct(count, maxLength),
          };
          verdict = await probeVerdict(source, bound, attack);
        } else verdict = recheck;
        if (verdict !== null) context.report({ messageId: verdict.messageId, pointer: where, data: verdict.data });
      }
    }
  },
});
