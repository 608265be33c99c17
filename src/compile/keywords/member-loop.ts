/**
 * One loop over an object's own member names that applies `patternProperties`,
 * `additionalProperties` and `propertyNames` together; the first of them present emits it.
 *
 * @module
 */
import type { KeywordContext } from "../keyword.ts";
import { childPointer } from "../pointer.ts";
import { type Code, join, js } from "../safe-format.ts";

/** Up to this many declared names, "is it declared?" is a chain of `!==`; above it, a `Set`. */
const chainLimit = 8;

const owners = ["patternProperties", "additionalProperties", "propertyNames"] as const;

/** Emits the member loop, once per node: only the first present owner keyword does. */
export function emitMemberLoop(
  keyword: (typeof owners)[number],
  { node, pointer, data, body, compiler }: KeywordContext,
): void {
  const first = owners.find((name) => Object.hasOwn(node, name));
  if (first !== keyword) return;
  const patterns = Object.hasOwn(node, "patternProperties")
    ? Object.entries(node.patternProperties as Record<string, unknown>)
    : [];
  const additional = node.additionalProperties;
  const names = node.propertyNames;
  const usefulPatterns = patterns.filter(([, schema]) => schema !== true || additional !== undefined);
  if (
    usefulPatterns.length === 0 &&
    (additional === undefined || additional === true) &&
    (names === undefined || names === true)
  )
    return;

  const key = body.local("k");
  // for…in allocates nothing (Object.keys does); it also yields inherited enumerable names,
  // which exist only if Object.prototype was polluted, and then are checked too: over-strict,
  // never over-lenient.
  body.open(js`for (const ${key} in ${data}) {`);
  if (names !== undefined && names !== true) compiler.inline(childPointer(pointer, "propertyNames"), key, body);
  const needsValue =
    patterns.some(([, schema]) => schema !== true) || (additional !== undefined && typeof additional !== "boolean");
  const item = needsValue ? body.local("d") : key;
  if (needsValue) body.line(js`const ${item} = ${data}[${key}];`);
  const matched: Code[] = [];
  for (const [source, schema] of patterns) {
    const regex = compiler.regex(source);
    matched.push(js`${regex}.test(${key})`);
    if (schema === true) continue;
    body.open(js`if (${regex}.test(${key})) {`);
    compiler.inline(childPointer(pointer, "patternProperties", source), item, body);
    body.close();
  }
  if (additional !== undefined && additional !== true) {
    const declared = Object.keys((node.properties ?? {}) as Record<string, unknown>);
    const tests: Code[] = [];
    if (declared.length > chainLimit) tests.push(js`!${compiler.constant(declared, "Set")}.has(${key})`);
    else for (const name of declared) tests.push(js`${key} !== ${name}`);
    for (const test of matched) tests.push(js`!${test}`);
    const at = childPointer(pointer, "additionalProperties");
    const condition = tests.length === 0 ? js`true` : join(tests, js` && `);
    if (additional === false) body.line(js`if (${condition}) ${compiler.fail(at)}`);
    else {
      body.open(js`if (${condition}) {`);
      compiler.inline(at, item, body);
      body.close();
    }
  }
  body.close();
}
