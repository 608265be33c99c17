/**
 * Own-property presence as generated code: an inherited name (`toString`) is never present.
 *
 * @module
 */
import type { Compiler } from "../keyword.ts";
import { type Code, js, member } from "../safe-format.ts";

/** Is `name` an own property of the object `data`? */
export function present(compiler: Compiler, data: Code, name: string): Code {
  // A JSON member's value is never `undefined`, so the cheap read rules most absences out first;
  // whether what was read is the object's own is `Compiler.own` (no call on parsed values).
  return js`${member(data, name)} !== undefined && ${compiler.own(data, name)}`;
}
