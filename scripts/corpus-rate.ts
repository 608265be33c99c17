/**
 * `node scripts/corpus-rate.ts <schemas-dir> [<tests-dir>]`: how much of a corpus of real JSON
 * Schemas the form compiler takes, and whether what it takes agrees with ajv.
 *
 * Each `<schemas-dir>/<name>.json` goes the way `gpt-address build` takes a form's `s`: an older
 * draft is upgraded to 2020-12 (src/compile/upgrade.ts; a keyword whose meaning changed counts
 * as refused, as the build refuses it), then compiled (`compileForm`). A refusal is counted by
 * its `FormError` code; anything else thrown is a crash. When `<tests-dir>/<name>/*.json` exist
 * (SchemaStore's layout), each instance is validated by the compiled module and by ajv's 2020-12
 * validator on the same upgraded schema (`strict: false`, ajv-formats): a different verdict is a
 * disagreement, listed by schema.
 *
 * The corpus is not part of this repository: the figures quoted in issue notes were taken on
 * SchemaStore's `src/schemas/json` and `src/test`. Prints one summary table, then the refusal
 * codes, then each disagreement and crash. Exit code 1 when anything crashed or disagreed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { compileForm } from "../src/compile/compile-form.ts";
import { FormError } from "../src/compile/form-error.ts";
import { upgradeForm } from "../src/compile/upgrade.ts";

const [schemasDir, testsDir] = process.argv.slice(2);
if (schemasDir === undefined) {
  console.error("usage: node scripts/corpus-rate.ts <schemas-dir> [<tests-dir>]");
  process.exit(2);
}

interface Validator {
  validate(value: unknown): boolean;
}

const refusals = new Map<string, number>();
const examples = new Map<string, string>();
const crashes: string[] = [];
const disagreements: string[] = [];
let total = 0;
let upgraded = 0;
let compiled = 0;
let instances = 0;
let agreed = 0;
let ajvRefused = 0;
let slowest = { name: "", ms: 0 };

function refuse(name: string, code: string, message: string): void {
  refusals.set(code, (refusals.get(code) ?? 0) + 1);
  if (!examples.has(code)) examples.set(code, `${name}: ${message}`);
}

function instancesOf(name: string): Array<[string, unknown]> {
  if (testsDir === undefined) return [];
  const dir = join(testsDir, name);
  let files: string[];
  try {
    if (!statSync(dir).isDirectory()) return [];
    files = readdirSync(dir).filter((file) => file.endsWith(".json"));
  } catch {
    return [];
  }
  const out: Array<[string, unknown]> = [];
  for (const file of files) {
    try {
      out.push([file, JSON.parse(readFileSync(join(dir, file), "utf8"))]);
    } catch {
      // Not JSON (SchemaStore also keeps JSON5 and YAML-like tests): not an instance here.
    }
  }
  return out;
}

for (const file of readdirSync(schemasDir).sort()) {
  if (!file.endsWith(".json")) continue;
  const name = file.slice(0, -".json".length);
  let schema: unknown;
  try {
    schema = JSON.parse(readFileSync(join(schemasDir, file), "utf8"));
  } catch {
    continue;
  }
  total++;
  const started = performance.now();
  let module: Validator;
  let form: unknown;
  try {
    const upgrade = upgradeForm(schema);
    if (upgrade.from !== "2020-12") upgraded++;
    const changed = upgrade.notes.find((note) => note.changed);
    if (changed !== undefined) {
      refuse(name, "upgrade-changed-meaning", `${changed.pointer}: ${changed.message}`);
      continue;
    }
    form = upgrade.schema;
    const source = compileForm(form);
    module = (await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`)) as Validator;
    compiled++;
  } catch (error) {
    if (error instanceof FormError) refuse(name, error.code, `${error.pointer}: ${error.message}`);
    else crashes.push(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    continue;
  } finally {
    const ms = performance.now() - started;
    if (ms > slowest.ms) slowest = { name, ms };
  }
  const tests = instancesOf(name);
  if (tests.length === 0) continue;
  let reference: ((value: unknown) => boolean) | undefined;
  try {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats.default(ajv);
    reference = ajv.compile(form as object);
  } catch {
    ajvRefused++;
  }
  for (const [test, value] of tests) {
    instances++;
    const ours = module.validate(value);
    if (reference === undefined) continue;
    const theirs = reference(value);
    if (ours === theirs) agreed++;
    else disagreements.push(`${name}/${test}: ours ${ours}, ajv ${theirs}`);
  }
}

const percent = (n: number) => `${((100 * n) / Math.max(total, 1)).toFixed(1)} %`;
console.log(`schemas           ${total}`);
console.log(`older drafts      ${upgraded} (upgraded to 2020-12 first)`);
console.log(`compiled          ${compiled} (${percent(compiled)})`);
console.log(`refused           ${total - compiled - crashes.length}`);
console.log(`crashes           ${crashes.length}`);
console.log(`slowest           ${slowest.name} ${slowest.ms.toFixed(0)} ms`);
if (testsDir !== undefined) {
  console.log(`test instances    ${instances} (of compiled schemas; ajv refused ${ajvRefused} schema(s))`);
  console.log(`agreement         ${agreed} agreed, ${disagreements.length} disagreed`);
}
console.log("\nrefusals by code:");
for (const [code, count] of [...refusals].sort((a, b) => b[1] - a[1]))
  console.log(`  ${String(count).padStart(4)}  ${code.padEnd(26)} e.g. ${examples.get(code)?.slice(0, 150)}`);
for (const line of disagreements) console.log(`disagreement ${line}`);
for (const line of crashes) console.log(`crash ${line}`);
process.exitCode = crashes.length + disagreements.length > 0 ? 1 : 0;
