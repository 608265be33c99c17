/**
 * The documentation points only at what exists: every relative link and every repository
 * path in backticks in README.md, docs/ and the READMEs under src/ names a file or folder of
 * the repository, or of a project `gpt-address init` makes (its templates, its first address,
 * what `gpt-address build` writes), or one the text tells the reader to create (a file a
 * snippet marker names, test/node/doc-snippets.ts), or one the build generates;
 * docs/requirements.md has one row per requirement id, whose tests name that id, and a glossary
 * of the ids' prefixes, which every document naming an id links to.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { projectPaths, snippetsOf } from "../doc-snippets.ts";

const root = join(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(join(root, file), "utf8");

const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  ...readdirSync(join(root, "src"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, "src", entry.name, "README.md")))
    .map((entry) => `src/${entry.name}/README.md`),
];

/**
 * Paths the text tells the reader to create (README, "Add an address"; docs/address.md, a folder
 * of shared files), or that the build writes.
 */
const notInTheRepository = new Set(["forms/greeting.json", "examples/pages/greeting.ts", "forms/shared/"]);

const generated =
  /^(dist|examples\/pages\/generated|src\/mcp\/generated|bench\/results|worker-configuration\.d\.ts)(\/|$)/;

/** Backticked text that looks like a path in the repository. */
const repositoryPath =
  /^(?:\.ci|src|examples|test|docs|scripts|bench|forms)\/[^\s<>*]*$|^(?:package\.json|tsconfig[\w.]*\.json|wrangler\.toml|biome\.json|vitest\.config\.ts|\.npmrc)$/;

/** What a document names: its relative link targets and its backticked repository paths, as root-relative paths. */
function namedPaths(document: string): string[] {
  const text = read(document);
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.replace(/#.*$/, ""))
    .filter((target) => target !== "" && !/^[a-z][a-z+.-]*:/i.test(target))
    .map((target) => relative(root, join(root, dirname(document), target)));
  const paths = [...text.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!)
    .filter((path) => repositoryPath.test(path));
  return [...links, ...paths];
}

describe("documentation", () => {
  it("names only files and folders that exist", async () => {
    expect(documents).toContain("docs/requirements.md");
    const inAProject = await projectPaths();
    expect(inAProject).toContain("src/app.ts");
    const missing = documents.flatMap((document) => {
      const created = new Set(document.startsWith("src/") ? [] : snippetsOf(document).map((snippet) => snippet.path));
      return namedPaths(document)
        .filter((path) => !notInTheRepository.has(path) && !generated.test(path))
        .filter((path) => !inAProject.has(path) && !created.has(path))
        .filter((path) => !existsSync(join(root, path)))
        .map((path) => `${document}: ${path}`);
    });
    expect(missing).toEqual([]);
  });

  it("control: a path that does not exist is noticed", () => {
    expect(namedPaths("README.md").length).toBeGreaterThan(20);
    expect(existsSync(join(root, "DESIGN.md"))).toBe(false);
    expect(repositoryPath.test("docs/DESIGN.md")).toBe(true);
  });

  const ids = ["A1", "A2", "A3", "A4", "A5", "A6", "F1", "F2", "F3", "F4", "F5", "C1", "V1", "V2", "V3", "V4"];
  ids.push("R1", "R2", "H1", "S1", "S2", "S4", "X1", "X2", "X3", "X4");
  const rows = read("docs/requirements.md")
    .split("\n")
    .filter((line) => /^\| [A-Z]\d\s/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );

  it("docs/requirements.md has one row per requirement id, in order", () => {
    expect(rows.map((cells) => cells[0]!)).toEqual(ids);
  });

  it("the tests a row names exist and name its id in a test title", () => {
    const unnamed: string[] = [];
    for (const cells of rows) {
      const id = cells[0]!;
      // "(as V4)": the row's tests are titled by the id whose tests they share.
      const titled = /\(as ([A-Z]\d)\b/.exec(cells[4]!)?.[1] ?? id;
      const byTitle = new RegExp(`\\b(?:it|describe)\\(\\s*["'\`][^"'\`]*\\b${titled}\\b`);
      for (const [, file] of cells[4]!.matchAll(/`([^`]+)`/g)) {
        if (!existsSync(join(root, file!)) || !byTitle.test(read(file!))) unnamed.push(`${id}: ${file}`);
      }
    }
    expect(unnamed).toEqual([]);
  });

  it("the glossary explains every prefix of the ids, and every document naming an id links to it", () => {
    const glossary = read("docs/requirements.md").split("## Glossary")[1]?.split("\n## ")[0] ?? "";
    const prefixes = [...glossary.matchAll(/^\| ([A-Z]) +\|/gm)].map((match) => match[1]);
    expect(prefixes).toEqual([...new Set(ids.map((id) => id[0]))]);
    const named = new RegExp(`\\b(?:${ids.join("|")})\\b`);
    const unlinked = documents.filter(
      (document) =>
        document !== "docs/requirements.md" &&
        named.test(read(document)) &&
        !/\]\((?:\.\.\/)*(?:docs\/)?requirements\.md#glossary\)/.test(read(document)),
    );
    expect(unlinked).toEqual([]);
  });
});
