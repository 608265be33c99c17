/**
 * The page for people (issue 14): size of the page script each form in `forms/` ships, which
 * holds the runtime, the form's generated validator, a check per field and the page data (each
 * part also gzipped alone). The budget is 12 KiB gzipped (level 9) for the example page form,
 * validator included.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { compileForm } from "../src/compile/compile-form.ts";
import { buildArrivalPage } from "../src/compile/page.ts";

/** Page script budget of the example page form, gzipped bytes. */
const BUDGET = 12 * 1024;

const gzip = (text: string): number => gzipSync(text, { level: 9 }).length;
const kib = (bytes: number): string => (bytes / 1024).toFixed(2);

export default async function pageBench(): Promise<void> {
  const forms = fileURLToPath(new URL("../forms/", import.meta.url).href);
  const head = [
    "form",
    "page HTML KiB",
    "script KiB",
    "script KiB gzip",
    "runtime KiB gzip",
    "validator KiB gzip",
    "checks + data KiB gzip",
  ];
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map((_, k) => (k === 0 ? " --- " : " ---: ")).join("|")}|`);
  let pageScript = 0;
  for (const file of readdirSync(forms)
    .filter((name) => name.endsWith(".json"))
    .sort()) {
    const arrival = JSON.parse(readFileSync(forms + file, "utf8")) as { p: string; m: unknown[]; s: unknown };
    const name = file.slice(0, -".json".length);
    const built = buildArrivalPage(arrival, { name, validator: compileForm(arrival.s, { source: `forms/${file}` }) });
    const text = built.script?.text ?? "";
    const start = text.indexOf("\ngptAddressPage(");
    const end = text.indexOf(",\n[", start);
    const whole = gzip(text);
    const validator = gzip(text.slice(start, end));
    if (name === "page") pageScript = whole;
    const row = [
      name,
      kib(Buffer.byteLength(built.html)),
      kib(Buffer.byteLength(text)),
      kib(whole),
      kib(gzip(text.slice(0, start))),
      kib(validator),
      kib(gzip(text.slice(end))),
    ];
    console.log(`| ${row.join(" | ")} |`);
  }
  console.log(
    `\npage script of forms/page.json: ${pageScript} bytes gzipped (${kib(pageScript)} KiB; budget ≤ 12 KiB ${pageScript <= BUDGET ? "met" : "NOT met"})`,
  );
}
