/**
 * `use-portable-bounds`: no length or size bound exceeds the smallest repetition budget of the
 * actor profiles (`limits.repetition`: 1,999 for llama.cpp and Ollama, whose grammars refuse a
 * repetition of 2,000 or more). The budget is read from the profiles, not written here.
 *
 * @module
 */
import { childPointer } from "../../compile/pointer.ts";
import { profiles, resolveProfile } from "../actors/index.ts";
import { defineRule } from "../rule.ts";

const bounded = ["maxLength", "minLength", "maxItems", "minItems"];

/** The smallest `limits.repetition` of the profiles, and the actors that have it. */
function budget(): { max: number; actors: string } {
  const limited = profiles
    .map(resolveProfile)
    .flatMap((profile) => (profile.limits?.repetition ? [{ id: profile.id, max: profile.limits.repetition.max }] : []));
  const max = Math.min(...limited.map((entry) => entry.max));
  return {
    max,
    actors: limited
      .filter((entry) => entry.max === max)
      .map((entry) => entry.id)
      .join(", "),
  };
}

export const usePortableBounds = defineRule({
  meta: {
    id: "use-portable-bounds",
    severity: "warning",
    requirement: "S2",
    section: 'draft "The Form Is the Attack Surface"; DESIGN.md §5 (bounds an actor keeps)',
    description: "Length and size bounds stay within what every grammar-based actor accepts.",
    messages: {
      large: "{keyword} {value} exceeds {max}: {actors} refuse the grammar (see gpt-address lint --actors)",
    },
    docs: {
      invalid: [
        { schema: { type: "string", maxLength: 50000 }, pointer: "/s/maxLength" },
        { schema: { type: "array", maxItems: 2000, items: { type: "boolean" } }, pointer: "/s/maxItems" },
      ],
      valid: [{ schema: { type: "string", maxLength: 1999 } }],
    },
  },
  check(context) {
    const { max, actors } = budget();
    for (const { schema, pointer } of context.nodes) {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) continue;
      for (const keyword of bounded) {
        const value = (schema as Record<string, unknown>)[keyword];
        if (typeof value === "number" && value > max)
          context.report({
            messageId: "large",
            pointer: childPointer(pointer, keyword),
            data: { keyword, value, max, actors },
          });
      }
    }
  },
});
