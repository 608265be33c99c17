/**
 * `npm run fuzz:compile`: the long differential run of the form compiler (issue 4): at least
 * 10⁵ (form, instance) pairs, random forms over the implemented vocabulary, each validated by
 * the generated module (forms batched into one module per round), @cfworker/json-schema and
 * ajv (2020 mode, strict; ajv-formats). Exits 1 on any disagreement, printing the first ones.
 *
 * Usage: `npm run fuzz:compile -- [pairs] [seed]` (defaults 100000 pairs, a time-based seed).
 */
import { type Disagreement, explain, runDifferential } from "../test/node/compile/differential.ts";

const target = Number(process.argv[2] ?? 100_000);
const seed = Number(process.argv[3] ?? Date.now() % 2 ** 31);
const perForm = 10;
const formsPerRound = 2_000;

let forms = 0;
let pairs = 0;
let strictPairs = 0;
let ajvCrashes = 0;
const disagreements: Disagreement[] = [];
const started = performance.now();
for (let round = 0; pairs < target; round++) {
  const count = Math.min(formsPerRound, Math.ceil((target - pairs) / perForm));
  const result = await runDifferential(count, perForm, seed + round);
  forms += result.forms;
  pairs += result.pairs;
  strictPairs += result.ajvStrictPairs;
  ajvCrashes += result.ajvCrashes;
  disagreements.push(...result.disagreements);
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const unexplained = disagreements.filter((disagreement) => explain(disagreement) === undefined);
const explained = new Map<string, number>();
for (const disagreement of disagreements) {
  const reason = explain(disagreement);
  if (reason !== undefined) explained.set(reason, (explained.get(reason) ?? 0) + 1);
}
console.log(
  `fuzz:compile seed ${seed}: ${forms} forms, ${pairs} pairs (${strictPairs} against ajv strict, the rest against ajv lenient; ` +
    `ajv's code threw on ${ajvCrashes}), ${disagreements.length} disagreements, ${unexplained.length} unexplained, ${seconds} s`,
);
for (const [reason, count] of explained) console.log(`  documented (${count}): ${reason}`);
for (const disagreement of unexplained.slice(0, 20)) console.log(JSON.stringify(disagreement));
process.exitCode = unexplained.length === 0 ? 0 : 1;
