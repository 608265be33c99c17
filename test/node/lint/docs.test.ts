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

describe("the README and docs/lint.md list every rule and the actor table from the data", () => {
  it("are up to date (npm run docs:lint rewrites them)", async () => {
    const { readme, lint } = await renderDocs();
    expect(unpadded(readFileSync(join(root, "README.md"), "utf8"))).toBe(unpadded(readme));
    expect(unpadded(readFileSync(join(root, "docs", "lint.md"), "utf8"))).toBe(unpadded(lint));
  });

  it("name every rule id in both", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const lint = readFileSync(join(root, "docs", "lint.md"), "utf8");
    for (const { meta } of rules) {
      expect(readme).toContain(`\`${meta.id}\``);
      expect(lint).toContain(`### ${meta.id}`);
    }
  });
});
