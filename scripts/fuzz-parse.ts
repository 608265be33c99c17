/**
 * `npm run fuzz:parse`: the differential run of `parseJson` against `JSON.parse` on at least
 * 10⁶ generated inputs (issue 3), the same properties as `test/node/json/differential.test.ts`:
 *
 * - spelled: random values with random whitespace, escapes and number spellings (1 in 33
 *   padded past TEXT_MAX (1 MiB), so both string decoders run) parse to `JSON.parse`'s value;
 * - mutated: random byte edits of such texts are accepted with `JSON.parse`'s value or
 *   rejected for a reason `JSON.parse` does not check, never anything else.
 *
 * Usage: `npm run fuzz:parse -- [runs] [seed]` (default 1,000,000 of each, a random seed).
 * Prints the tally of outcomes by code; exits non-zero with fast-check's counterexample on
 * the first violation.
 */
import fc from "fast-check";
import { mutate, mutationArb, spell, treeArb } from "../test/node/json/json-arbitraries.ts";
import { checkMutated, checkSpelled, oracleRetries, ours } from "../test/node/json/json-properties.ts";

const runs = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? Date.now() % 2 ** 31);
const encoder = new TextEncoder();
const tally = { spelled: new Map<string, number>(), mutated: new Map<string, number>() };

function count(map: Map<string, number>, bytes: Uint8Array): void {
  const result = ours(bytes);
  const key = "error" in result ? result.error.code : "accepted";
  map.set(key, (map.get(key) ?? 0) + 1);
}

console.log(`fuzz:parse, ${runs} spelled + ${runs} mutated inputs, seed ${seed}`);
const started = performance.now();

fc.assert(
  fc.property(treeArb(), fc.integer(), fc.integer({ min: 0, max: 99 }), (tree, s, pad) => {
    const spelled = spell(tree, s);
    checkSpelled(spelled, pad);
    count(tally.spelled, encoder.encode(spelled.text));
  }),
  { numRuns: runs, seed },
);
console.log(`spelled: passed (${((performance.now() - started) / 1000).toFixed(0)} s)`);

fc.assert(
  fc.property(treeArb(), fc.integer(), fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (tree, s, mutations) => {
    const bytes = mutate(encoder.encode(spell(tree, s).text), mutations);
    checkMutated(bytes);
    count(tally.mutated, bytes);
  }),
  { numRuns: runs, seed: seed + 1 },
);
console.log(`mutated: passed (${((performance.now() - started) / 1000).toFixed(0)} s)`);

for (const [name, map] of Object.entries(tally)) {
  const rows = [...map].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`);
  console.log(`${name} outcomes: ${rows.join(", ")}`);
}
// V8's JSON.parse has been seen to misread an escaped member name late in a long run; each
// such disagreement was re-checked in a fresh process (json-properties.ts, equalsOracle).
console.log(
  `in-process JSON.parse disagreements settled in parseJson's favour by a fresh process: ${oracleRetries.length}`,
);
for (const text of oracleRetries.slice(0, 5)) console.log(`  ${JSON.stringify(text.slice(0, 200))}`);
console.log(`total ${2 * runs} inputs, 0 violations, ${((performance.now() - started) / 1000).toFixed(0)} s`);
