/**
 * `unevaluatedProperties`: each own member that no other keyword of the node, nor any
 * subschema applied in place that validated, evaluated satisfies the schema (`false`: there
 * is none). What counts as evaluated is src/compile/evaluated.ts; the results of branches are
 * recorded where they are computed, so the check validates nothing twice. Emitted last.
 *
 * @see https://json-schema.org/draft/2020-12/json-schema-core#section-11.3
 * @module
 */
import { type Evaluation, evaluationPlan } from "../evaluated.ts";
import type { Compiler, Keyword } from "../keyword.ts";
import { expectSchema, one } from "../keyword-values.ts";
import { type Code, join, js } from "../safe-format.ts";
import { present } from "./presence.ts";

/** Up to this many names, "is it evaluated?" is a chain of `===`; above it, a `Set`. */
const chainLimit = 8;

/** A boolean expression: was the member `key` of `data` evaluated? `undefined` when never. */
export function memberEvaluated(evaluation: Evaluation, key: Code, data: Code, compiler: Compiler): Code | undefined {
  if (evaluation.all) return js`true`;
  const tests: Code[] = [];
  const names = [...evaluation.names];
  if (names.length > chainLimit) tests.push(js`${compiler.constant(names, "Set")}.has(${key})`);
  else for (const name of names) tests.push(js`${key} === ${name}`);
  for (const source of evaluation.patterns) tests.push(js`${compiler.regex(source)}.test(${key})`);
  for (const { condition, evaluation: inner } of evaluation.branches) {
    const evaluated = memberEvaluated(inner, key, data, compiler);
    if (evaluated === undefined) continue;
    let holds: Code;
    if (condition.kind === "present") holds = js`(${present(compiler, data, condition.name)})`;
    else {
      const result = compiler.recorded(condition.pointer, data);
      if (result === undefined) throw new Error(`no result recorded for ${condition.pointer}`);
      holds = condition.kind === "valid" ? result : js`!${result}`;
    }
    tests.push(js`(${holds} && (${evaluated}))`);
  }
  return tests.length === 0 ? undefined : join(tests, js` || `);
}

export const unevaluatedProperties: Keyword = {
  name: "unevaluatedProperties",
  instance: "object",
  widening: "a validator or decoder that skips unevaluatedProperties accepts members the form does not evaluate",
  check: expectSchema,
  subschemas: one,
  applies: "child",
  emit({ value, at, pointer, data, body, compiler }) {
    if (value === true) return;
    const { evaluation } = evaluationPlan(compiler.document, pointer, "properties");
    if (evaluation.all) return;
    const key = body.local("k");
    const evaluated = memberEvaluated(evaluation, key, data, compiler);
    // for…in, as the member loop: inherited enumerable names (a polluted prototype) are checked too.
    body.open(js`for (const ${key} in ${data}) {`);
    if (evaluated !== undefined) body.line(js`if (${evaluated}) continue;`);
    if (value === false) body.line(compiler.fail(at));
    else {
      const item = body.local("d");
      body.line(js`const ${item} = ${data}[${key}];`);
      compiler.inline(at, item, body);
    }
    body.close();
  },
};
