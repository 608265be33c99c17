/**
 * JSONTestSuite (nst/JSONTestSuite, MIT), every file of test_parsing/ read as raw bytes (V2).
 *
 * - `y_`: accepted with the value `JSON.parse` gives, except the two duplicate-name files,
 *   which the ledger lists as rejected by design;
 * - `n_`: rejected with a {@link JsonSyntaxError};
 * - `i_`: decided as `ledger.json` says, with the code it names.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { JsonSyntaxError, type JsonSyntaxErrorCode } from "../../../src/json/json-syntax-error.ts";
import { parseJson } from "../../../src/json/parse.ts";

interface LedgerEntry {
  readonly expect: "accept" | "reject";
  readonly code?: JsonSyntaxErrorCode;
  readonly reason: string;
}

const root = join(import.meta.dirname, "../../fixtures/JSONTestSuite");
const dir = join(root, "test_parsing");
const ledger = (
  JSON.parse(readFileSync(join(root, "ledger.json"), "utf8")) as {
    files: Record<string, LedgerEntry>;
  }
).files;
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort();

function bytesOf(file: string): Uint8Array {
  return new Uint8Array(readFileSync(join(dir, file)));
}

/** `JSON.parse` of the bytes as UTF-8 text; the oracle, never a stage of the parser. */
function oracle(bytes: Uint8Array): unknown {
  return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
}

/** The outcome of parseJson, with anything but a JsonSyntaxError rethrown (a crash). */
function outcome(bytes: Uint8Array): { value: unknown } | { error: JsonSyntaxError } {
  try {
    return { value: parseJson(bytes) };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { error };
    throw error;
  }
}

test("the suite is complete: 318 files, 95 y_, 188 n_, 35 i_", () => {
  expect(files).toHaveLength(318);
  expect(files.filter((f) => f.startsWith("y_"))).toHaveLength(95);
  expect(files.filter((f) => f.startsWith("n_"))).toHaveLength(188);
  expect(files.filter((f) => f.startsWith("i_"))).toHaveLength(35);
});

test("the ledger lists every i_ file and only files of the suite", () => {
  const listed = Object.keys(ledger).sort();
  for (const f of files.filter((f) => f.startsWith("i_"))) expect(listed).toContain(f);
  for (const f of listed) expect(files).toContain(f);
  for (const entry of Object.values(ledger)) expect(entry.reason).not.toBe("");
});

describe("y_: accepted with JSON.parse's value (V2)", () => {
  for (const file of files.filter((f) => f.startsWith("y_") && ledger[f] === undefined)) {
    test(file, () => {
      const bytes = bytesOf(file);
      expect(outcome(bytes)).toStrictEqual({ value: oracle(bytes) });
    });
  }
});

describe("n_: rejected with JsonSyntaxError (V2)", () => {
  for (const file of files.filter((f) => f.startsWith("n_"))) {
    test(file, () => {
      const result = outcome(bytesOf(file));
      expect(result).toHaveProperty("error");
      const { error } = result as { error: JsonSyntaxError };
      expect(error).toBeInstanceOf(SyntaxError);
      expect(error.offset).toBeGreaterThanOrEqual(0);
      expect(error.offset).toBeLessThanOrEqual(bytesOf(file).length);
    });
  }
});

describe("ledger: i_ files and the y_ files rejected by design (V2)", () => {
  for (const [file, entry] of Object.entries(ledger)) {
    test(`${file}: ${entry.expect}${entry.code ? ` (${entry.code})` : ""}`, () => {
      const bytes = bytesOf(file);
      const result = outcome(bytes);
      if (entry.expect === "accept") {
        expect(result).toStrictEqual({ value: oracle(bytes) });
      } else {
        expect(result).toHaveProperty("error");
        expect((result as { error: JsonSyntaxError }).error.code).toBe(entry.code);
      }
    });
  }
});
