/**
 * `uri` (RFC 3986 §3 URI: a scheme is required) and `uri-reference` (§4.1: a URI or a
 * relative reference), by the RFC's ABNF; an IP-literal host must be a valid IPv6 address
 * or IPvFuture.
 *
 * @module
 */
import type { FormatCheck } from "./format-check.ts";
import { ipv6 } from "./ip.ts";

// Character classes of RFC 3986 §2 and the rules of §3, as regex source.
const unreserved = String.raw`A-Za-z0-9\-._~`;
const subDelims = String.raw`!$&'()*+,;=`;
const pct = String.raw`%[0-9A-Fa-f]{2}`;
const pchar = String.raw`(?:[${unreserved}${subDelims}:@]|${pct})`;
const segment = `${pchar}*`;
const segmentNz = `${pchar}+`;
const segmentNzNc = String.raw`(?:[${unreserved}${subDelims}@]|${pct})+`;
const authority = String.raw`(?:(?:[${unreserved}${subDelims}:]|${pct})*@)?(?:\[([^\]]*)\]|(?:[${unreserved}${subDelims}]|${pct})*)(?::[0-9]*)?`;
const tail = String.raw`(?:\?(?:${pchar}|[/?])*)?(?:#(?:${pchar}|[/?])*)?`;
const pathAbsolute = `/(?:${segmentNz}(?:/${segment})*)?`;
const hierPart = `(?://${authority}(?:/${segment})*|${pathAbsolute}|${segmentNz}(?:/${segment})*|)`;
const relativePart = `(?://${authority}(?:/${segment})*|${pathAbsolute}|${segmentNzNc}(?:/${segment})*|)`;
const scheme = String.raw`[A-Za-z][A-Za-z0-9+\-.]*`;
const uriSource = `^${scheme}:${hierPart}${tail}$`;
const relativeSource = `^${relativePart}${tail}$`;

const ipLiteral = String.raw`const F_IPFUTURE = /^v[0-9A-Fa-f]+\.[${unreserved}${subDelims}:]+$/;
function F_ipliteral(m) {
  return m[1] === undefined || F_IPFUTURE.test(m[1]) || format_ipv6(m[1]);
}`;

export const uri: FormatCheck = {
  name: "uri",
  fn: "format_uri",
  uses: [ipv6],
  source: `${ipLiteral}
const F_URI = new RegExp(${JSON.stringify(uriSource)});
function format_uri(s) {
  const m = F_URI.exec(s);
  return m !== null && F_ipliteral(m);
}`,
};

export const uriReference: FormatCheck = {
  name: "uri-reference",
  fn: "format_uri_reference",
  uses: [uri],
  source: `const F_RELATIVE_REF = new RegExp(${JSON.stringify(relativeSource)});
function format_uri_reference(s) {
  if (format_uri(s)) return true;
  const m = F_RELATIVE_REF.exec(s);
  return m !== null && F_ipliteral(m);
}`,
};
