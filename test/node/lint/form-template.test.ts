/**
 * The recommended form (`templates/address/form.json`, for the README example and the `new`/`init`
 * scaffold) lints clean and every actor that can take such a form at all accepts it; where the
 * form's advice (S2) and an actor disagree, the finding says which way to go, from the actor's
 * profile (issue 30 item 9).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LintedFile } from "../../../src/cli/lint.ts";
import { runCli } from "../cli/run-cli.ts";

const root = join(import.meta.dirname, "../../..");
const template = "templates/address/form.json";

async function lintActors(file: string, cwd = root): Promise<LintedFile> {
  const run = await runCli(["lint", "--actors", "--format", "json", file], cwd);
  expect(run.code).toBe(0);
  const [result] = JSON.parse(run.stdout) as LintedFile[];
  if (result === undefined) throw new Error("no result");
  return result;
}

const verdictOf = (result: LintedFile, actor: string) => result.actors?.find((row) => row.actor === actor)?.verdict;

describe("S2 the recommended form, templates/address/form.json", () => {
  it("S2 lints with no finding of its own: closed, bounded, p says how to act, its example validates", async () => {
    const result = await lintActors(template);
    expect(result.findings.filter((finding) => finding.actor === undefined)).toEqual([]);
    expect(result.findings.filter((finding) => finding.severity === "error")).toEqual([]);
  });

  it("S2 is accepted by OpenAI strict, llama.cpp, Ollama, vLLM (xgrammar, llguidance) and SGLang", async () => {
    const result = await lintActors(template);
    for (const actor of ["openai-strict", "llama-cpp", "ollama", "vllm-xgrammar", "vllm-llguidance", "sglang"])
      expect(verdictOf(result, actor), actor).toBe("accepted");
  });

  it("S2 Anthropic strict refuses only its maxLength, and the finding says to keep it, the alternative and the cost", async () => {
    const result = await lintActors(template);
    const anthropic = result.findings.filter((finding) => finding.actor === "anthropic-strict");
    expect(anthropic.map((finding) => `${finding.rule} ${finding.pointer}`)).toEqual([
      "no-actor-rejection /s/properties/text/maxLength",
    ]);
    const hint = anthropic[0]?.hint ?? "";
    expect(hint).toMatch(/^Keep maxLength/);
    expect(hint).toContain("pattern"); // the alternative
    expect(hint).toContain("204"); // the cost
  });

  it("S2 Gemini only ignores maxLength, and the finding says to state the bound in the description", async () => {
    const result = await lintActors(template);
    expect(verdictOf(result, "gemini-json-schema")).toBe("accepted, keywords ignored");
    const gemini = result.findings.filter((finding) => finding.actor === "gemini-json-schema");
    expect(gemini.map((finding) => `${finding.rule} ${finding.pointer}`)).toEqual([
      "no-actor-ignored-keyword /s/properties/text/maxLength",
    ]);
    expect(gemini[0]?.hint).toContain("description");
  });

  it("S2 every actor finding on it carries a hint, and the text table prints them under their row", async () => {
    const result = await lintActors(template);
    expect(result.findings.filter((finding) => finding.actor !== undefined && finding.hint === undefined)).toEqual([]);
    const text = await runCli(["lint", "--actors", template], root);
    expect(text.stdout).toMatch(
      /anthropic-strict\s+rejected\s+\/s\/properties\/text\/maxLength[^\n]*\n\s+hint: Keep maxLength/,
    );
  });
});

describe("S2 a form that follows the advice: every actor finding says which way to go", () => {
  let folder = "";
  const s = {
    type: "object",
    additionalProperties: false,
    required: ["name", "code", "word", "tags", "age", "score", "choice", "above"],
    properties: {
      name: { type: "string", minLength: 1, maxLength: 80 },
      code: { type: "string", pattern: "^[A-Z]{2,8}$" },
      word: { type: "string", maxLength: 20, pattern: "^[a-z]{1,20}$" },
      tags: { type: "array", minItems: 2, maxItems: 5, items: { enum: ["a", "b", "c"] } },
      age: { type: "integer", minimum: 0, maximum: 150 },
      score: { type: "number", minimum: 0, maximum: 1 },
      choice: { anyOf: [{ type: "boolean" }, { type: "null" }] },
      above: { type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 10 },
      note: { type: "string", maxLength: 300 },
    },
  };
  const p = "To act, send one HTTP POST to this address whose body is one JSON value valid against s.";

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "gpt-address-advised-"));
    await writeFile(join(folder, "advised.json"), JSON.stringify({ p, m: [], s }));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("S2 length, item and number bounds, one pattern, anyOf and an optional property: each finding has a hint", async () => {
    const result = await lintActors("advised.json", folder);
    expect(result.findings.filter((finding) => finding.severity === "error")).toEqual([]);
    const actorFindings = result.findings.filter((finding) => finding.actor !== undefined);
    // The trade-offs the form makes on purpose: each actor that disagrees is among the findings.
    for (const [actor, pointer] of [
      ["anthropic-strict", "/s/properties/name/maxLength"],
      ["anthropic-strict", "/s/properties/tags/minItems"],
      ["openai-strict", "/s"],
      ["vllm-xgrammar", "/s/properties/word"],
      ["sglang", "/s/properties/word"],
      ["node-llama-cpp", "/s/properties/choice/anyOf"],
      ["gemini-json-schema", "/s/properties/above/exclusiveMinimum"],
    ])
      expect(actorFindings.some((finding) => finding.actor === actor && finding.pointer === pointer)).toBe(true);
    const unhinted = actorFindings
      .filter((finding) => finding.hint === undefined)
      .map((finding) => `${finding.actor} ${finding.pointer}`);
    expect(unhinted).toEqual([]);
  });

  it("S2 a bound above a budget (llama.cpp's 1,999): the finding names the bound every grammar actor takes", async () => {
    const essay = { type: "string", maxLength: 5000 };
    const big = { type: "object", additionalProperties: false, required: ["essay"], properties: { essay } };
    await writeFile(join(folder, "big.json"), JSON.stringify({ p, m: [], s: big }));
    const result = await lintActors("big.json", folder);
    const llama = result.findings.find((finding) => finding.actor === "llama-cpp");
    expect(llama?.pointer).toBe("/s/properties/essay/maxLength");
    expect(llama?.hint).toContain("999");
  });
});
