/**
 * `patternProperties`: each own member whose name matches a regex (unanchored, `u` flag)
 * satisfies that regex's schema. Emitted by the shared member loop.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchemaMap, map } from "../keyword-values.ts";
import { childPointer } from "../pointer.ts";
import { emitMemberLoop } from "./member-loop.ts";
import { checkRegex } from "./pattern.ts";

export const patternProperties: Keyword = {
  name: "patternProperties",
  instance: "object",
  widening: "a validator that skips patternProperties accepts any value for the matching members",
  check(value, at) {
    expectSchemaMap(value, at);
    for (const source of Object.keys(value as object))
      checkRegex(source, childPointer(at, source), "patternProperties");
  },
  subschemas: map,
  applies: "child",
  emit: (context) => emitMemberLoop("patternProperties", context),
};
