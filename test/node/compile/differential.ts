/**
 * The differential run: random forms × random instances through the generated validator
 * (many forms batched into one module), @cfworker/json-schema and ajv (2020 mode, strict,
 * ajv-formats). A form ajv's strict mode refuses (strictTypes, strictRequired, strictTuples
 * are lint rules, not semantics) is compared against ajv with `strict: false` instead.
 *
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { form, instance, type Json } from "./arbitraries.ts";
import { loadModules } from "./load-modules.ts";

/**
 * Disagreements that are defects of another validator, each proven by a test in
 * `differential.test.ts` (and by the official suite): ours agrees with the specification.
 */
export const knownDifferences: ReadonlyArray<{
  readonly reason: string;
  readonly applies: (d: Disagreement) => boolean;
}> = [
  {
    reason:
      "ajv 8.20 accepts an empty array against `contains` in some places (beside a `prefixItems` $ref; the second array under " +
      '`items: {contains}`, strict mode too); `contains` needs one matching item (suite: contains.json "empty array is invalid")',
    applies: (d) =>
      d.ours === d.cfworker &&
      d.ajv &&
      !d.ours &&
      JSON.stringify(d.schema).includes('"contains"') &&
      JSON.stringify(d.instance).includes("[]"),
  },
  {
    reason:
      "ajv 8.20 counts the items a failing anyOf/oneOf branch evaluated (its `items`, `prefixItems`, `unevaluatedItems`) " +
      "for unevaluatedItems; only a valid branch's annotations count (2020-12 Core §11.2, §10.2.1)",
    applies: (d) =>
      d.ours === d.cfworker &&
      d.ajv &&
      !d.ours &&
      /"unevaluatedItems"/.test(JSON.stringify(d.schema)) &&
      /"(anyOf|oneOf)"/.test(JSON.stringify(d.schema)),
  },
  {
    reason:
      "ajv 8.20 drops the annotations of an `if` beside no `then`/`else` (or a `then`/`else` that is `true`): " +
      "unevaluated* then refuses what the valid `if` evaluated (2020-12 Core §10.2.2.1; ajv pull request 2639)",
    applies: (d) =>
      d.ours === d.cfworker &&
      !d.ajv &&
      d.ours &&
      /"unevaluated(Items|Properties)"/.test(JSON.stringify(d.schema)) &&
      /"if"/.test(JSON.stringify(d.schema)),
  },
  {
    reason:
      "ajv 8.20 ignores the items a `contains: {}` (or `true`) validated, so unevaluatedItems refuses them " +
      "(2020-12 Core §10.3.1.3: contains annotates the indices it validated)",
    applies: (d) =>
      d.ours === d.cfworker &&
      !d.ajv &&
      d.ours &&
      /"unevaluatedItems"/.test(JSON.stringify(d.schema)) &&
      /"contains":(\{\}|true)/.test(JSON.stringify(d.schema)),
  },
  {
    reason:
      "ajv 8.20 loses the items an anyOf/oneOf branch evaluated behind a $ref, so unevaluatedItems refuses them " +
      "(annotations of valid branches count through $ref: 2020-12 Core §8.2.3.1, §11.2)",
    applies: (d) =>
      d.ours === d.cfworker &&
      !d.ajv &&
      d.ours &&
      /"unevaluatedItems"/.test(JSON.stringify(d.schema)) &&
      /"\$ref"/.test(JSON.stringify(d.schema)) &&
      /"(anyOf|oneOf)"/.test(JSON.stringify(d.schema)),
  },
];

/** The reason a disagreement is a documented defect of another validator, if it is one. */
export function explain(disagreement: Disagreement): string | undefined {
  return knownDifferences.find((known) => known.applies(disagreement))?.reason;
}

/** One instance on which the validators disagree. */
export interface Disagreement {
  readonly schema: unknown;
  readonly instance: Json;
  readonly ours: boolean;
  readonly ajv: boolean;
  readonly ajvMode: "strict" | "lenient";
  readonly cfworker: boolean;
}

export interface DifferentialResult {
  readonly forms: number;
  /** Pairs compared against cfworker (every pair). */
  readonly pairs: number;
  /** Pairs compared against ajv in strict mode (forms strict mode accepts). */
  readonly ajvStrictPairs: number;
  /** Pairs on which ajv's generated code threw (an ajv defect); compared against cfworker only. */
  readonly ajvCrashes: number;
  readonly disagreements: Disagreement[];
}

/** Runs `formCount` forms × `perForm` instances from `seed`. */
export async function runDifferential(formCount: number, perForm: number, seed: number): Promise<DifferentialResult> {
  const cases = fc.sample(fc.tuple(form, fc.array(instance, { minLength: perForm, maxLength: perForm })), {
    numRuns: formCount,
    seed,
  });
  const modules = await loadModules(cases.map(([schema]) => compileForm(schema)));
  const strictAjv = new Ajv2020({ strict: true, logger: false });
  const lenientAjv = new Ajv2020({ strict: false, logger: false });
  addFormats(strictAjv);
  addFormats(lenientAjv);
  let pairs = 0;
  let ajvStrictPairs = 0;
  let ajvCrashes = 0;
  const disagreements: Disagreement[] = [];
  cases.forEach(([schema, instances], index) => {
    const ours = modules[index];
    if (ours === undefined) throw new Error("missing module");
    const document = typeof schema === "boolean" ? schema : { ...schema, $id: `urn:form:${index}` };
    let ajvValidate: (value: unknown) => boolean;
    let ajvMode: "strict" | "lenient" = "strict";
    try {
      ajvValidate = strictAjv.compile(document) as (value: unknown) => boolean;
    } catch {
      ajvMode = "lenient";
      ajvValidate = lenientAjv.compile(document) as (value: unknown) => boolean;
    }
    const cfworker = new Validator(schema as never, "2020-12", false);
    for (const value of instances) {
      pairs += 1;
      const mine = ours.validate(value);
      const theirs = cfworker.validate(value).valid;
      let byAjv: boolean;
      try {
        byAjv = ajvValidate(value);
      } catch {
        ajvCrashes += 1;
        byAjv = theirs;
      }
      if (ajvMode === "strict") ajvStrictPairs += 1;
      if (mine !== theirs || mine !== byAjv)
        disagreements.push({ schema, instance: value, ours: mine, ajv: byAjv, ajvMode, cfworker: theirs });
    }
  });
  return { forms: cases.length, pairs, ajvStrictPairs, ajvCrashes, disagreements };
}
