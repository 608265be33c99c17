/**
 * The reviewed ledger for JSON-Schema-Test-Suite draft2020-12: which test groups the compiler
 * refuses at build (asserted to throw FormError with that code), and which single tests it
 * answers differently from the suite (asserted to give the opposite answer), each with its
 * reason. Every entry is asserted to still apply, so a stale entry fails the run.
 *
 * @module
 */
import type { FormErrorCode } from "../../../src/compile/form-error.ts";

/** A refusal rule: groups of `file` (and, when given, whose description matches) are refused. */
export interface RefusedGroups {
  readonly file: string;
  readonly description?: RegExp;
  readonly code: FormErrorCode;
  readonly reason: string;
}

const dynamic = "$dynamicRef/$dynamicAnchor are refused (V4): a form's references are static";
const remote = "remote $ref is refused: a form is one self-contained document";
const metaSchema =
  "the $ref points at the remote 2020-12 meta-schema, which itself uses $dynamicRef: refused as remote";

/** Test groups refused at build, by file (and description). */
export const refusedGroups: ReadonlyArray<RefusedGroups> = [
  { file: "unevaluatedItems.json", description: /\$dynamicRef/, code: "refused-keyword", reason: dynamic },
  { file: "unevaluatedProperties.json", description: /\$dynamicRef/, code: "refused-keyword", reason: dynamic },
  { file: "dynamicRef.json", description: /detached \$dynamicAnchor/, code: "remote-ref", reason: remote },
  { file: "dynamicRef.json", code: "refused-keyword", reason: dynamic },
  { file: "optional/dynamicRef.json", code: "refused-keyword", reason: dynamic },
  { file: "refRemote.json", code: "remote-ref", reason: remote },
  { file: "optional/cross-draft.json", code: "remote-ref", reason: remote },
  {
    file: "defs.json",
    description: /^validate definition against metaschema$/,
    code: "remote-ref",
    reason: metaSchema,
  },
  { file: "ref.json", description: /^remote ref, containing refs itself$/, code: "remote-ref", reason: metaSchema },
  {
    file: "content.json",
    code: "refused-keyword",
    reason: "content* keywords assert nothing in 2020-12; refused rather than silently ignored (V4)",
  },
  {
    file: "optional/dependencies-compatibility.json",
    code: "refused-keyword",
    reason: "draft-07 `dependencies` is refused; forms use dependentRequired/dependentSchemas",
  },
  {
    file: "vocabulary.json",
    code: "unsupported-dialect",
    reason: "a custom meta-schema is another dialect: only the 2020-12 $schema is accepted",
  },
  {
    file: "optional/format-assertion.json",
    code: "unsupported-dialect",
    reason: "a custom meta-schema is another dialect: only the 2020-12 $schema is accepted",
  },
  {
    file: "optional/refOfUnknownKeyword.json",
    description: /known non-applicator/,
    code: "unresolvable-ref",
    reason: "a $ref into `examples` points at no schema location; refused",
  },
  {
    file: "optional/refOfUnknownKeyword.json",
    code: "unknown-keyword",
    reason: "unknown keywords are refused (V4: closed vocabulary)",
  },
  {
    file: "optional/unknownKeyword.json",
    code: "unknown-keyword",
    reason: "unknown keywords are refused (V4: closed vocabulary)",
  },
  {
    file: "format.json",
    description: /^(idn-email|idn-hostname|iri|iri-reference|uri-template) format$/,
    code: "unsupported-format",
    reason: "formats outside the asserted set are refused (see README: formats)",
  },
  {
    file: "optional/format/idn-email.json",
    code: "unsupported-format",
    reason: "idn-email is refused: needs IDNA2008 tables",
  },
  {
    file: "optional/format/idn-hostname.json",
    code: "unsupported-format",
    reason: "idn-hostname is refused: needs IDNA2008 tables",
  },
  { file: "optional/format/iri.json", code: "unsupported-format", reason: "iri is refused: needs RFC 3987 tables" },
  {
    file: "optional/format/iri-reference.json",
    code: "unsupported-format",
    reason: "iri-reference is refused: needs RFC 3987 tables",
  },
  { file: "optional/format/uri-template.json", code: "unsupported-format", reason: "uri-template is refused" },
  {
    file: "optional/format/unknown.json",
    code: "unsupported-format",
    reason: "an unknown format is refused, never ignored (V4)",
  },
];

const annotation =
  "we assert formats (a form's format is a constraint, V4); the suite's default reads format as an annotation only";

/** Single tests where the compiler's answer is, by design, the opposite of the suite's. */
export const differingTests: ReadonlyMap<string, string> = new Map([
  ...[
    "email",
    "regex",
    "ipv4",
    "ipv6",
    "hostname",
    "date",
    "date-time",
    "time",
    "json-pointer",
    "relative-json-pointer",
    "uri",
    "uri-reference",
    "uuid",
    "duration",
  ].map((name): [string, string] => [
    `format.json › ${name} format › invalid ${name} string is only an annotation by default`,
    annotation,
  ]),
]);
