/**
 * The differential properties of `parseJson` against `JSON.parse`, as plain functions that
 * throw on a violation, so that `differential.test.ts` and `scripts/fuzz-parse.ts` check the
 * same thing.
 */
import { spawnSync } from "node:child_process";
import { JsonSyntaxError } from "../../../src/json/json-syntax-error.ts";
import { parseJson, TEXT_MAX } from "../../../src/json/parse.ts";
import { LOOSE_MAX } from "../../../src/json/utf8.ts";
import { policyCodes, type Spelled, sameJson } from "./json-arbitraries.ts";

const encoder = new TextEncoder();
/** The oracle's decoding: not fatal (JSON.parse never sees bytes), BOM stripped as usual. */
const lenient = new TextDecoder("utf-8");

/** Whitespace that moves a text past the size below which parseJson decodes a text whole. */
const PAD = " ".repeat(TEXT_MAX + 1);
/** Whitespace that moves a text past the size parseJson decodes without a fatal decoder. */
const LOOSE_PAD = " ".repeat(LOOSE_MAX + 1);

type Outcome = { readonly value: unknown } | { readonly error: JsonSyntaxError };

/** parseJson's outcome; anything thrown but a JsonSyntaxError is a violation, rethrown as is. */
export function ours(bytes: Uint8Array): Outcome {
  try {
    return { value: parseJson(bytes) };
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      if (!(error.offset >= 0 && error.offset <= bytes.length))
        throw new Error(`offset ${error.offset} outside the text`);
      return { error };
    }
    throw error;
  }
}

function oracle(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * A tagged copy of a JSON value, exact for -0, member order and `__proto__` members, so that
 * two processes can compare values as strings.
 */
function tag(value: unknown): unknown {
  if (typeof value === "number") return ["n", Object.is(value, -0) ? "-0" : value];
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return ["a", value.map(tag)];
  return ["o", Object.keys(value).map((k) => [k, tag(Object.getOwnPropertyDescriptor(value, k)!.value)])];
}

const tagSource = tag.toString();

/** How often the in-process oracle disagreed and a fresh process's `JSON.parse` sided with parseJson. */
export const oracleRetries: string[] = [];

/**
 * Whether `value` equals `JSON.parse(text)`. V8's `JSON.parse` (Node 24.21) has been seen,
 * after ~10⁵ parses in one process, to return a wrong escaped member name (`"\\0"` read as
 * two backslashes); a disagreement is therefore re-checked with `JSON.parse` in a fresh
 * process before it counts.
 */
export function equalsOracle(value: unknown, expected: unknown, text: string): boolean {
  if (sameJson(value, expected)) return true;
  const child = spawnSync(
    process.execPath,
    [
      "-e",
      `${tagSource}; let t = ""; process.stdin.on("data", (d) => (t += d)).on("end", () => process.stdout.write(JSON.stringify(tag(JSON.parse(t)))))`,
    ],
    { input: text, encoding: "utf8", maxBuffer: 1 << 26 },
  );
  if (child.status !== 0) return false;
  const agrees = child.stdout === JSON.stringify(tag(value));
  if (agrees) oracleRetries.push(text);
  return agrees;
}

function show(bytes: Uint8Array): string {
  return JSON.stringify(lenient.decode(bytes.subarray(0, 200)));
}

/**
 * A spelled value (padded past the whole-text size when `pad` < 3, past the size decoded
 * without a fatal decoder when it is 3) is accepted with
 * `JSON.parse`'s value, or, when its spelling calls for a policy rejection, rejected with it.
 */
export function checkSpelled({ text, expect }: Spelled, pad: number): void {
  const padded =
    pad === 0
      ? PAD + text
      : pad === 1
        ? text + PAD
        : pad === 2
          ? PAD + text + PAD
          : pad === 3
            ? text + LOOSE_PAD
            : text;
  const bytes = encoder.encode(padded);
  const result = ours(bytes);
  if (expect.size === 0) {
    if ("error" in result) throw new Error(`rejected (${result.error.code} at ${result.error.offset}): ${show(bytes)}`);
    if (!equalsOracle(result.value, JSON.parse(padded), padded))
      throw new Error(`value differs from JSON.parse: ${show(bytes)}`);
  } else if (!("error" in result) || !expect.has(result.error.code)) {
    throw new Error(`expected a rejection for ${[...expect].join(", ")}: ${show(bytes)}`);
  }
}

/**
 * Mutated bytes are accepted with `JSON.parse`'s value (of the bytes decoded as UTF-8), or
 * rejected: for any reason when `JSON.parse` rejects them too, else only for a policy reason.
 */
export function checkMutated(bytes: Uint8Array): void {
  const result = ours(bytes);
  const text = lenient.decode(bytes);
  const expected = oracle(text);
  if ("error" in result) {
    if (expected !== undefined && !policyCodes.has(result.error.code)) {
      throw new Error(
        `rejected (${result.error.code} at ${result.error.offset}) what JSON.parse accepts: ${show(bytes)}`,
      );
    }
  } else {
    if (expected === undefined) throw new Error(`accepted what JSON.parse rejects: ${show(bytes)}`);
    if (!equalsOracle(result.value, expected.value, text))
      throw new Error(`value differs from JSON.parse: ${show(bytes)}`);
  }
}
