/**
 * `uuid` (RFC 9562 §4: 8-4-4-4-12 hex digits, any version and variant) and `regex` (an
 * ECMAScript regular expression that compiles with the `u` flag, as `pattern` is read).
 *
 * @module
 */
import type { FormatCheck } from "./format-check.ts";

export const uuid: FormatCheck = {
  name: "uuid",
  fn: "format_uuid",
  source: String.raw`const F_UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
function format_uuid(s) {
  return F_UUID.test(s);
}`,
};

export const regex: FormatCheck = {
  name: "regex",
  fn: "format_regex",
  source: String.raw`function format_regex(s) {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
}`,
};
