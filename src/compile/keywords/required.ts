/**
 * `required`: each name is an own property (presence never counts inherited names).
 *
 * @module
 */
import type { Keyword } from "../keyword.ts";
import { expectNames } from "../keyword-values.ts";
import { js } from "../safe-format.ts";
import { present } from "./presence.ts";

export const required: Keyword = {
  name: "required",
  instance: "object",
  check: expectNames,
  emit({ value, at, data, body, compiler }) {
    for (const name of value as string[]) body.line(js`if (!(${present(compiler, data, name)})) ${compiler.fail(at)}`);
  },
};
