/**
 * The upgrade rules one by one (src/compile/upgrade.ts): each rewrites an older draft's form in
 * 2020-12 and keeps what it meant there, checked by running the upgraded form's validator on
 * values the draft accepts and refuses; a keyword whose meaning changed is removed and noted.
 */
import { describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { FormError } from "../../../src/compile/form-error.ts";
import { upgradeForm } from "../../../src/compile/upgrade.ts";
import { loadModules } from "./load-modules.ts";

const draft04 = "http://json-schema.org/draft-04/schema#";
const draft07 = "http://json-schema.org/draft-07/schema#";
const draft201909 = "https://json-schema.org/draft/2019-09/schema";
const latest = "https://json-schema.org/draft/2020-12/schema";

async function validatorOf(schema: unknown): Promise<(value: unknown) => boolean> {
  const [module] = await loadModules([compileForm(schema)]);
  return (value) => module?.validate(value) as boolean;
}

describe("upgradeForm: older drafts to 2020-12", () => {
  it("draft-04: boolean exclusiveMaximum/Minimum take their bound; id becomes $id and $anchor", async () => {
    const { schema, from, notes } = upgradeForm({
      $schema: draft04,
      id: "https://example.com/n",
      type: "object",
      properties: {
        n: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
        m: { id: "#m", exclusiveMaximum: true },
      },
    });
    expect(from).toBe("draft-04");
    expect(schema).toEqual({
      $schema: latest,
      $id: "https://example.com/n",
      type: "object",
      properties: { n: { type: "number", exclusiveMinimum: 0, maximum: 10 }, m: { $anchor: "m" } },
    });
    expect(notes).toEqual([expect.objectContaining({ pointer: "/properties/m/exclusiveMaximum", changed: false })]);
    const validate = await validatorOf(schema);
    expect([0, 0.5, 10, 10.5].map((n) => validate({ n }))).toEqual([false, true, true, false]);
  });

  it("definitions, dependencies and tuple items move, and every $ref to what moved follows", async () => {
    const { schema, notes } = upgradeForm({
      $schema: draft07,
      definitions: {
        pair: { items: [{ type: "string" }, { $ref: "#/definitions/pair/items/0" }], additionalItems: false },
      },
      properties: { p: { $ref: "#/definitions/pair" }, q: { items: { type: "integer" }, additionalItems: false } },
      dependencies: { a: ["b"], c: { required: ["d"] } },
    });
    expect(schema).toEqual({
      $schema: latest,
      $defs: { pair: { prefixItems: [{ type: "string" }, { $ref: "#/$defs/pair/prefixItems/0" }], items: false } },
      properties: { p: { $ref: "#/$defs/pair" }, q: { items: { type: "integer" } } },
      dependentRequired: { a: ["b"] },
      dependentSchemas: { c: { required: ["d"] } },
    });
    // additionalItems beside a schema items applied to nothing: removed, the meaning kept.
    expect(notes).toEqual([expect.objectContaining({ pointer: "/properties/q/additionalItems", changed: false })]);
    const validate = await validatorOf(schema);
    expect(validate({ p: ["a", "b"] })).toBe(true);
    expect(validate({ p: ["a", 1] })).toBe(false);
    expect(validate({ p: ["a", "b", "c"] })).toBe(false);
    expect(validate({ a: 1 })).toBe(false);
    expect(validate({ c: 1, d: 2 })).toBe(true);
  });

  it("keeps the draft's meaning where 2020-12 changed it, and notes it: a sibling of $ref, a keyword the draft lacks", () => {
    const { schema, notes } = upgradeForm({
      $schema: draft07,
      definitions: { list: { type: "array" } },
      properties: { a: { $ref: "#/definitions/list", maxItems: 2, description: "kept" } },
      dependentRequired: { a: ["b"] },
    });
    expect(schema).toEqual({
      $schema: latest,
      $defs: { list: { type: "array" } },
      properties: { a: { $ref: "#/$defs/list", description: "kept" } },
    });
    expect(notes.map((note) => [note.pointer, note.changed])).toEqual([
      ["/properties/a/maxItems", true],
      ["/dependentRequired", true],
    ]);
  });

  it("removes the root's own $id beside a root $ref with a plain note: fragment $refs resolve the same either way", async () => {
    const { schema, notes } = upgradeForm({
      $schema: draft07,
      $id: "https://example.com/config.json",
      $ref: "#/definitions/config",
      definitions: {
        config: { type: "object", properties: { port: { $ref: "#/definitions/port" } } },
        port: { type: "integer" },
      },
    });
    expect(notes.map((note) => [note.pointer, note.changed])).toEqual([["/$id", false]]);
    expect(schema).not.toHaveProperty("$id");
    const validate = await validatorOf(schema);
    expect(validate({ port: 8080 })).toBe(true);
    expect(validate({ port: "8080" })).toBe(false);
    expect(validate([])).toBe(false);
    // Below the root, an $id beside $ref would rebase that $ref in 2020-12: still reported.
    const inner = upgradeForm({
      $schema: draft07,
      properties: { a: { $id: "https://example.com/a.json", $ref: "#/x" } },
    });
    expect(inner.notes.map((note) => [note.pointer, note.changed])).toEqual([["/properties/a/$id", true]]);
  });

  it("2019-09: $recursiveRef becomes the $ref it resolves to; one that depends on the dynamic scope is refused", async () => {
    const tree = {
      $schema: draft201909,
      $id: "https://example.com/tree",
      $recursiveAnchor: true,
      type: "object",
      properties: { kids: { type: "array", items: { $recursiveRef: "#" } } },
      $defs: { leaf: { $id: "leaf", $recursiveAnchor: true, properties: { up: { $recursiveRef: "#" } } } },
    };
    const { schema } = upgradeForm(tree);
    expect(schema).toMatchObject({
      properties: { kids: { items: { $ref: "#" } } },
      $defs: { leaf: { $id: "leaf", properties: { up: { $ref: "https://example.com/tree#" } } } },
    });
    expect(JSON.stringify(schema)).not.toContain("$recursive");
    const validate = await validatorOf(schema);
    expect(validate({ kids: [{ kids: [] }] })).toBe(true);
    expect(validate({ kids: [{ kids: 1 }] })).toBe(false);
    // Two anchored resources below a root without one: the target depends on the path taken.
    const dynamic = {
      $schema: draft201909,
      $defs: {
        a: { $id: "https://example.com/a", $recursiveAnchor: true, items: { $ref: "https://example.com/b" } },
        b: { $id: "https://example.com/b", $recursiveAnchor: true, items: { $recursiveRef: "#" } },
      },
    };
    expect(() => upgradeForm(dynamic)).toThrow(FormError);
  });

  it("leaves a 2020-12 form, a form without $schema and an unknown dialect as they are", () => {
    const forms = [
      { $schema: latest, items: [1] },
      { definitions: {} },
      { $schema: "http://json-schema.org/draft-03/schema#" },
    ];
    for (const form of forms) expect(upgradeForm(form)).toEqual({ schema: form, from: "2020-12", notes: [] });
  });
});
