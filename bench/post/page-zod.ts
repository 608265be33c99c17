/**
 * The page workload's form (`bench/page.form.json`) written by hand in zod, for the peers of the
 * POST bench that validate with zod (Hono + `@hono/zod-validator`, the MCP SDK servers).
 *
 * Written by hand, not generated, because that is how zod's users write it (a zod schema is the
 * source, not a JSON Schema); `z.fromJSONSchema` exists but is marked experimental. Keyword by
 * keyword it is the form: closed objects are `z.strictObject` (`additionalProperties: false`),
 * `required` members are the ones not `.optional()`, `maxLength`/`maxItems`/`minimum`/`maximum`
 * are `.max()`/`.min()`, `const` is `z.literal`, `enum` is `z.enum`, `pattern` is `.regex()`,
 * `uniqueItems` is a `.refine()`, and the lists stay unrolled to four levels. Two differences,
 * neither reached by the bench's bodies: zod's string lengths count UTF-16 code units where
 * JSON Schema counts code points (stricter only for texts of astral characters near the bound),
 * and a block's `anyOf` is a `z.discriminatedUnion` on `type`, as a zod author would write it
 * (each branch has its own `type` constant, so the two accept the same values). The POST bench
 * checks before it measures that this schema and the form agree on every corpus body and on the
 * seeded mutations that `JSON.parse` accepts (`bench/post.bench.ts`).
 *
 * @module
 */
import { z } from "zod";

const MARKS = ["bold", "italic", "code", "strike"] as const;

const span = z.strictObject({
  text: z.string().max(2000),
  style: z
    .array(z.enum(MARKS))
    .max(4)
    .refine((marks) => new Set(marks).size === marks.length, "uniqueItems"),
  href: z
    .string()
    .max(2048)
    .regex(/^https?:\/\//u)
    .optional(),
});
const spans = z.array(span).max(100);

/** A list of `items` at one level of the unrolled nesting. */
const list = <T extends z.ZodType>(item: T) =>
  z.strictObject({ type: z.literal("list"), ordered: z.boolean(), items: z.array(item).max(50) });
const item4 = z.strictObject({ spans });
const item3 = z.strictObject({ spans, children: list(item4).optional() });
const item2 = z.strictObject({ spans, children: list(item3).optional() });
const item1 = z.strictObject({ spans, children: list(item2).optional() });

const block = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("heading"), level: z.int().min(1).max(3), spans }),
  z.strictObject({ type: z.literal("paragraph"), spans }),
  list(item1),
]);

/** The page form as a zod schema. */
export const pageSchema = z.strictObject({
  title: z.string().max(200),
  blocks: z.array(block).max(200),
});
