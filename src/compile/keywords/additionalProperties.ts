/**
 * `additionalProperties`: each own member named neither in `properties` nor matched by
 * `patternProperties` satisfies the schema (`false`: there is none). Emitted by the shared
 * member loop.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchema, one } from "../keyword-values.ts";
import { emitMemberLoop } from "./member-loop.ts";

export const additionalProperties: Keyword = {
  name: "additionalProperties",
  instance: "object",
  check: expectSchema,
  subschemas: one,
  applies: "child",
  emit: (context) => emitMemberLoop("additionalProperties", context),
};
