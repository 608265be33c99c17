/**
 * `ipv4` (RFC 2673 §3.2 dotted-quad, no leading zeros) and `ipv6` (RFC 4291 §2.2 text forms,
 * no zone, no prefix length).
 *
 * @module
 */
import type { FormatCheck } from "./format-check.ts";

export const ipv4: FormatCheck = {
  name: "ipv4",
  fn: "format_ipv4",
  source: String.raw`const F_IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
function format_ipv4(s) {
  return F_IPV4.test(s);
}`,
};

export const ipv6: FormatCheck = {
  name: "ipv6",
  fn: "format_ipv6",
  uses: [ipv4],
  source: String.raw`const F_HEXGROUP = /^[0-9A-Fa-f]{1,4}$/;
function format_ipv6(s) {
  const last = s.lastIndexOf(":");
  if (last < 0) return false;
  let text = s;
  if (s.indexOf(".", last) >= 0) {
    if (!format_ipv4(s.slice(last + 1))) return false;
    text = s.slice(0, last + 1) + "0:0";
  }
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const groups = (half) => (half === "" ? [] : half.split(":"));
  const all = halves.flatMap(groups);
  if (!all.every((group) => F_HEXGROUP.test(group))) return false;
  return halves.length === 2 ? all.length <= 7 : all.length === 8;
}`,
};
