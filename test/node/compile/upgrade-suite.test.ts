/**
 * Older drafts upgraded to 2020-12 (issue 33): JSON-Schema-Test-Suite draft7 and draft2019-09,
 * every schema through `upgradeForm` (from its draft, since the suite's schemas name none) and
 * the compiler, every test through the generated module. Groups refused at build are asserted
 * refused, each with its reason (a stale entry fails the run); every other group passes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import type { Dialect } from "../../../src/compile/dialects.ts";
import { FormError, type FormErrorCode } from "../../../src/compile/form-error.ts";
import { type Upgraded, upgradeForm } from "../../../src/compile/upgrade.ts";
import { type GeneratedModule, loadModules } from "./load-modules.ts";
import { type SuiteDraft, suiteGroups } from "./suite-files.ts";

interface Refused {
  readonly file: string;
  readonly description?: RegExp;
  readonly code: FormErrorCode;
  readonly reason: string;
}

const remote = "remote $ref is refused: a form is one self-contained document";
const metaSchema = "the $ref points at the remote meta-schema of its draft: refused as remote";
const content = "content* keywords assert nothing in 2020-12; refused rather than silently ignored (V4)";
const unknown = "unknown keywords are refused (V4: closed vocabulary)";
const formats: ReadonlyArray<Refused> = [
  {
    file: "format.json",
    description: /^(idn-email|idn-hostname|iri|iri-reference|uri-template) format$/,
    code: "unsupported-format",
    reason: "formats outside the asserted set are refused (src/compile/README.md)",
  },
  ...["idn-email", "idn-hostname", "iri", "iri-reference", "uri-template", "unknown"].map(
    (name): Refused => ({
      file: `optional/format/${name}.json`,
      code: "unsupported-format",
      reason: `${name} is refused: not in the asserted set`,
    }),
  ),
  { file: "optional/unknownKeyword.json", code: "unknown-keyword", reason: unknown },
];

const ledgers: ReadonlyArray<{ draft: SuiteDraft; from: Dialect; refused: ReadonlyArray<Refused> }> = [
  {
    draft: "draft7",
    from: "draft-07",
    refused: [
      ...formats,
      { file: "refRemote.json", code: "remote-ref", reason: remote },
      { file: "optional/cross-draft.json", code: "remote-ref", reason: remote },
      { file: "definitions.json", code: "remote-ref", reason: metaSchema },
      { file: "ref.json", description: /^remote ref, containing refs itself$/, code: "remote-ref", reason: metaSchema },
      { file: "optional/content.json", code: "refused-keyword", reason: content },
    ],
  },
  {
    draft: "draft2019-09",
    from: "2019-09",
    refused: [
      ...formats,
      { file: "refRemote.json", code: "remote-ref", reason: remote },
      { file: "optional/cross-draft.json", code: "remote-ref", reason: remote },
      { file: "defs.json", code: "remote-ref", reason: metaSchema },
      { file: "ref.json", description: /^remote ref, containing refs itself$/, code: "remote-ref", reason: metaSchema },
      { file: "content.json", code: "refused-keyword", reason: content },
      {
        file: "recursiveRef.json",
        description: /^(multiple dynamic paths to the \$recursiveRef keyword|dynamic \$recursiveRef destination)/,
        code: "refused-keyword",
        reason: "a $recursiveRef whose target depends on the dynamic scope has no static $ref (upgrade.ts)",
      },
      {
        file: "vocabulary.json",
        code: "unsupported-dialect",
        reason: "a custom meta-schema is another dialect: only 2020-12 is accepted",
      },
      {
        file: "optional/refOfUnknownKeyword.json",
        description: /known non-applicator/,
        code: "unresolvable-ref",
        reason: "a $ref into `examples` points at no schema location",
      },
      { file: "optional/refOfUnknownKeyword.json", code: "unknown-keyword", reason: unknown },
    ],
  },
];

for (const { draft, from, refused } of ledgers) {
  const groups = suiteGroups(draft);
  const used = new Set<number>();
  const outcomes = groups.map((group) => {
    try {
      const upgraded = upgradeForm(group.schema, { from });
      return { upgraded, source: compileForm(upgraded.schema) };
    } catch (error) {
      return { error };
    }
  });
  let modules: Array<GeneratedModule | undefined> = [];
  beforeAll(async () => {
    const sources = outcomes.flatMap((outcome) => ("source" in outcome ? [outcome.source as string] : []));
    const loaded = await loadModules(sources);
    let next = 0;
    modules = outcomes.map((outcome) => ("source" in outcome ? loaded[next++] : undefined));
  });

  describe(`JSON-Schema-Test-Suite ${draft} upgraded to 2020-12`, () => {
    groups.forEach((group, index) => {
      const outcome = outcomes[index] as { upgraded?: Upgraded; error?: unknown };
      const rule = refused.findIndex(
        (entry) =>
          entry.file === group.file && (entry.description === undefined || entry.description.test(group.description)),
      );
      if (rule >= 0) {
        used.add(rule);
        it(`refuses at build: ${group.file} › ${group.description}`, () => {
          expect(outcome.error, refused[rule]?.reason).toBeInstanceOf(FormError);
          expect((outcome.error as FormError).code).toBe(refused[rule]?.code);
        });
        return;
      }
      it(`${group.file} › ${group.description}`, () => {
        if (outcome.error !== undefined) throw outcome.error;
        for (const test of group.tests) {
          expect(modules[index]?.validate(test.data), test.description).toBe(test.valid);
          expect(modules[index]?.validateParsed(test.data), `validateParsed: ${test.description}`).toBe(test.valid);
        }
      });
    });

    it("has no stale ledger entry", () => {
      expect(refused.filter((_, index) => !used.has(index))).toEqual([]);
    });
  });
}
