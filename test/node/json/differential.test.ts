/**
 * Property-based differential tests of `parseJson` against `JSON.parse` (issue 3; V2): a sample
 * run in `npm test`. `npm run fuzz:parse` runs the same properties on ≥ 10⁶ inputs.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { JsonSyntaxError } from "../../../src/json/json-syntax-error.ts";
import { parseJson, TEXT_MAX } from "../../../src/json/parse.ts";
import { LOOSE_MAX } from "../../../src/json/utf8.ts";
import { random } from "../../seeded-random.ts";
import { mutate, mutationArb, nameArb, policyCodes, spell, spellString, treeArb } from "./json-arbitraries.ts";
import { checkMutated, checkSpelled, equalsOracle } from "./json-properties.ts";

const encoder = new TextEncoder();

describe("differential against JSON.parse (V2)", () => {
  test("values spelled with random whitespace, escapes and numbers parse to JSON.parse's value", () => {
    fc.assert(
      fc.property(treeArb(), fc.integer(), fc.integer({ min: 0, max: 99 }), (tree, seed, pad) => {
        checkSpelled(spell(tree, seed), pad);
      }),
      { numRuns: 3000 },
    );
  });

  test("byte mutations are accepted with JSON.parse's value or rejected for a reason JSON.parse does not check", () => {
    fc.assert(
      fc.property(
        treeArb(),
        fc.integer(),
        fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
        (tree, seed, mutations) => {
          checkMutated(mutate(encoder.encode(spell(tree, seed).text), mutations));
        },
      ),
      { numRuns: 8000 },
    );
  });

  test("a name repeated at any depth in any spelling is rejected; a different name is accepted", () => {
    fc.assert(
      fc.property(
        nameArb,
        fc.uniqueArray(nameArb, { maxLength: 4 }),
        fc.array(fc.boolean(), { maxLength: 8 }),
        fc.integer(),
        (name, others, wrappers, seed) => {
          const rnd = random(seed);
          const members = others.filter((o) => o !== name).map((o) => `${spellString(o, rnd)}:0`);
          const other = `${name}\u0000other`;
          const build = (second: string) => {
            let text = `{${[`${spellString(name, rnd)}:1`, ...members, `${spellString(second, rnd)}:2`].join(",")}}`;
            for (const inArray of wrappers) text = inArray ? `[0,${text}]` : `{"w":0,"k":${text}}`;
            return encoder.encode(text);
          };
          const duplicate = build(name);
          let error: unknown;
          try {
            parseJson(duplicate);
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(JsonSyntaxError);
          expect((error as JsonSyntaxError).code).toBe("duplicate-name");
          const control = build(other);
          const text = new TextDecoder().decode(control);
          expect(equalsOracle(parseJson(control), JSON.parse(text), text)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("string bytes are accepted exactly when TextDecoder(fatal) accepts them, as its characters; else invalid-utf8 (RFC 3629)", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    // Bytes of a string's content: any but `"`, `\\` and controls, most of them ≥ 0x80, U+FFFD's
    // own bytes (EF BF BD) often, so that the decoder's U+FFFD and a real one meet.
    const byteArb = fc.oneof(
      fc.integer({ min: 0x80, max: 0xff }),
      fc.constantFrom(0xef, 0xbf, 0xbd, 0xc3, 0xa9, 0xf0, 0x9f, 0xed, 0xa0),
      fc.constantFrom(0x61, 0x20, 0x7e),
    );
    fc.assert(
      fc.property(
        fc.array(byteArb, { minLength: 1, maxLength: 24 }),
        fc.constantFrom(0, LOOSE_MAX, TEXT_MAX),
        fc.constantFrom("value", "name", "after U+FFFD", "after an escape"),
        (content, pad, where) => {
          const inner = Uint8Array.from(content);
          const head = {
            value: "[",
            name: "{",
            "after U+FFFD": '["\uFFFD",',
            "after an escape": '["\\n\uFFFD",',
          }[where];
          const tail = where === "name" ? ":0}" : "]";
          const before = encoder.encode(`${head}"`);
          const after = encoder.encode(`"${tail}`);
          // Whitespace after the value takes the text past LOOSE_MAX (decoded whole by the fatal
          // decoder) or past TEXT_MAX (decoded string by string).
          const length = before.length + inner.length + after.length;
          const bytes = new Uint8Array(length + pad).fill(0x20);
          bytes.set(before);
          bytes.set(inner, before.length);
          bytes.set(after, before.length + inner.length);
          let expected: string | undefined;
          try {
            expected = fatal.decode(inner);
          } catch {
            expected = undefined;
          }
          let value: unknown;
          try {
            value = parseJson(bytes);
          } catch (error) {
            expect(error).toBeInstanceOf(JsonSyntaxError);
            expect((error as JsonSyntaxError).code).toBe("invalid-utf8");
            expect(expected).toBeUndefined();
            return;
          }
          expect(expected).toBeDefined();
          const strings = where === "name" ? Object.keys(value as object) : (value as string[]);
          expect(strings.at(-1)).toBe(expected);
        },
      ),
      { numRuns: 4000 },
    );
  });

  test("the policy codes are exactly the reasons JSON.parse does not check", () => {
    expect([...policyCodes].sort()).toEqual([
      "byte-order-mark",
      "depth-exceeded",
      "duplicate-name",
      "integer-out-of-range",
      "invalid-utf8",
      "lone-surrogate",
      "number-out-of-range",
      "string-too-long",
      "too-many-items",
      "too-many-members",
    ]);
  });
});
