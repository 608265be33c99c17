/**
 * `format`: asserted (not an annotation) for the formats in `formats/`; any other is refused.
 *
 * @module
 */
import { FormError } from "../form-error.ts";
import { formatNames, refusedFormats } from "../formats/index.ts";
import type { Keyword } from "../keyword.ts";
import { expectString } from "../keyword-values.ts";
import { js } from "../safe-format.ts";

export const format: Keyword = {
  name: "format",
  instance: "string",
  widening: "most actors and many validators treat format as an annotation; one that skips it accepts any string",
  check(value, at) {
    expectString(value, at);
    if (!formatNames.includes(value as string)) {
      const reason =
        refusedFormats.get(value as string) ?? `not asserted by this compiler (supported: ${formatNames.join(", ")})`;
      throw new FormError("unsupported-format", at, "format", `format ${JSON.stringify(value)} is refused: ${reason}`);
    }
  },
  emit({ value, at, data, body, compiler }) {
    body.line(js`if (!${compiler.format(value as string)}(${data})) ${compiler.fail(at)}`);
  },
};

/**
 * Formats whose asserted strings have a bounded length (`date` 10, `uuid` 36, `ipv4` 15,
 * `ipv6` 45, `hostname` 253 characters); `time` and `date-time` admit any number of
 * fraction digits, so they are not bounded. Read by the linter (S2).
 */
export const boundedFormats: ReadonlySet<string> = new Set(["date", "uuid", "ipv4", "ipv6", "hostname"]);
