/**
 * `$schema`: only the 2020-12 dialect is accepted.
 *
 * @module
 */
import { FormError } from "../form-error.ts";
import type { Keyword } from "../keyword.ts";
import { expectString } from "../keyword-values.ts";

const dialect = /^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

export const $schema: Keyword = {
  name: "$schema",
  instance: "any",
  inert: true,
  check(value, at) {
    expectString(value, at);
    if (!dialect.test(value as string)) {
      throw new FormError(
        "unsupported-dialect",
        at,
        "$schema",
        `only https://json-schema.org/draft/2020-12/schema is accepted, not ${JSON.stringify(value)}`,
      );
    }
  },
};
