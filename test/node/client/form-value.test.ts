/**
 * The values `check` builds its probes on when `m` has no example (issue 32 item 5): `formValue`
 * (the smallest value of a form, or a fuller one), `patternSamples` (strings a `pattern`
 * matches) and `formKinds` (what a value of the form may hold), each judged by the form's own
 * compiled validator, on the example forms and on random forms over the whole vocabulary
 * (test/node/compile/arbitraries.ts, the compiler's differential arbitraries).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formKinds } from "../../../src/client/form-kinds.ts";
import { compileValidator } from "../../../src/client/form-validator.ts";
import { formValue } from "../../../src/client/form-value.ts";
import { patternSamples } from "../../../src/client/pattern-sample.ts";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { form, instance, type Json } from "../compile/arbitraries.ts";
import { type GeneratedModule, loadModules } from "../compile/load-modules.ts";
import { ORDER_FORM } from "./plain-address.ts";
import { root } from "./servers.ts";

const formOf = (name: string) => JSON.parse(readFileSync(join(root, `forms/${name}.json`), "utf8")).s as object;

/** Random forms the compiler takes, each with its validator and `count` random instances. */
async function randomForms(count: number, seed: number) {
  const cases = fc.sample(fc.tuple(form, fc.array(instance, { minLength: 40, maxLength: 40 })), {
    numRuns: count,
    seed,
  });
  const compiled = cases.flatMap(([schema, instances]) => {
    try {
      return [{ schema, instances, source: compileForm(schema) }];
    } catch {
      return []; // a form the compiler refuses has no validator to judge by
    }
  });
  const modules = await loadModules(compiled.map((c) => c.source));
  return compiled.map((c, i) => ({ ...c, validator: modules[i] as GeneratedModule }));
}

describe("formValue: the smallest value a form accepts", () => {
  it("required members only, least lengths and bounds, the first enum and const values", () => {
    expect(formValue(ORDER_FORM)).toEqual({ value: { name: "aa", size: "s", where: { city: "a" } } });
    expect(formValue({ type: "integer", minimum: 3, multipleOf: 2 })).toEqual({ value: 4 });
    expect(formValue({ type: "number", exclusiveMinimum: 0, maximum: 1 })).toEqual({ value: 0.5 });
    expect(formValue({ const: { a: [1] } })).toEqual({ value: { a: [1] } });
    expect(formValue({ type: "array", minItems: 2, uniqueItems: true, items: { enum: [7, 7, 8] } })).toEqual({
      value: [7, 8],
    });
    expect(formValue({})).toEqual({ value: null });
  });

  it("the first satisfiable anyOf branch; a recursive $ref takes its way out", () => {
    const unsatisfiable = { type: "string", minLength: 2, maxLength: 1 };
    expect(formValue({ anyOf: [unsatisfiable, { type: "boolean" }, { type: "null" }] })).toEqual({ value: false });
    const tree = {
      $defs: { node: { type: "object", required: ["kids"], properties: { kids: { $ref: "#/$defs/kids" } } } },
      $ref: "#/$defs/kids",
    };
    const kids = { anyOf: [{ type: "array", minItems: 1, items: { $ref: "#/$defs/node" } }, { type: "null" }] };
    expect(formValue({ ...tree, $defs: { ...tree.$defs, kids } })).toEqual({ value: [{ kids: null }] });
  });

  it("full: every property it can fill, non-empty strings", () => {
    expect(formValue(ORDER_FORM, "full")).toEqual({
      value: { name: "aa", size: "s", where: { city: "a" }, count: 1 },
    });
  });

  it("nothing when the form accepts nothing", () => {
    expect(formValue(false)).toBeUndefined();
    expect(formValue({ not: {} })).toBeUndefined();
    expect(formValue({ type: "string", enum: [1, 2] })).toBeUndefined();
  });

  it("the example forms: both values pass the form's own validator", async () => {
    for (const name of ["page", "feedback"]) {
      const validator = await compileValidator(formOf(name));
      for (const shape of ["least", "full"] as const) {
        const generated = formValue(formOf(name), shape);
        expect(generated, `${name} ${shape}`).toBeDefined();
        expect(validator.check(generated!.value), `${name} ${shape}`).toBeNull();
      }
    }
  });

  it("random forms: every value it gives passes the form's own validator; it finds one for 98 % of the forms a random instance satisfies", async () => {
    const forms = await randomForms(400, 20261201);
    expect(forms.length).toBeGreaterThan(300);
    let witnessed = 0;
    let found = 0;
    for (const { schema, instances, validator } of forms) {
      for (const shape of ["least", "full"] as const) {
        const generated = formValue(schema, shape);
        if (generated !== undefined) expect(validator.validate(generated.value), JSON.stringify(schema)).toBe(true);
      }
      if (instances.some((value) => validator.validate(value))) {
        witnessed++;
        if (formValue(schema) !== undefined) found++;
      }
    }
    expect(witnessed).toBeGreaterThan(250);
    expect(found / witnessed).toBeGreaterThanOrEqual(0.98);
  });
});

describe("patternSamples: strings a pattern matches", () => {
  const patterns = [
    "^a",
    "b$",
    "\\p{Lu}",
    "😀",
    "a|b",
    "^[a-c]*$",
    "^\\d",
    "^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~!$&'()*+,;=:@%/?#-]*)?$",
    "^[A-Z]{2}-\\d{3,}$",
    "^(?:[a-z]+\\.)?example\\.(com|org)$",
    "^[^\\s@]+@[^\\s@]+$",
  ];

  it("every sample matches its pattern and is minLength code points or more; the shortest first", () => {
    fc.assert(
      fc.property(fc.constantFrom(...patterns), fc.nat({ max: 12 }), (pattern, minLength) => {
        const samples = patternSamples(pattern, minLength);
        expect(samples.length, pattern).toBeGreaterThan(0);
        for (const sample of samples) {
          expect(new RegExp(pattern, "u").test(sample), `${pattern} ${sample}`).toBe(true);
          expect([...sample].length).toBeGreaterThanOrEqual(minLength);
        }
        expect(samples.map((s) => s.length)).toEqual(samples.map((s) => s.length).sort((a, b) => a - b));
      }),
    );
  });

  it("escapes and named groups; none when the pattern admits nothing that long", () => {
    expect(patternSamples("^\\u0041\\x42(?<n>[0-9]{2})?$", 0)).toEqual(["AB", "AB00"]);
    expect(patternSamples("^\\u0041\\x42(?<n>[0-9]{2})?$", 5)).toEqual([]);
    expect(patternSamples("^.$", 0)).toEqual(["a"]);
    expect(patternSamples("^.$", 2)).toEqual([]);
  });

  it("no sample for what it cannot write (a look-around, a back-reference)", () => {
    expect(patternSamples("^(?=.*\\d)[a-z0-9]{8}$", 0)).toEqual([]);
    expect(patternSamples("^(a)\\1$", 0)).toEqual([]);
    expect(patternSamples("[", 0)).toEqual([]);
  });
});

describe("formKinds: what a value of the form may hold", () => {
  it("the example forms and a closed flat form", () => {
    expect(formKinds(formOf("page"))).toEqual({ rootObject: true, nestedObject: true, freeString: true });
    expect(formKinds(formOf("feedback"))).toEqual({ rootObject: true, nestedObject: false, freeString: true });
    const fixed = { type: "object", additionalProperties: false, properties: { a: { enum: ["x", "y"] } } };
    expect(formKinds(fixed)).toEqual({ rootObject: true, nestedObject: false, freeString: false });
    expect(formKinds({ type: "integer" })).toEqual({ rootObject: false, nestedObject: false, freeString: false });
  });

  it("random forms: never says 'cannot hold' of a node some accepted value holds (it over-approximates)", async () => {
    const forms = await randomForms(300, 20261202);
    const isObject = (v: unknown): v is Record<string, Json> =>
      typeof v === "object" && v !== null && !Array.isArray(v);
    /** Whether `v` holds an object below the top; whether a string in it still passes with U+FFFD appended. */
    const holds = (v: Json, accepts: (w: Json) => boolean) => {
      let nested = false;
      let carrier = false;
      const walk = (node: Json, replace: (by: Json) => Json, depth: number): void => {
        if (isObject(node)) {
          if (depth > 0) nested = true;
          for (const [k, item] of Object.entries(node)) {
            walk(
              item,
              (by) => replace(Object.fromEntries(Object.entries(node).map(([n, x]) => [n, n === k ? by : x]))),
              depth + 1,
            );
          }
        } else if (Array.isArray(node)) {
          for (const [i, item] of node.entries()) {
            walk(item, (by) => replace(node.map((x, j) => (j === i ? by : x))), depth + 1);
          }
        } else if (typeof node === "string" && accepts(replace(`${node}\uFFFD`))) carrier = true;
      };
      walk(v, (by) => by, 0);
      return { nested, carrier };
    };
    for (const { schema, instances, validator } of forms) {
      const kinds = formKinds(schema);
      for (const value of instances.filter((v) => validator.validate(v))) {
        const { nested, carrier } = holds(value, (w) => validator.validate(w));
        const label = `${JSON.stringify(schema)} ${JSON.stringify(value)}`;
        if (isObject(value)) expect(kinds.rootObject, label).toBe(true);
        if (nested) expect(kinds.nestedObject, label).toBe(true);
        if (carrier) expect(kinds.freeString, label).toBe(true);
      }
    }
  });
});
