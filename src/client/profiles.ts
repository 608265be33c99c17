/**
 * The actor profiles the client projects forms with, one per SDK actor: the form linter's
 * profiles (`src/lint/actors/<id>.json`, dated data with a source per cell), read through
 * {@link fromLintProfile}. One place for what each decoder takes: the linter reports it, the
 * client acts on it.
 *
 * @module
 */
import { getProfile } from "../lint/actors/index.ts";
import { fromLintProfile } from "./lint-profile.ts";
import type { ActorProfile } from "./projection.ts";

/** The linter's profile id of each actor the `act` command drives. */
export const profileIds = {
  openai: "openai-strict",
  anthropic: "anthropic-strict",
  google: "gemini-json-schema",
  ollama: "ollama",
  "node-llama-cpp": "node-llama-cpp",
} as const;

/** An actor with a profile. */
export type ProfiledActor = keyof typeof profileIds;

/** Every actor's profile, by actor name. */
export const profiles: Readonly<Record<ProfiledActor, ActorProfile>> = Object.fromEntries(
  Object.entries(profileIds).map(([actor, id]) => [actor, fromLintProfile(actor, getProfile(id))]),
) as Record<ProfiledActor, ActorProfile>;
