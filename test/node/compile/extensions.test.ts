/**
 * V4 extension keywords: `x-…` and the editors' annotations are accepted as annotations (the
 * validator is the same with or without them), everything else unknown is still refused, and
 * editor keywords that change what is accepted are refused with their reason.
 */
import { describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { FormError } from "../../../src/compile/form-error.ts";

const plain = {
  type: "object",
  additionalProperties: false,
  properties: { name: { type: "string", maxLength: 9 }, kind: { enum: ["a", "b"] } },
};

const annotated = {
  ...plain,
  "x-order": ["name", "kind"],
  "x-internal": { $ref: "#/nowhere", $id: "https://example.com/x" },
  properties: {
    name: {
      type: "string",
      maxLength: 9,
      markdownDescription: "A *name*.",
      deprecationMessage: "Use kind.",
      errorMessage: { maxLength: "Too long." },
      patternErrorMessage: "Letters only.",
      doNotSuggest: true,
      defaultSnippets: [{ label: "a name", body: "$1" }],
      suggestSortText: "1",
    },
    kind: {
      enum: ["a", "b"],
      enumDescriptions: ["A", "B"],
      markdownEnumDescriptions: ["*A*", "*B*"],
      enumItemLabels: ["a", "b"],
      errorMessage: "Pick one.",
    },
  },
};

function refusal(schema: unknown): FormError {
  try {
    compileForm(schema);
  } catch (error) {
    if (error instanceof FormError) return error;
    throw error;
  }
  throw new Error("compiled without error");
}

describe("V4 extension keywords are annotations", () => {
  it("compiles a form with x- keywords and editors' annotations to the very module of the form without them", () => {
    expect(compileForm(annotated)).toBe(compileForm(plain));
  });

  it("still refuses any other unknown keyword, and the editor keywords that change what is accepted", () => {
    for (const name of ["X-order", "xorder", "tsType", "$x-order"])
      expect(refusal({ [name]: 1 }).code).toBe("unknown-keyword");
    for (const name of ["allowComments", "allowTrailingCommas", "nullable"]) {
      const error = refusal({ type: "object", [name]: true });
      expect(error.code).toBe("refused-keyword");
      expect(error.pointer).toBe(`/${name}`);
    }
  });

  it("checks the value of an editors' annotation; an x- value is any JSON value, never a schema", () => {
    expect(refusal({ markdownDescription: 5 })).toMatchObject({
      code: "invalid-keyword-value",
      pointer: "/markdownDescription",
    });
    expect(refusal({ enumDescriptions: [1] })).toMatchObject({
      code: "invalid-keyword-value",
      pointer: "/enumDescriptions",
    });
    expect(refusal({ doNotSuggest: "yes" }).code).toBe("invalid-keyword-value");
    // A $ref into an extension's value points at no schema.
    expect(refusal({ "x-defs": { a: { type: "string" } }, $ref: "#/x-defs/a" }).code).toBe("unresolvable-ref");
  });
});
