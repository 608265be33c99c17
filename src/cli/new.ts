/**
 * `gpt-address new <name>`: writes a new address into a project: `forms/<name>.json` (a safe
 * skeleton that lints clean), `src/<name>.ts` (the typed act) and `test/<name>.test.ts` (a
 * `node --test` file that builds the form, then checks GET, a valid act and a rejected one).
 *
 * @module
 */
import { access, mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { defineCommand } from "citty";
import { exitCodes, ioOf, UsageError } from "./shared.ts";

/** The name rule of `forms/` (it becomes a URL path segment and a module name). */
const NAME = /^[a-z][a-z0-9-]{0,62}$/;

const camel = (name: string) => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The form skeleton: closed, every string bounded, a `p` that says how to act, an `m` that `s` accepts. */
export function formSkeleton(name: string): unknown {
  return {
    p: `This is the ${name} address. To act, send one HTTP POST to this same address whose body is a single JSON value that validates against the JSON Schema in s, with Content-Type: application/json. Send only the JSON value: no text before or after it, no member the schema does not name. On success the answer is 200 with JSON {"received": true}; a body that does not match gets 204 with no content.`,
    m: [
      { role: "user", content: "Say hello." },
      { role: "assistant", content: '{"message": "Hello."}' },
    ],
    s: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: name,
      description: `An act of the ${name} address: one short message.`,
      type: "object",
      additionalProperties: false,
      required: ["message"],
      properties: { message: { type: "string", minLength: 1, maxLength: 280 } },
    },
  };
}

function actSource(name: string): string {
  const fn = `${camel(name)}Address`;
  return `/**
 * The ${name} address: GET serves forms/${name}.json, POST runs the act below on a value the form
 * accepts (anything else gets 204). Build the form first (\`buildForms\` from gpt-address/compile).
 *
 * @module
 */
import { address, type CompiledForm } from "gpt-address";
import type { Act } from "./generated/${name}.js";

/** What a valid act answers (200 JSON). */
export interface Received {
  readonly received: true;
  /** The message's length in UTF-16 code units. */
  readonly length: number;
}

/** The ${name} address as a Hono app, for the form built from forms/${name}.json. */
export function ${fn}(form: CompiledForm<Act>) {
  return address({ form, act: (act): Received => ({ received: true, length: act.message.length }) });
}
`;
}

function testSource(name: string): string {
  const fn = `${camel(name)}Address`;
  return `// Run with: node --test test/${name}.test.ts (Node >= 22.18)
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { buildForms } from "gpt-address/compile";
import { ${fn} } from "../src/${name}.ts";

const root = join(import.meta.dirname, "..");
const findings: unknown[] = [];
const built = await buildForms({
  root,
  outDir: "src/generated",
  onLint: (file, found) => {
    if (file === join("forms", "${name}.json")) findings.push(...found);
  },
});
const entry = built.find((form) => form.name === ${JSON.stringify(name)});
if (entry === undefined) throw new Error("forms/${name}.json was not built");
const { form } = await import(pathToFileURL(join(root, entry.module)).href);
const app = ${fn}(form);
const post = (body: string) => app.request("/", { method: "POST", headers: { "content-type": "application/json" }, body });

test("the form lints clean (no finding at all)", () => {
  assert.deepEqual(findings, []);
});

test("A1 GET serves the form", async () => {
  const response = await app.request("/");
  assert.equal(response.status, 200);
  assert.deepEqual(Object.keys(await response.json()), ["p", "m", "s"]);
});

test("R1 a valid act is answered 200 with its consequence", async () => {
  const response = await post('{"message": "Hello."}');
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { received: true, length: 6 });
});

test("R2 an act the form rejects (a member it does not name) is answered 204 with no body", async () => {
  const response = await post('{"message": "Hello.", "extra": 1}');
  assert.equal(response.status, 204);
  assert.equal(await response.text(), "");
});
`;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export default defineCommand({
  meta: {
    name: "new",
    description: "Write a new address: forms/<name>.json, src/<name>.ts (the typed act), test/<name>.test.ts.",
  },
  args: {
    name: { type: "positional", description: "The address name (lower case, digits, hyphens)", required: true },
    dir: { type: "string", description: "The project folder (default: the current folder)", valueHint: "folder" },
  },
  async run(context) {
    const io = ioOf(context);
    const name = String(context.args.name);
    if (!NAME.test(name))
      throw new UsageError(`the name must match ${NAME.source} (it becomes a path and a module name)`);
    const root = resolve(io.cwd, context.args.dir ?? ".");
    const files: Record<string, string> = {
      [join("forms", `${name}.json`)]: `${JSON.stringify(formSkeleton(name), null, 2)}\n`,
      [join("src", `${name}.ts`)]: actSource(name),
      [join("test", `${name}.test.ts`)]: testSource(name),
    };
    for (const file of Object.keys(files))
      if (await exists(join(root, file))) throw new UsageError(`${file} exists; nothing was written`);
    for (const [file, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, file)), { recursive: true });
      await writeFile(join(root, file), text);
      io.stdout(`wrote ${file}\n`);
    }
    return exitCodes.ok;
  },
});
