import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderDocs } from "../../../scripts/lint-docs.ts";
import { rules } from "../../../src/lint/rules/index.ts";

const root = join(import.meta.dirname, "../../..");

/** The text with Markdown table padding removed (Biome aligns the tables after generation). */
function unpadded(text: string): string {
  return text
    .split("\n")
    .map((line) => (line.startsWith("|") ? line.replace(/\s*\|\s*/g, "|").replace(/\|-+(?=\|)/g, "|-") : line))
    .join("\n");
}

describe("docs/lint.md lists every rule and the actor table from the data", () => {
  it("is up to date (npm run docs:lint rewrites it)", async () => {
    const { lint } = await renderDocs();
    expect(unpadded(readFileSync(join(root, "docs", "lint.md"), "utf8"))).toBe(unpadded(lint));
  });

  it("names every rule id in its table, linked to the rule's own section", () => {
    const lint = readFileSync(join(root, "docs", "lint.md"), "utf8");
    for (const { meta } of rules) {
      expect(lint).toContain(`[\`${meta.id}\`](#${meta.id})`);
      expect(lint).toContain(`### ${meta.id}`);
    }
  });
});
