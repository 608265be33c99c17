/**
 * Before the POST bench measures its peers, it checks that they validate what the form
 * validates: the zod schema of `./page-zod.ts` and ajv as `./fastify.ts` sets it up (draft-07,
 * Fastify's default options with the strict ones over them, ajv-formats) must give the generated
 * validator's verdict on every value tried: each body of `bench/corpus/` and each body given
 * (the attack mix's mutations) that `JSON.parse` accepts, and edits of the valid 1 KiB page at
 * each keyword of the form (a member too many, a bound passed by one, a wrong constant, a
 * repeated mark, a link that is no URL, nesting past the unrolled lists).
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import type { CompiledForm } from "../../src/address/form.ts";
import { FASTIFY_AJV_OPTIONS, fastifySchema } from "./fastify.ts";
import { pageSchema } from "./page-zod.ts";

/** Fastify's ajv defaults (@fastify/ajv-compiler), which `FASTIFY_AJV_OPTIONS` partly overrides. */
const FASTIFY_DEFAULTS = { coerceTypes: "array", useDefaults: true, removeAdditional: true, allErrors: false } as const;

type Page = { title: string; blocks: Record<string, unknown>[] };

/** Edits of a valid page, each breaking one keyword of the form (or, the last two, none). */
function edits(page: Page): [string, unknown][] {
  const copy = () => structuredClone(page);
  const span = { text: "x", style: [] as string[] };
  const nested = (depth: number): Record<string, unknown> => ({
    type: "list",
    ordered: false,
    items: [{ spans: [span], ...(depth > 1 ? { children: nested(depth - 1) } : {}) }],
  });
  const edit = (name: string, change: (p: Page) => void): [string, unknown] => {
    const p = copy();
    change(p);
    return [name, p];
  };
  return [
    edit("an unknown member at the root", (p) => Object.assign(p, { extra: 1 })),
    edit("a title of 201 characters", (p) => (p.title = "t".repeat(201))),
    edit("201 blocks", (p) => (p.blocks = Array.from({ length: 201 }, () => ({ type: "paragraph", spans: [] })))),
    edit("a heading of level 4", (p) => p.blocks.push({ type: "heading", level: 4, spans: [] })),
    edit("a heading of level 2.5", (p) => p.blocks.push({ type: "heading", level: 2.5, spans: [] })),
    edit("a block of an unknown type", (p) => p.blocks.push({ type: "quote", spans: [] })),
    edit("a repeated mark", (p) =>
      p.blocks.push({ type: "paragraph", spans: [{ text: "x", style: ["bold", "bold"] }] }),
    ),
    edit("an unknown mark", (p) => p.blocks.push({ type: "paragraph", spans: [{ text: "x", style: ["under"] }] })),
    edit("a link without a scheme", (p) =>
      p.blocks.push({ type: "paragraph", spans: [{ ...span, href: "example.com" }] }),
    ),
    edit("a span without style", (p) => p.blocks.push({ type: "paragraph", spans: [{ text: "x" }] })),
    edit("101 spans", (p) => p.blocks.push({ type: "paragraph", spans: Array.from({ length: 101 }, () => span) })),
    edit("a text of 2001 characters", (p) =>
      p.blocks.push({ type: "paragraph", spans: [{ text: "x".repeat(2001), style: [] }] }),
    ),
    edit("lists nested five deep", (p) => p.blocks.push(nested(5))),
    edit("lists nested four deep (valid)", (p) => p.blocks.push(nested(4))),
    edit("a heading of level 2.0 (valid)", (p) => p.blocks.push({ type: "heading", level: 2.0, spans: [span] })),
  ];
}

/**
 * Throws unless zod and Fastify's ajv agree with `form` on every value tried; returns how many
 * values were tried and how many of them the form accepts.
 */
export function checkPeerAgreement(form: CompiledForm, files: readonly string[]): { tried: number; valid: number } {
  const ajv = new Ajv({ ...FASTIFY_DEFAULTS, ...FASTIFY_AJV_OPTIONS });
  addFormats.default(ajv);
  const ajvValidate = ajv.compile(fastifySchema(form));
  const dir = join(import.meta.dirname, "../corpus");
  const texts: [string, string][] = [
    ...readdirSync(dir)
      .filter((file) => file.endsWith(".json") && file !== "manifest.json")
      .map((file): [string, string] => [file, readFileSync(join(dir, file), "utf8")]),
    ...files.map((file): [string, string] => [file, readFileSync(file, "latin1")]),
  ];
  const values: [string, unknown][] = [];
  for (const [name, text] of texts) {
    try {
      values.push([name, JSON.parse(text)]);
    } catch {
      // Not JSON: every peer refuses it before validation.
    }
  }
  values.push(...edits(JSON.parse(readFileSync(join(dir, "valid-1k.json"), "utf8")) as Page));
  let valid = 0;
  for (const [name, value] of values) {
    const ours = form.validate(value);
    const zod = pageSchema.safeParse(value).success;
    const fastify = ajvValidate(structuredClone(value));
    if (zod !== ours || fastify !== ours)
      throw new Error(`peers disagree with the form on ${name}: form ${ours}, zod ${zod}, Fastify's ajv ${fastify}`);
    if (ours) valid++;
  }
  return { tried: values.length, valid };
}
