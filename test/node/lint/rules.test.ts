import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Rule } from "../../../src/lint/rule.ts";
import { rules } from "../../../src/lint/rules/index.ts";
import { exampleText, lintExample } from "./examples.ts";

const folder = join(import.meta.dirname, "../../../src/lint/rules");
const files = readdirSync(folder).filter((file) => file.endsWith(".ts") && file !== "index.ts");

describe("lint rules: one file each, id = file name, docs examples are the tests", () => {
  it("every rule file is in the rule table once, and every table entry has a file", async () => {
    const ids = rules.map((rule) => rule.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(files.map((file) => basename(file, ".ts")).sort());
    for (const file of files) {
      const module = (await import(join(folder, file))) as Record<string, Rule>;
      const exported = Object.values(module).filter((value) => typeof value === "object" && "meta" in value);
      expect(exported.map((rule) => rule.meta.id)).toEqual([basename(file, ".ts")]);
    }
  });

  for (const rule of rules) {
    const { meta } = rule;
    describe(`${meta.requirement} ${meta.id}`, () => {
      it("has metadata: kebab-case no-/use-/valid- id, severity, requirement, section, docs with both kinds", () => {
        expect(meta.id).toMatch(/^(no|use|valid)-[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(["error", "warning"]).toContain(meta.severity);
        expect(meta.requirement).not.toBe("");
        expect(meta.section).not.toBe("");
        expect(meta.docs.invalid.length).toBeGreaterThan(0);
        expect(meta.docs.valid.length).toBeGreaterThan(0);
        expect(rule.check === undefined).toBe(meta.engine === true);
        const texts = [...meta.docs.invalid, ...meta.docs.valid].map(exampleText);
        expect(new Set(texts).size, "duplicate example").toBe(texts.length);
      });

      it("gives exactly one finding of this rule on each invalid example, covering every message", async () => {
        const used = new Set<string>();
        for (const example of meta.docs.invalid) {
          const findings = await lintExample(rule, example);
          expect(findings, exampleText(example)).toHaveLength(1);
          const [finding] = findings;
          expect(finding?.rule).toBe(meta.id);
          expect(finding?.severity).toBe(meta.severity);
          if (example.pointer !== undefined) expect(finding?.pointer).toBe(example.pointer);
          expect(finding?.message).not.toMatch(/\{\w+\}/);
          used.add(finding?.messageId ?? "");
        }
        expect([...used].sort()).toEqual(Object.keys(meta.messages).sort());
      });

      it("gives no finding on each valid example", async () => {
        for (const example of meta.docs.valid)
          expect(await lintExample(rule, example), exampleText(example)).toEqual([]);
      });
    });
  }
});
