/**
 * The page for people as built (A6, issue 14): the controls generated from `s`, the one inline
 * module script and the policy that allows it by hash, the script budget, escaping, and
 * every form the compiler accepts renders.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compileForm } from "../../../src/compile/compile-form.ts";
import { FormError } from "../../../src/compile/form-error.ts";
import { moduleExpression } from "../../../src/compile/page/script.ts";
import { ruleWords } from "../../../src/compile/page/words.ts";
import { buildArrivalPage } from "../../../src/compile/page.ts";
import { suiteGroups } from "../compile/suite-files.ts";
import { bookingForm, bookingPattern } from "./booking-form.ts";

const pageForm = JSON.parse(readFileSync(join(import.meta.dirname, "../../../forms/page.json"), "utf8")) as {
  p: string;
  m: { role: string; content: string }[];
  s: Record<string, unknown>;
};

function build(s: unknown, name = "test") {
  const arrival = { p: "Send it.", m: [], s };
  return buildArrivalPage(arrival, { name, validator: compileForm(s) });
}

/** The text of every `<script>` element, with its attributes. */
function scripts(html: string): { attributes: string; text: string }[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({
    attributes: m[1] as string,
    text: m[2] as string,
  }));
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

describe("A6 the page's controls, generated from the page form", () => {
  const page = build(pageForm.s, "page");

  it("A6 names controls by the form: title textbox, a select of block kinds, Add/Remove buttons, Add children", () => {
    expect(page.html).toMatch(
      /<label>title<span class="req" aria-hidden="true"> \*<\/span> <input type="text" minlength="1" aria-required="true"/,
    );
    expect(page.html).toContain(">Add block</button>");
    expect(page.html).toContain(">Remove block <span data-n></span></button>");
    expect(page.html).toContain(">Add span</button>");
    expect(page.html).toContain(">Add children</button>");
    expect(page.html).toMatch(
      /<select><option value="0">heading<\/option><option value="1">paragraph<\/option><option value="2">list<\/option><\/select>/,
    );
    // text (maxLength 1999, no pattern) is a textarea; href (with a pattern) a text input.
    expect(page.html).toMatch(/<label>text<span class="req" aria-hidden="true"> \*<\/span> <textarea/);
    expect(page.html).toMatch(/<label>href <input type="text"/);
    // The marks are a group of checkboxes, the level a number input with its bounds.
    expect(page.html).toMatch(/<legend>marks<\/legend>\n<label class="check"><input type="checkbox"> bold<\/label>/);
    expect(page.html).toMatch(/<input type="number" step="1" min="1" max="3" aria-required="true">/);
  });

  it("A6 the form carries no declarative WebMCP attributes (one tool per address, the imperative one with s)", () => {
    expect(page.html).not.toMatch(/toolname|tooldescription/i);
    expect(page.html).toContain('<form id="gpt-form" aria-labelledby="gpt-fill" novalidate hidden data-js>');
  });

  it("A6 one inline module script, allowed by its SHA-256 in the meta policy and the field policy", () => {
    const [script, ...others] = scripts(page.html);
    expect(others).toEqual([]);
    expect(script?.attributes).toBe(' type="module"');
    const hash = sha256(script?.text ?? "");
    expect(page.script?.hash).toBe(hash);
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/
      .exec(page.html)?.[1]
      ?.replaceAll("&#39;", "'");
    expect(meta).toBe(
      `default-src 'none'; script-src 'sha256-${hash}'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'`,
    );
    expect(page.contentSecurityPolicy).toBe(`${meta}; frame-ancestors 'none'`);
    expect(page.html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
  });

  it("A6 the page script, validator included, stays within 12 KiB gzipped for the page form", () => {
    const gzipped = gzipSync(page.script?.text ?? "", { level: 9 }).length;
    expect(gzipped).toBeGreaterThan(1000);
    expect(gzipped).toBeLessThanOrEqual(12 * 1024);
  });

  it("A6 the mcp-app page (issue 14 §5): same controls and validator, the bridge appended, no connect-src, within 12 KiB gzipped", () => {
    const app = buildArrivalPage(
      { p: pageForm.p, m: pageForm.m, s: pageForm.s },
      { name: "page", validator: compileForm(pageForm.s), mode: "mcp-app" },
    );
    const gzipped = gzipSync(app.script?.text ?? "", { level: 9 }).length;
    expect(gzipped).toBeLessThanOrEqual(12 * 1024);
    expect(app.script?.text).toContain("\nfunction gptAddressBridge(D, onInput) {");
    expect(page.script?.text).not.toContain("function gptAddressBridge(");
    expect(app.contentSecurityPolicy).not.toContain("connect-src");
    expect(page.contentSecurityPolicy).toContain("connect-src 'self'");
    // One generator: the same controls.
    const controls = (html: string) =>
      html.slice(html.indexOf('<form id="gpt-form"'), html.indexOf("<h2>For programs"));
    expect(controls(app.html)).toBe(controls(page.html));
    console.log(
      `mcp-app page script: ${gzipped} B gzipped (http page: ${gzipSync(page.script?.text ?? "", { level: 9 }).length} B)`,
    );
  });

  it("V3 the script holds the address's own generated validator, byte for byte apart from its two exports", () => {
    const validator = compileForm(pageForm.s);
    expect(page.script?.text).toContain(`\ngptAddressPage(${moduleExpression(validator)},\n[`);
  });

  it("A6 without a validator the page only describes the form and runs no script", () => {
    const plain = buildArrivalPage({ p: "x", m: [], s: { type: "object" } });
    expect(scripts(plain.html)).toEqual([]);
    expect(plain.contentSecurityPolicy).not.toContain("script-src");
    expect(plain.html).not.toContain("<form");
  });
});

describe("A6 words for each rule", () => {
  it("A6 names each keyword location's rule in words", () => {
    const words = ruleWords(pageForm.s);
    expect(words["/properties/title/maxLength"]).toBe("must be at most 200 characters long");
    expect(words["/properties/title/minLength"]).toBe("must not be empty");
    expect(words["/$defs/span/properties/href/pattern"]).toBe("does not have the expected form");
    expect(words["/$defs/heading/properties/level/maximum"]).toBe("must be at most 3");
    expect(words["/$defs/block/anyOf"]).toBe("must match one of the alternatives");
    expect(words["/required"]).toBe("is required");
  });
});

describe("A6 required marks, native inputs and plain words (issue 30)", () => {
  const page = build(bookingForm, "booking");
  /** The markup of the field of member `name` (its `data-p`). */
  const field = (name: string): string => {
    const match = new RegExp(`<(div|fieldset) class="field"[^>]*data-p="${name}"[^>]*>[\\s\\S]*?</\\1>`).exec(
      page.html,
    );
    if (match === null) throw new Error(`no field ${name}`);
    return match[0];
  };
  const mark = '<span class="req" aria-hidden="true"> *</span>';

  it("A6 every required member is marked * and its control aria-required, whatever its type; optional ones are not", () => {
    for (const name of ["day", "time", "arrival", "email", "slot", "name", "guests", "room", "extra"]) {
      expect(field(name), name).toContain(mark);
      expect(field(name), name).toMatch(/<(input|select|textarea)\b[^>]* aria-required="true"[ >]/);
      // Not the native attribute: the form is novalidate, and Chromium would announce an empty
      // required select or date input as invalid before the person did anything.
      expect(field(name), name).not.toMatch(/ required[ >]/);
    }
    for (const name of ["website", "seating"]) {
      expect(field(name), name).not.toContain(mark);
      expect(field(name), name).not.toMatch(/required/);
    }
    // A required list with minItems is marked in its legend; a required boolean is a checkbox
    // whose unchecked state is an answer (false), so it has nothing to fill and no mark.
    expect(page.html).toMatch(
      new RegExp(
        `<fieldset data-k="array"[^>]*data-p="notes" data-r><legend>notes${mark.replace(/[*]/g, "\\*")}</legend>`,
      ),
    );
    expect(field("vegetarian")).toContain('<input type="checkbox">');
    expect(field("vegetarian")).not.toContain(mark);
  });

  it("A6 a required enum offers no silent default: it starts at (choose), which sends nothing", () => {
    expect(field("room")).toContain(
      '<select aria-required="true"><option value="">(choose)</option><option value="0">garden</option>',
    );
    expect(field("seating")).toContain('<select><option value="">(none)</option><option value="0">window</option>');
  });

  it("A6 the formats date, time, date-time, email and uri get native inputs; time and date-time are converted by the script", () => {
    const type = (name: string) => /<input type="([a-z-]+)"/.exec(field(name))?.[1];
    expect(type("day")).toBe("date");
    expect(type("time")).toBe("time");
    expect(type("arrival")).toBe("datetime-local");
    expect(type("email")).toBe("email");
    expect(type("website")).toBe("url");
    expect(type("slot")).toBe("text");
    expect(field("time")).toContain('data-f="time"');
    expect(field("arrival")).toContain('data-f="date-time"');
    expect(field("day")).not.toContain("data-f");
    // A picker takes no text attributes (minlength, pattern and spellcheck do not apply to it).
    expect(field("day")).not.toMatch(/minlength|pattern|spellcheck/);
    expect(field("arrival")).toContain("Sent with this browser&#39;s offset from UTC.");
  });

  it("A6 words are plain: no regular expression, and the description is the field's hint, not spliced into a sentence", () => {
    const words = ruleWords(bookingForm);
    expect(words["/properties/slot/pattern"]).toBe("does not have the expected form");
    expect(words["/properties/day/format"]).toBe("must be a date, such as 2025-06-01");
    expect(words["/properties/arrival/format"]).toMatch(/^must be a date and time with its offset from UTC, such as /);
    expect(words["/properties/website/format"]).toBe("must be an absolute address (URI), such as https://example.org/");
    for (const text of Object.values(words)) {
      expect(text).not.toContain(bookingPattern);
      expect(text).not.toMatch(/pattern|The time/);
    }
    expect(field("slot")).toContain('<p class="help" data-help>The time, HH:MM, from 12:00 to 19:59.</p>');
    // What a person reads: the markup without the script, the schema shown to programs and
    // the pattern attribute.
    const read = page.html
      .replace(/<script\b[\s\S]*?<\/script>/g, "")
      .replace(/<pre id="gpt-schema">[\s\S]*?<\/pre>/, "")
      .replace(/ pattern="[^"]*"/g, "");
    expect(read).not.toContain("1[2-9]");
    expect(read).not.toMatch(/\(pattern /);
  });
});

describe("A6 the words of each door (issue 30 item 11)", () => {
  it("A6 the page tells a person s.description; p, the HTTP actor's words, stands under For programs", () => {
    const page = build(bookingForm, "booking");
    const [top, programs] = page.html.split("<h2>For programs</h2>");
    expect(top).toContain(`<h1>booking</h1>\n<p class="content">${bookingForm.description}</p>`);
    expect(top).not.toContain("Send it.");
    expect(programs).toContain('<p class="content">Send it.</p>');
  });

  it("A6 without s.description the page tells a person p, once", () => {
    const { description: _, ...plain } = bookingForm;
    const page = build(plain, "booking");
    expect(page.html.replace(/<script\b[\s\S]*?<\/script>/g, "").split("Send it.")).toHaveLength(2);
    expect(page.html).toContain('<h1>booking</h1>\n<p class="content">Send it.</p>');
  });
});

describe("S1 the page escapes what the form author wrote", () => {
  const hostile = `</script><script>alert(1)</script><img src=x onerror=alert(2)>"'&`;
  const s = {
    title: hostile,
    description: hostile,
    type: "object",
    required: ["a"],
    properties: {
      [hostile]: { type: "string", title: hostile, description: hostile },
      a: { const: hostile },
      b: { enum: [hostile, 1] },
    },
  };
  const page = build(s);

  it("S1 titles, descriptions, member names and values are escaped; only the page's own script runs", () => {
    expect(scripts(page.html)).toHaveLength(1);
    const markup = page.html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
    expect(markup).not.toContain("<img");
    expect(markup).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("S1 a `</script` inside the form's values cannot end the script, and the validator still means the same", () => {
    const text = page.script?.text ?? "";
    expect(text).not.toMatch(/<\/script|<!--/i);
    const start = text.indexOf("\ngptAddressPage(") + "\ngptAddressPage(".length;
    const validator = `const V = ${text.slice(start, text.indexOf(",\n[", start))};`;
    const valid = { a: hostile, [hostile]: "x", b: 1 };
    const run = (value: unknown) => runInNewContext(`${validator}\nV.validate(value)`, { value }) as boolean;
    expect(run(valid)).toBe(true);
    expect(run({ ...valid, a: "other" })).toBe(false);
  });
});

describe("A6 every form the compiler accepts gets a page", () => {
  it("A6 the JSON-Schema-Test-Suite schemas that compile all render, recursive ones included", () => {
    let rendered = 0;
    for (const group of suiteGroups()) {
      if (typeof group.schema !== "object" || group.schema === null) continue;
      let validator: string;
      try {
        validator = compileForm(group.schema);
      } catch (error) {
        if (error instanceof FormError) continue;
        throw error;
      }
      const page = buildArrivalPage({ p: "", m: [], s: group.schema }, { name: "suite", validator });
      expect(scripts(page.html), group.id).toHaveLength(1);
      rendered++;
    }
    expect(rendered).toBeGreaterThan(250);
  });

  it("A6 a module that is not the compiler's shape is refused", () => {
    expect(() => moduleExpression("export const x = 1;\nexport function validate(d) { return true; }")).toThrow(
      TypeError,
    );
  });
});
