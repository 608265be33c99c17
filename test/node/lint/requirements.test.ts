import { describe, expect, it } from "vitest";
import { FormDocument } from "../../../src/compile/document.ts";
import { judge } from "../../../src/lint/actors/judge.ts";
import type { ActorProfile, LimitName, RequirementName } from "../../../src/lint/actors/profile.ts";
import { schemaNodes } from "../../../src/lint/schema-nodes.ts";

const sources = { s: { url: "https://example.org/", version: "test", evidence: "doc" as const } };
const base: ActorProfile = {
  id: "t",
  name: "t",
  surface: "t",
  read: "2026-12",
  sources,
  unlisted: { cell: "S", source: "s" },
};
const issues = (profile: ActorProfile, schema: unknown) =>
  judge(profile, schemaNodes(schema), new FormDocument(schema)).map((issue) => `${issue.outcome} ${issue.pointer}`);

const str = { type: "string", maxLength: 5 };
const closedObject = (extra: Record<string, unknown> = {}) => ({
  type: "object",
  additionalProperties: false,
  required: ["a"],
  properties: { a: str },
  ...extra,
});

/** Per requirement: a form that breaks it (with the place) and a control that differs in that one respect. */
const requirementCases: Record<RequirementName, { broken: unknown; at: string; control: unknown }> = {
  "closed-objects": { broken: { type: "object", properties: { a: str } }, at: "/s", control: closedObject() },
  "all-required": { broken: closedObject({ required: [] }), at: "/s", control: closedObject() },
  "root-object": { broken: { anyOf: [closedObject(), { type: "null" }] }, at: "/s", control: closedObject() },
  "type-on-every-node": {
    broken: closedObject({ properties: { a: { const: "x" } } }),
    at: "/s/properties/a",
    control: closedObject({ properties: { a: { type: "string", const: "x" } } }),
  },
  "ref-alone": {
    broken: { $defs: { a: str }, $ref: "#/$defs/a", description: "d" },
    at: "/s",
    control: { $defs: { a: str }, $ref: "#/$defs/a", $comment: "d" },
  },
  "no-recursion": {
    broken: { $defs: { n: { type: "array", maxItems: 2, items: { $ref: "#/$defs/n" } } }, $ref: "#/$defs/n" },
    at: "/s/$defs/n/items/$ref",
    control: { $defs: { n: { type: "array", maxItems: 2, items: str } }, $ref: "#/$defs/n" },
  },
  "anchored-patterns": {
    broken: { type: "string", maxLength: 5, pattern: "a+" },
    at: "/s/pattern",
    control: { type: "string", maxLength: 5, pattern: "^a+$" },
  },
  "no-lookaround": {
    broken: { type: "string", maxLength: 5, pattern: "^(?!x)a+$" },
    at: "/s/pattern",
    control: { type: "string", maxLength: 5, pattern: "^(?:x)a+$" },
  },
  "no-backreference": {
    broken: { type: "string", maxLength: 5, pattern: "^(a)\\1$" },
    at: "/s/pattern",
    control: { type: "string", maxLength: 5, pattern: "^(a)a$" },
  },
  "primitive-type-arrays": {
    broken: { type: ["object", "null"], additionalProperties: false },
    at: "/s",
    control: { type: ["string", "null"], maxLength: 5 },
  },
  "no-union-with-properties": {
    broken: closedObject({ anyOf: [{ required: ["a"] }] }),
    at: "/s",
    control: closedObject({ allOf: [{ required: ["a"] }] }),
  },
  "one-string-constraint": {
    broken: { type: "string", maxLength: 5, pattern: "^a+$" },
    at: "/s",
    control: { type: "string", pattern: "^a{1,5}$" },
  },
};

describe("actor requirements: each named check reports the place that breaks it, and not its control", () => {
  for (const [check, { broken, at, control }] of Object.entries(requirementCases)) {
    it(`${check}`, () => {
      const profile = { ...base, requires: [{ check: check as RequirementName, source: "s" }] };
      expect(issues(profile, broken)).toEqual([`R ${at}`]);
      expect(issues(profile, control)).toEqual([]);
      const softened = { ...base, requires: [{ check: check as RequirementName, source: "s", outcome: "I" as const }] };
      expect(issues(softened, broken)).toEqual([`I ${at}`]);
    });
  }
});

/** Per budget: a form whose count is 3 (or whose largest bound is 3), judged with a budget of 2 and of 3. */
const limitCases: Record<LimitName, unknown> = {
  properties: { type: "object", additionalProperties: false, properties: { a: str, b: str, c: str } },
  nesting: {
    type: "object",
    additionalProperties: false,
    properties: {
      a: {
        type: "object",
        additionalProperties: false,
        properties: { b: { type: "object", additionalProperties: false } },
      },
    },
  },
  enumValues: { enum: ["x", "y", "z"] },
  characters: { enum: ["abc"] },
  optionalProperties: { type: "object", additionalProperties: false, properties: { a: str, b: str, c: str } },
  unions: { anyOf: [{ type: ["string", "null"], maxLength: 1 }, { anyOf: [{ type: "null" }] }] },
  sumMaxItems: { type: "array", maxItems: 3, items: str },
  repetition: { type: "string", maxLength: 3 },
  depth: { type: "array", maxItems: 1, items: { type: "array", maxItems: 1, items: { type: "null" } } },
  nodes: { type: "array", maxItems: 1, items: { anyOf: [{ type: "null" }] } },
};

describe("actor budgets: a count above the limit is reported, a count at the limit is not", () => {
  for (const [name, schema] of Object.entries(limitCases)) {
    it(`${name}`, () => {
      const at = (max: number) => ({ ...base, limits: { [name]: { max, source: "s" } } });
      expect(issues(at(2), schema)).toHaveLength(1);
      expect(issues(at(3), schema)).toEqual([]);
    });
  }
});

describe("keyword cells", () => {
  it("L cells: max, values, types, without, notAtRoot, each against its control", () => {
    const cell = (extra: Record<string, unknown>) =>
      ({ ...base, keywords: { maxLength: { cell: "L", source: "s", otherwise: "R", ...extra } } }) as ActorProfile;
    expect(issues(cell({ max: 4 }), str)).toEqual(["R /s/maxLength"]);
    expect(issues(cell({ max: 5 }), str)).toEqual([]);
    expect(issues(cell({ values: [0, 1] }), str)).toEqual(["R /s/maxLength"]);
    expect(issues(cell({ values: [5] }), str)).toEqual([]);
    expect(issues(cell({ types: ["integer"] }), str)).toEqual(["R /s/maxLength"]);
    expect(issues(cell({ types: ["string"] }), str)).toEqual([]);
    expect(issues(cell({ without: ["pattern"] }), { ...str, pattern: "^a$" })).toContain("R /s/maxLength");
    expect(issues(cell({ without: ["pattern"] }), str)).toEqual([]);
    expect(issues(cell({ notAtRoot: true }), str)).toEqual(["R /s/maxLength"]);
    expect(issues(cell({ notAtRoot: true }), { type: "array", maxItems: 1, items: str })).toEqual([]);
  });

  it("an ignored annotation is not an issue; a refused one is", () => {
    const ignoring = {
      ...base,
      unlisted: { cell: "I" as const, source: "s" },
      keywords: { type: { cell: "S" as const, source: "s" } },
    };
    expect(issues(ignoring, { type: "null", description: "d" })).toEqual([]);
    const refusing = { ...base, keywords: { default: { cell: "R" as const, source: "s" } } };
    expect(issues(refusing, { type: "null", default: null })).toEqual(["R /s/default"]);
  });

  it("an ignored identifier is an issue, as the client's projection warns (its keyword's identifier flag)", () => {
    const ignoring = {
      ...base,
      unlisted: { cell: "I" as const, source: "s" },
      keywords: { type: { cell: "S" as const, source: "s" }, $ref: { cell: "S" as const, source: "s" } },
    };
    const schema = {
      $id: "https://forms.invalid/a.json",
      $defs: { a: { $anchor: "a", type: "null", description: "d" } },
      $ref: "#a",
    };
    expect(issues(ignoring, schema)).toEqual(["I /s/$id", "I /s/$defs/a/$anchor"]);
    const reasons = judge(ignoring, schemaNodes(schema), new FormDocument(schema)).map((issue) => issue.reason);
    expect(reasons).toEqual([
      "ignores $id, so a $ref through it may not resolve",
      "ignores $anchor, so a $ref through it may not resolve",
    ]);
    const enforcing = { ...ignoring, keywords: { ...ignoring.keywords, $id: { cell: "S" as const, source: "s" } } };
    expect(issues(enforcing, schema)).toEqual(["I /s/$defs/a/$anchor"]);
  });
});
