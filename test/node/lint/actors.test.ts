import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { actorProfileSchema, getProfile, profiles } from "../../../src/lint/actors/index.ts";
import type { ActorProfile } from "../../../src/lint/actors/profile.ts";

const folder = join(import.meta.dirname, "../../../src/lint/actors");
const schema = JSON.parse(readFileSync(join(folder, "actor-profile.schema.json"), "utf8"));
const files = readdirSync(folder).filter((file) => file.endsWith(".json") && file !== "actor-profile.schema.json");
const validator = new Validator(schema, "2020-12", false);

it("the schema is shipped with the package (the same file)", () => {
  expect(actorProfileSchema).toEqual(schema);
});

/** Every `source` key a profile's cells, requirements and limits cite. */
function citedSources(profile: ActorProfile): string[] {
  const cells = [
    ...Object.values(profile.keywords ?? {}),
    ...(profile.unlisted ? [profile.unlisted] : []),
    ...(profile.formats ? [profile.formats] : []),
  ];
  return [
    ...cells.map((cell) => cell.source),
    ...(profile.requires ?? []).map((requirement) => requirement.source),
    ...Object.values(profile.limits ?? {}).map((limit) => limit.source),
  ];
}

describe("actor profiles: one JSON file per actor, validated by the schema in the repository", () => {
  it("has at least the ten actors of issue 12, every file in the table, ids equal to file names", () => {
    expect(profiles.length).toBeGreaterThanOrEqual(10);
    expect(profiles.map((profile) => `${profile.id}.json`).sort()).toEqual([...files].sort());
    for (const id of [
      "openai-strict",
      "anthropic-strict",
      "gemini-json-schema",
      "llama-cpp",
      "ollama",
      "vllm-xgrammar",
      "vllm-llguidance",
      "sglang",
      "outlines",
      "node-llama-cpp",
      "mcp-client",
      "webmcp",
    ])
      expect(
        profiles.some((profile) => profile.id === id),
        id,
      ).toBe(true);
  });

  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(folder, file), "utf8")) as ActorProfile;
    it(`${file} is valid against actor-profile.schema.json and cites only sources it lists`, () => {
      const result = validator.validate(profile);
      expect(result.errors.map((error) => `${error.instanceLocation}: ${error.error}`)).toEqual([]);
      expect(result.valid).toBe(true);
      expect(basename(file, ".json")).toBe(profile.id);
      const resolved = getProfile(profile.id);
      for (const source of citedSources(resolved)) expect(Object.keys(resolved.sources), source).toContain(source);
      for (const source of Object.values(profile.sources)) expect(source.version.length).toBeGreaterThan(0);
    });
  }

  it("the schema rejects a profile with a misspelt cell field and accepts the control", () => {
    const control = {
      id: "x",
      name: "x",
      surface: "x",
      read: "2026-10",
      sources: { s: { url: "https://example.org/", version: "1", evidence: "doc" } },
      unlisted: { cell: "I", source: "s" },
    };
    expect(validator.validate(control).valid).toBe(true);
    expect(validator.validate({ ...control, unlisted: { cell: "I", source: "s", maks: 3 } }).valid).toBe(false);
    expect(validator.validate({ ...control, unlisted: { cell: "L", source: "s" } }).valid).toBe(false); // L needs otherwise
    expect(validator.validate({ ...control, read: "2026-13" }).valid).toBe(false);
  });

  it("ollama extends llama-cpp: its cells and the repetition limit come from there, its own requirement wins", () => {
    const ollama = getProfile("ollama");
    expect(ollama.keywords?.maxLength?.cell).toBe("L");
    expect(ollama.limits?.repetition?.max).toBe(1999);
    const anchored = ollama.requires?.filter((requirement) => requirement.check === "anchored-patterns");
    expect(anchored?.map((requirement) => requirement.source)).toEqual(["server"]);
  });
});
