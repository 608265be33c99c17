/**
 * `email`: RFC 5321 §4.1.2 Mailbox: a dot-atom or quoted-string local part, then a hostname
 * or an address literal (`[IPv4]` or `[IPv6:…]`).
 *
 * @module
 */
import type { FormatCheck } from "./format-check.ts";
import { hostname } from "./hostname.ts";
import { ipv4, ipv6 } from "./ip.ts";

export const email: FormatCheck = {
  name: "email",
  fn: "format_email",
  uses: [hostname, ipv4, ipv6],
  source: String.raw`const F_LOCAL = /^(?:[A-Za-z0-9!#$%&'*+\/=?^_\x60{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+\/=?^_\x60{|}~-]+)*|"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*")$/;
function format_email(s) {
  const at = s.lastIndexOf("@");
  if (at <= 0 || !F_LOCAL.test(s.slice(0, at))) return false;
  const domain = s.slice(at + 1);
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const literal = domain.slice(1, -1);
    return literal.startsWith("IPv6:") ? format_ipv6(literal.slice(5)) : format_ipv4(literal);
  }
  return format_hostname(domain);
}`,
};
