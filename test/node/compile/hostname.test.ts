/**
 * The `hostname` format's A-labels with a ZERO WIDTH NON-JOINER (RFC 5892 Appendix A.1):
 * accepted after a virama, or between a letter that joins on its left (Joining_Type L or D)
 * and one that joins on its right (R or D), with only transparent marks (T) between; every
 * other ZWNJ is rejected. ZWJ (A.2) still needs a virama. Each rejected label is paired with
 * an accepted control that differs in one character. V4: the format is asserted.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { type GeneratedModule, loadModules } from "./load-modules.ts";

let hostname: GeneratedModule;
beforeAll(async () => {
  const schema = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "string", format: "hostname" };
  [hostname] = (await loadModules([compileForm(schema)])) as [GeneratedModule];
});

/** [A-label, its U-label (for the reader), why]: rejected, then its accepted control. */
const pairs: [rejected: [string, string], accepted: [string, string], why: string][] = [
  [
    ["xn--mgbc799q", "\u0627\u200c\u0628"],
    ["xn--mgbb899q", "\u0628\u200c\u0627"],
    "ALEF joins only on its right (R): after a ZWNJ, not before one",
  ],
  [
    ["xn--ggbnb526x", "\u0628\u0621\u200c\u0628"],
    ["xn--ngba7iz95i", "\u0628\u064e\u200c\u0628"],
    "HAMZA does not join (U); FATHA, a mark (T), is passed over to reach BEH (D)",
  ],
  [
    ["xn--ggbn899q", "\u0628\u200c\u0621"],
    ["xn--mgbb8i511i", "\u0628\u200c\u064e\u0627"],
    "after the ZWNJ: HAMZA (U) is not R or D; FATHA (T) then ALEF (R) is",
  ],
  [["xn--ngb073k", "\u0628\u200c"], ["xn--ngba799q", "\u0628\u200c\u0628"], "a ZWNJ at the end has nothing to join to"],
  [
    ["xn--9caa620v", "\u00e9\u200c\u00e9"],
    ["xn--ngba799q", "\u0628\u200c\u0628"],
    "Latin letters have no joining type (U)",
  ],
  [
    ["xn--ngba000r", "\u0628\u200d\u0628"],
    ["xn--11b2ezcw70k", "\u0915\u094d\u200d\u0937"],
    "ZWJ (A.2) needs a virama before it, whatever the letters around",
  ],
];

describe("V4 hostname: ZERO WIDTH NON-JOINER in an A-label (RFC 5892 A.1)", () => {
  it("the JSON-Schema-Test-Suite's two ZWNJ labels are accepted: after a virama, and between joining letters", () => {
    expect(hostname.validate("xn--11b2ezcs70k")).toBe(true);
    expect(hostname.validate("xn--ngba5hb2804a")).toBe(true);
  });

  for (const [[rejected, rejectedU], [accepted, acceptedU], why] of pairs) {
    it(`rejects ${JSON.stringify(rejectedU)}, accepts ${JSON.stringify(acceptedU)}: ${why}`, () => {
      expect(hostname.validate(rejected)).toBe(false);
      expect(hostname.validate(accepted)).toBe(true);
      expect(hostname.validate(`www.${accepted}.example`)).toBe(true);
      expect(hostname.validate(`www.${rejected}.example`)).toBe(false);
    });
  }
});
