/**
 * `json-pointer` (RFC 6901 §3) and `relative-json-pointer`
 * (draft-handrews-relative-json-pointer-01 §3: a non-negative integer, then `#` or a JSON
 * Pointer).
 *
 * @module
 */
import type { FormatCheck } from "./format-check.ts";

export const jsonPointer: FormatCheck = {
  name: "json-pointer",
  fn: "format_json_pointer",
  source: String.raw`const F_JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;
function format_json_pointer(s) {
  return F_JSON_POINTER.test(s);
}`,
};

export const relativeJsonPointer: FormatCheck = {
  name: "relative-json-pointer",
  fn: "format_relative_json_pointer",
  source: String.raw`const F_RELATIVE_JSON_POINTER = /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~[01])*)*)$/;
function format_relative_json_pointer(s) {
  return F_RELATIVE_JSON_POINTER.test(s);
}`,
};
