/**
 * The actor profiles shipped with the package (data, never fetched at run time). Adding an
 * actor: one JSON file in this folder, plus one import and one entry here.
 *
 * @module
 */

import schema from "./actor-profile.schema.json" with { type: "json" };
import anthropicStrict from "./anthropic-strict.json" with { type: "json" };
import geminiJsonSchema from "./gemini-json-schema.json" with { type: "json" };
import llamaCpp from "./llama-cpp.json" with { type: "json" };
import mcpClient from "./mcp-client.json" with { type: "json" };
import nodeLlamaCpp from "./node-llama-cpp.json" with { type: "json" };
import ollama from "./ollama.json" with { type: "json" };
import openaiStrict from "./openai-strict.json" with { type: "json" };
import outlines from "./outlines.json" with { type: "json" };
import type { ActorProfile } from "./profile.ts";

/** The JSON Schema every profile file is valid against (shipped, so a profile of your own can be checked). */
export const actorProfileSchema: unknown = schema;

import sglang from "./sglang.json" with { type: "json" };
import vllmLlguidance from "./vllm-llguidance.json" with { type: "json" };
import vllmXgrammar from "./vllm-xgrammar.json" with { type: "json" };
import webmcp from "./webmcp.json" with { type: "json" };

/** Every actor profile, in the order the actor table lists them. */
export const profiles: ReadonlyArray<ActorProfile> = [
  openaiStrict,
  anthropicStrict,
  geminiJsonSchema,
  llamaCpp,
  ollama,
  vllmXgrammar,
  vllmLlguidance,
  sglang,
  outlines,
  nodeLlamaCpp,
  mcpClient,
  webmcp,
] as ReadonlyArray<ActorProfile>;

/** The profile with id `id`, with what it `extends` merged in. */
export function getProfile(id: string): ActorProfile {
  const profile = profiles.find((candidate) => candidate.id === id);
  if (profile === undefined) throw new Error(`no actor profile ${JSON.stringify(id)}`);
  return resolveProfile(profile);
}

/** `profile` with the profile it extends merged under it (its own cells, requirements and limits win). */
export function resolveProfile(profile: ActorProfile): ActorProfile {
  if (profile.extends === undefined) return profile;
  const base = getProfile(profile.extends);
  const own = new Set((profile.requires ?? []).map((requirement) => requirement.check));
  return {
    ...base,
    ...profile,
    sources: { ...base.sources, ...profile.sources },
    keywords: { ...base.keywords, ...profile.keywords },
    requires: [
      ...(base.requires ?? []).filter((requirement) => !own.has(requirement.check)),
      ...(profile.requires ?? []),
    ],
    limits: { ...base.limits, ...profile.limits },
    ...((profile.unlisted ?? base.unlisted) ? { unlisted: profile.unlisted ?? base.unlisted } : {}),
    ...((profile.formats ?? base.formats) ? { formats: profile.formats ?? base.formats } : {}),
  };
}
