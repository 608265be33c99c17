/**
 * The node-llama-cpp and llama.cpp profiles against the real converter and grammar parser:
 * node-llama-cpp 3.21.1's `createGrammarForJsonSchema` (its own JSON Schema → GBNF converter,
 * then the bundled llama.cpp grammar parser), run without a model. For each probe the profile's
 * verdict (through the linter's own judge) must match what the converter does: R throws, I
 * gives the same grammar as without the keyword, S a different one, X the degenerate grammar.
 *
 * The converter and parser run in a child process (llama-grammar-child.ts), all probes in one
 * run: the grammar parser reports each refusal on the process's stderr from native code, and the
 * test asserts that report rather than letting it into the test output.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FormDocument } from "../../../src/compile/document.ts";
import { getProfile } from "../../../src/lint/actors/index.ts";
import { judge } from "../../../src/lint/actors/judge.ts";
import { schemaNodes } from "../../../src/lint/schema-nodes.ts";

/** What the child answered for each job, by the job's JSON text; and what it wrote on stderr. */
const answers = new Map<string, string>();
let childStderr = "";

/** Runs every job in one child process (see llama-grammar-child.ts) and records the answers. */
function runChild(jobs: readonly object[]): void {
  const child = spawnSync(process.execPath, [join(import.meta.dirname, "llama-grammar-child.ts")], {
    input: JSON.stringify(jobs),
    encoding: "utf8",
    timeout: 60_000,
  });
  if (child.status !== 0) throw new Error(`llama-grammar-child.ts exited ${child.status}: ${child.stderr}`);
  const results = JSON.parse(child.stdout) as string[];
  for (const [i, job] of jobs.entries()) answers.set(JSON.stringify(job), results[i]!);
  childStderr = child.stderr;
}

/** The grammar the converter produced for `schema`, or "R" when it refused the schema. */
function grammarOf(schema: unknown): string {
  const answer = answers.get(JSON.stringify({ schema }));
  if (answer === undefined) throw new Error(`no child answer for ${JSON.stringify(schema)}`);
  return answer;
}

/** Whether the bundled grammar parser accepted the GBNF `grammar`. */
function parses(grammar: string): boolean {
  const answer = answers.get(JSON.stringify({ gbnf: grammar }));
  if (answer === undefined) throw new Error(`no child answer for ${grammar}`);
  return answer !== "R";
}

interface Probe {
  readonly pointer: string;
  readonly with: unknown;
  readonly without: unknown;
  /** The grammar the converter emits when it mishandles the node (X). */
  readonly degenerate?: RegExp;
}

const bool = { type: "boolean" };
const probes: Record<string, Probe> = {
  pattern: { pointer: "/s/pattern", with: { type: "string", pattern: "^[a-z]{1,9}$" }, without: { type: "string" } },
  minLength: { pointer: "/s/minLength", with: { type: "string", minLength: 2 }, without: { type: "string" } },
  maxLength: { pointer: "/s/maxLength", with: { type: "string", maxLength: 5 }, without: { type: "string" } },
  "maxLength 999": { pointer: "/s/maxLength", with: { type: "string", maxLength: 999 }, without: { type: "string" } },
  "maxLength 1000": { pointer: "/s/maxLength", with: { type: "string", maxLength: 1000 }, without: { type: "string" } },
  "maxLength 1999": { pointer: "/s/maxLength", with: { type: "string", maxLength: 1999 }, without: { type: "string" } },
  minimum: { pointer: "/s/minimum", with: { type: "integer", minimum: 3 }, without: { type: "integer" } },
  maximum: { pointer: "/s/maximum", with: { type: "integer", maximum: 3 }, without: { type: "integer" } },
  exclusiveMinimum: {
    pointer: "/s/exclusiveMinimum",
    with: { type: "number", exclusiveMinimum: 0 },
    without: { type: "number" },
  },
  multipleOf: { pointer: "/s/multipleOf", with: { type: "integer", multipleOf: 5 }, without: { type: "integer" } },
  minItems: {
    pointer: "/s/minItems",
    with: { type: "array", items: bool, minItems: 1 },
    without: { type: "array", items: bool },
  },
  maxItems: {
    pointer: "/s/maxItems",
    with: { type: "array", items: bool, maxItems: 3 },
    without: { type: "array", items: bool },
  },
  "maxItems 1000": {
    pointer: "/s/maxItems",
    with: { type: "array", items: bool, maxItems: 1000 },
    without: { type: "array", items: bool },
  },
  "maxItems 1001": {
    pointer: "/s/maxItems",
    with: { type: "array", items: bool, maxItems: 1001 },
    without: { type: "array", items: bool },
  },
  uniqueItems: {
    pointer: "/s/uniqueItems",
    with: { type: "array", items: bool, maxItems: 2, uniqueItems: true },
    without: { type: "array", items: bool, maxItems: 2 },
  },
  required: {
    pointer: "/s/required",
    with: { type: "object", properties: { a: bool, b: bool }, required: ["a"] },
    without: { type: "object", properties: { a: bool, b: bool } },
  },
  enum: { pointer: "/s/enum", with: { type: "string", enum: ["x", "y"] }, without: { type: "string" } },
  "format date": { pointer: "/s/format", with: { type: "string", format: "date" }, without: { type: "string" } },
  "format email": {
    pointer: "/s/format",
    with: { type: "string", format: "email" },
    without: { type: "string" },
    degenerate: /^root ::= string-0-0-rule .*\nstring-0-0-rule ::= "\\"\\""$/,
  },
  not: { pointer: "/s/not", with: { type: "integer", not: { const: 3 } }, without: { type: "integer" } },
  propertyNames: {
    pointer: "/s/propertyNames",
    with: { type: "object", additionalProperties: bool, propertyNames: { maxLength: 3 } },
    without: { type: "object", additionalProperties: bool },
  },
  oneOf: { pointer: "/s/oneOf", with: { oneOf: [bool, { type: "null" }] }, without: { type: "null" } },
  anyOf: {
    pointer: "/s/anyOf",
    with: { anyOf: [bool, { type: "string", maxLength: 3 }] },
    without: bool,
    degenerate: /^root ::= null-rule [^\n]*\nnull-rule ::= "null"$/,
  },
  'type ["object", "null"]': {
    pointer: "/s",
    with: { type: ["object", "null"], properties: { a: bool } },
    without: { type: "object", properties: { a: bool } },
    degenerate: /^root ::= null-rule [^\n]*\nnull-rule ::= "null"$/,
  },
};

const repetitionBound = getProfile("llama-cpp").limits?.repetition?.max ?? Number.NaN;
const repetition = (bound: number) => `root ::= "a"{0,${bound}}`;

beforeAll(() => {
  runChild([
    ...Object.values(probes).flatMap((probe) => [{ schema: probe.with }, { schema: probe.without }]),
    { gbnf: repetition(repetitionBound) },
    { gbnf: repetition(repetitionBound + 1) },
  ]);
});

/** What the profile says happens at the probe's pointer: the worst outcome there, or S. */
function predicted(profileId: string, schema: unknown, pointer: string): string {
  const nodes = schemaNodes(schema);
  const issues = judge(getProfile(profileId), nodes, new FormDocument(schema)).filter(
    (issue) => issue.pointer === pointer,
  );
  for (const outcome of ["R", "X", "I"]) if (issues.some((issue) => issue.outcome === outcome)) return outcome;
  return "S";
}

describe("the node-llama-cpp profile matches node-llama-cpp 3.21.1's converter (run here, no model)", () => {
  for (const [name, probe] of Object.entries(probes)) {
    it(`${name}: the profile's verdict is what the converter does`, () => {
      const expected = predicted("node-llama-cpp", probe.with, probe.pointer);
      const grammar = grammarOf(probe.with);
      let measured: string;
      if (grammar === "R") measured = "R";
      else if (probe.degenerate?.test(grammar.trim())) measured = "X";
      else measured = grammar === grammarOf(probe.without) ? "I" : "S";
      expect({ grammar: grammar.slice(0, 200), measured }).toEqual({
        grammar: grammar.slice(0, 200),
        measured: expected,
      });
    });
  }
});

describe("the llama.cpp profile's repetition limit matches the bundled llama.cpp grammar parser", () => {
  it("a {0,N} repetition parses at the profile's bound and is refused one above it", () => {
    const bound = repetitionBound;
    expect(bound).toBe(1999);
    expect(parses(repetition(bound))).toBe(true);
    expect(parses(repetition(bound + 1))).toBe(false);
    expect(predicted("llama-cpp", { type: "string", maxLength: bound }, "/s/maxLength")).toBe("S");
    expect(predicted("llama-cpp", { type: "string", maxLength: bound + 1 }, "/s/maxLength")).toBe("R");
  });
});

describe("the child's refusals are the grammar parser's", () => {
  it("each refused grammar has the parser's own report on stderr, and nothing else is reported", () => {
    const refused = [...answers.values()].filter((answer) => answer === "R").length;
    expect(refused).toBeGreaterThan(0);
    expect(childStderr.match(/error parsing grammar/g)?.length).toBe(refused);
  });
});
