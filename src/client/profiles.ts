/**
 * The actor profiles the client projects forms with, one per SDK actor: which keyword each
 * constrained decoder enforces (S), ignores (I), refuses (R), limits (L) or mishandles (X).
 *
 * Data only, read from `shared/ACTORS.md` (§1 OpenAI, §2 Anthropic, §3 Gemini, §4 llama.cpp
 * and Ollama, §6 node-llama-cpp, and its 2026-12 addendum). When the form linter's profile
 * files land, they replace this table (same cells); nothing else changes.
 *
 * @module
 */
import type { ActorProfile, Cell, Limited } from "./projection.ts";

const cells = (cell: Cell, names: readonly string[]): Record<string, Cell> =>
  Object.fromEntries(names.map((name) => [name, cell]));

/** llama.cpp's grammar refuses a repetition bound of 2000 or more (`MAX_REPETITION_THRESHOLD`). */
const repetitions = (max: number): Record<string, Limited> =>
  Object.fromEntries(["minLength", "maxLength", "minItems", "maxItems"].map((k) => [k, { max, otherwise: "R" }]));

/** Annotations hosted strict decoders refuse or that only cost tokens: dropped from the wire form (ACTORS.md §9.2). */
const WIRE_ANNOTATIONS = ["$schema", "$id", "$comment", "examples", "deprecated", "readOnly", "writeOnly"];

/** OpenAI Structured Outputs, `strict: true` (a closed allow-list; anything else is a 400). */
export const openai: ActorProfile = {
  actor: "openai",
  source: "ACTORS.md §1 and addendum (OpenAI guide 'Supported schemas', 2025-05; SDK normaliser, 2026-10)",
  unlisted: "R",
  keywords: {
    ...cells("S", ["type", "properties", "required", "additionalProperties", "items", "anyOf", "$ref", "$defs"]),
    ...cells("S", ["enum", "const", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]),
    ...cells("S", ["multipleOf", "minItems", "maxItems", "minLength", "maxLength", "description", "title"]),
    format: "L",
    ...cells("R", ["default", ...WIRE_ANNOTATIONS]),
  },
  formats: ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"],
  requires: { closedObjects: true, objectRoot: true, typeEverywhere: true },
  rewrites: { oneOf: "anyOf", optionalProperties: "anyOf", maxOptional: 4 },
};

/** Anthropic structured outputs (`output_config.format`) and strict tool use (closed allow-list). */
export const anthropic: ActorProfile = {
  actor: "anthropic",
  source: "ACTORS.md §2 and addendum (platform.claude.com structured-outputs, 'JSON Schema limitations', 2026)",
  unlisted: "R",
  keywords: {
    ...cells("S", ["type", "properties", "required", "additionalProperties", "items", "enum", "const"]),
    ...cells("S", ["anyOf", "allOf", "$ref", "$defs", "description", "title", "default", "pattern"]),
    format: "L",
    minItems: "L",
    ...cells("R", WIRE_ANNOTATIONS),
  },
  formats: ["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"],
  limited: { minItems: { values: [0, 1], otherwise: "R" } },
  requires: { closedObjects: true },
  rewrites: { oneOf: "anyOf" },
};

/** Gemini `responseJsonSchema`: unsupported keywords are accepted and ignored. */
export const google: ActorProfile = {
  actor: "google",
  source: "ACTORS.md §3 and addendum (ai.google.dev structured-output guide, 2026)",
  unlisted: "I",
  keywords: {
    ...cells("S", ["type", "properties", "required", "additionalProperties", "items", "prefixItems", "minItems"]),
    ...cells("S", ["enum", "anyOf", "oneOf", "$ref", "$defs", "minimum", "maximum", "title", "description"]),
    maxItems: "L",
    format: "L",
    ...cells("R", ["$schema", "$id", "$comment"]),
  },
  formats: ["date-time", "date", "time"],
  rewrites: { const: "enum" },
};

/** Ollama `format`: llama.cpp's `json_schema_to_grammar` (unsupported features skipped silently). */
export const ollama: ActorProfile = {
  actor: "ollama",
  source: "ACTORS.md §4 (llama.cpp common/json-schema-to-grammar.cpp, grammars/README.md; Ollama v0.24)",
  unlisted: "I",
  keywords: {
    ...cells("S", ["type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf"]),
    ...cells("S", ["oneOf", "$ref", "$defs", "pattern"]),
    ...cells("L", ["minItems", "maxItems", "minLength", "maxLength", "format", "minimum", "maximum"]),
    ...cells("L", ["exclusiveMinimum", "exclusiveMaximum", "allOf", "prefixItems"]),
  },
  formats: ["date", "time", "date-time", "uuid"],
  limited: {
    ...repetitions(1999),
    ...Object.fromEntries(
      ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].map((k) => [
        k,
        { types: ["integer"], otherwise: "I" },
      ]),
    ),
  },
  anchoredPatterns: true,
};

/** node-llama-cpp's own JSON Schema → GBNF converter (`createGrammarForJsonSchema`). */
export const nodeLlamaCpp: ActorProfile = {
  actor: "node-llama-cpp",
  source: "ACTORS.md §6 and addendum (withcatai/node-llama-cpp src/utils/gbnfJson, f53ea51, 2026-06-29)",
  unlisted: "I",
  keywords: {
    ...cells("S", ["type", "properties", "additionalProperties", "items", "prefixItems", "enum", "const", "oneOf"]),
    ...cells("S", ["$ref", "$defs"]),
    ...cells("L", ["minItems", "maxItems", "minLength", "maxLength", "required"]),
    format: "L",
    ...cells("X", ["anyOf", "allOf"]),
  },
  formats: ["date-time", "time", "date"],
  limited: repetitions(1999),
  rewrites: { anyOf: "oneOf", integerRange: 64, optionalProperties: "oneOf", maxOptional: 4 },
};

/** Every built-in profile, by actor name. */
export const profiles = {
  openai,
  anthropic,
  google,
  ollama,
  "node-llama-cpp": nodeLlamaCpp,
} as const satisfies Readonly<Record<string, ActorProfile>>;

/** An actor with a built-in profile. */
export type ProfiledActor = keyof typeof profiles;
