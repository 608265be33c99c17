/**
 * `unevaluatedItems`: each item that no other keyword of the node, nor any subschema applied in
 * place that validated, evaluated (`prefixItems` its indices, `items` the rest, `contains` the
 * items it validated) satisfies the schema (`false`: there is none). What counts as evaluated
 * is src/compile/evaluated.ts; the results of branches and the matches of `contains` are
 * recorded where they are computed, so the check validates nothing twice. Emitted last.
 *
 * @see https://json-schema.org/draft/2020-12/json-schema-core#section-11.2
 * @module
 */
import { type Evaluation, evaluationPlan } from "../evaluated.ts";
import type { Compiler, Keyword } from "../keyword.ts";
import { expectSchema, one } from "../keyword-values.ts";
import { type Code, join, js } from "../safe-format.ts";

/**
 * A boolean expression: was the item at `index` of `data` evaluated? `undefined` when never.
 * Indices below `from` are known evaluated (the loop starts there).
 */
function itemEvaluated(
  evaluation: Evaluation,
  index: Code,
  data: Code,
  compiler: Compiler,
  from: number,
): Code | undefined {
  if (evaluation.all) return js`true`;
  const tests: Code[] = [];
  if (evaluation.prefix > from) tests.push(js`${index} < ${evaluation.prefix}`);
  for (const contains of evaluation.contains) {
    const matches = compiler.recorded(contains, data);
    if (matches === undefined) throw new Error(`no matches recorded for ${contains}`);
    tests.push(js`(${matches} !== undefined && ${matches}[${index}] === 1)`);
  }
  for (const { condition, evaluation: inner } of evaluation.branches) {
    if (condition.kind === "present") continue; // dependentSchemas: objects only
    const evaluated = itemEvaluated(inner, index, data, compiler, from);
    if (evaluated === undefined) continue;
    const result = compiler.recorded(condition.pointer, data);
    if (result === undefined) throw new Error(`no result recorded for ${condition.pointer}`);
    tests.push(js`(${condition.kind === "valid" ? result : js`!${result}`} && (${evaluated}))`);
  }
  return tests.length === 0 ? undefined : join(tests, js` || `);
}

export const unevaluatedItems: Keyword = {
  name: "unevaluatedItems",
  instance: "array",
  widening: "a validator or decoder that skips unevaluatedItems accepts items the form does not evaluate",
  check: expectSchema,
  subschemas: one,
  applies: "child",
  emit({ value, at, pointer, data, body, compiler }) {
    if (value === true) return;
    const { evaluation } = evaluationPlan(compiler.document, pointer, "items");
    if (evaluation.all) return;
    const from = evaluation.prefix;
    const index = body.local("i");
    const evaluated = itemEvaluated(evaluation, index, data, compiler, from);
    body.open(js`for (let ${index} = ${from}; ${index} < ${data}.length; ${index}++) {`);
    if (evaluated !== undefined) body.line(js`if (${evaluated}) continue;`);
    if (value === false) body.line(compiler.fail(at));
    else {
      const item = body.local("d");
      body.line(js`const ${item} = ${data}[${index}];`);
      compiler.inline(at, item, body);
    }
    body.close();
  },
};
