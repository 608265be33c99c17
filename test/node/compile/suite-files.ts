/**
 * Reads the committed copy of JSON-Schema-Test-Suite: draft2020-12, and draft7 and draft2019-09
 * (run through the upgrade).
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface SuiteTest {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
}

export interface SuiteGroup {
  /** `file › group description`, the key used by the ledger. */
  readonly id: string;
  readonly file: string;
  readonly description: string;
  readonly schema: unknown;
  readonly tests: ReadonlyArray<SuiteTest>;
}

/** The drafts of the suite in test/fixtures. */
export type SuiteDraft = "draft2020-12" | "draft2019-09" | "draft7";

/** Every test group of the suite's `draft`, files in path order. */
export function suiteGroups(draft: SuiteDraft = "draft2020-12"): SuiteGroup[] {
  const root = fileURLToPath(new URL(`../../fixtures/JSON-Schema-Test-Suite/tests/${draft}/`, import.meta.url).href);
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith(".json")).sort();
  return files.flatMap((file) => {
    const groups = JSON.parse(readFileSync(root + file, "utf8")) as Array<Omit<SuiteGroup, "id" | "file">>;
    return groups.map((group) => ({ ...group, file, id: `${file} › ${group.description}` }));
  });
}
