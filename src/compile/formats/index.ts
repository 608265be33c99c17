/**
 * The asserted formats. `format` is an assertion here (not the 2020-12 default annotation):
 * a form that names any other format is refused at build.
 *
 * @module
 */
import { dependenciesFirst } from "../dependencies-first.ts";
import { date, dateTime, duration, time } from "./date-time.ts";
import { email } from "./email.ts";
import type { FormatCheck } from "./format-check.ts";
import { hostname } from "./hostname.ts";
import { ipv4, ipv6 } from "./ip.ts";
import { jsonPointer, relativeJsonPointer } from "./pointers.ts";
import { regex, uuid } from "./simple.ts";
import { uri, uriReference } from "./uri.ts";

export type { FormatCheck } from "./format-check.ts";

const checks: ReadonlyArray<FormatCheck> = [
  date,
  time,
  dateTime,
  duration,
  email,
  hostname,
  ipv4,
  ipv6,
  uri,
  uriReference,
  uuid,
  jsonPointer,
  relativeJsonPointer,
  regex,
];

/** Names of the formats the compiler asserts. */
export const formatNames: ReadonlyArray<string> = checks.map((check) => check.name);

/** Formats the compiler refuses, with the reason. */
export const refusedFormats: ReadonlyMap<string, string> = new Map([
  ["idn-email", "internationalized addresses need IDNA2008 tables the compiler does not carry"],
  ["idn-hostname", "internationalized host names need IDNA2008 tables the compiler does not carry"],
  ["iri", "IRIs need RFC 3987 character tables the compiler does not carry"],
  ["iri-reference", "IRIs need RFC 3987 character tables the compiler does not carry"],
  ["uri-template", "not a shape constraint a form needs"],
]);

/** The check for a supported format. */
export function formatCheck(name: string): FormatCheck {
  const check = checks.find((candidate) => candidate.name === name);
  if (check === undefined) throw new Error(`no format ${name}`);
  return check;
}

/** The sources of `names`' checks and of the checks they call, each once, callees first. */
export function formatSources(names: Iterable<string>): string[] {
  return dependenciesFirst([...names].map(formatCheck), (check) => check.uses ?? []).map((check) => check.source);
}
