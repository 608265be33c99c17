/**
 * The local check of an act's bytes before they are sent, on every runtime: UTF-8, the strict
 * parser the addresses use (duplicate names, trailing bytes), then the form's validator.
 *
 * @see draft "Verification"; DESIGN.md V2
 * @module
 */
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import type { FormValidator } from "./form-validator.ts";

/** Why a value was not sent: it is not strict JSON, not UTF-8, or the form rejects it. */
export type LocalFailure =
  | { readonly stage: "utf8"; readonly message: string }
  | { readonly stage: "parse"; readonly code: string; readonly offset: number; readonly message: string }
  | { readonly stage: "form"; readonly pointer: string; readonly keyword: string; readonly message: string };

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The local check of a value's bytes: UTF-8, strict JSON (the address's parser), the form.
 */
export function checkLocally(bytes: Uint8Array, validator: FormValidator, invalidUtf8 = false): LocalFailure | null {
  if (invalidUtf8) return { stage: "utf8", message: "the output was not valid UTF-8" };
  try {
    fatal.decode(bytes);
  } catch {
    return { stage: "utf8", message: "the value is not valid UTF-8" };
  }
  let value: unknown;
  try {
    value = parseJson(bytes);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return {
      stage: "parse",
      code: error.code,
      offset: error.offset,
      message: `not one strict JSON value (${error.code} at byte ${error.offset})`,
    };
  }
  const failure = validator.check(value);
  if (failure === null) return null;
  return { stage: "form", ...failure, message: `the form rejects it at ${failure.pointer} (${failure.keyword})` };
}
