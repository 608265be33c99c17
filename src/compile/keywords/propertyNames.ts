/**
 * `propertyNames`: every own member name, as a string instance, satisfies the schema.
 * Emitted by the shared member loop.
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectSchema, one } from "../keyword-values.ts";
import { emitMemberLoop } from "./member-loop.ts";

export const propertyNames: Keyword = {
  name: "propertyNames",
  instance: "object",
  // Every member name is a string instance valid against the subschema.
  stringLength: ({ stringOf }) => stringOf("propertyNames"),
  // Each name's JSON text: the quotes and at most 6 bytes a code unit (`\u00E9`).
  bytes: ({ stringOf }) => 2 + 6 * stringOf("propertyNames"),
  widening: "a validator that skips propertyNames accepts any member name",
  check: expectSchema,
  subschemas: one,
  applies: "child",
  emit: (context) => emitMemberLoop("propertyNames", context),
};
