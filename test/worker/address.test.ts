/**
 * address() inside workerd, on the example page form: one or more tests per requirement id
 * (DESIGN.md §1), every rejection paired with an accepted control that differs in one respect.
 */
import { type Schema, Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { form } from "../../examples/pages/generated/page.js";
import type { ActLogEntry } from "../../src/address/act-log.ts";
import { invalid, valid } from "./fixtures.ts";
import {
  capturingErrors,
  encode,
  expectAccepted,
  expectLoggedFaults,
  expectRejected,
  fields,
  harness,
} from "./harness.ts";

const releaseNotes = valid["valid-release-notes.json"];
const recipe = valid["valid-recipe.json"];
const minimal = (title: string) => JSON.stringify({ title, blocks: [{ type: "paragraph", spans: [{ text: "Hi." }] }] });

/** A page whose one paragraph holds `span`. */
const withSpan = (span: unknown) => JSON.stringify({ title: "T", blocks: [{ type: "paragraph", spans: [span] }] });

describe("A1 the form needs no header, query, cookie or earlier request", () => {
  it("A1 GET with no header at all answers 200 with the arrival bytes", async () => {
    const h = harness();
    const response = await h.fetch();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(form.arrival);
  });

  it("A1 a query string, a cookie or other headers change nothing", async () => {
    const h = harness();
    const plain = await h.fetch();
    const decorated = await h.fetch(
      { headers: { Cookie: "session=abc", Authorization: "Bearer x", "GPT-Actor": "someone" } },
      "/page?x=1&y=2",
    );
    expect(decorated.status).toBe(200);
    expect(await decorated.text()).toBe(await plain.text());
    expect(fields(decorated)).toEqual(fields(plain));
  });
});

describe("A2 the arrival document", () => {
  it("A2 200, Content-Type application/json, an object with p string, m [{role, content}], s object", async () => {
    const response = await harness().fetch();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const arrival = (await response.json()) as Record<string, unknown>;
    expect(typeof arrival.p).toBe("string");
    expect(Array.isArray(arrival.m)).toBe(true);
    for (const message of arrival.m as unknown[]) {
      expect(message).toEqual({ role: expect.any(String), content: expect.any(String) });
    }
    expect(arrival.s).toBeTypeOf("object");
    expect((arrival.s as Record<string, unknown>).$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("A2 the example exchange in m is itself a valid act", async () => {
    const arrival = JSON.parse(form.arrival) as { m: { role: string; content: string }[] };
    const example = arrival.m.find((message) => message.role === "assistant")!;
    const h = harness();
    await expectAccepted(h, await h.post(example.content));
  });
});

describe("A3 extra members of the arrival document", () => {
  it("A3 an arrival with members beyond p, m, s is served byte for byte", async () => {
    const arrival = JSON.stringify({ p: "x", m: [], s: { type: "boolean" }, "x-note": { v: 1 } });
    const h = harness({ form: { ...form, arrival } });
    const body = await (await h.fetch()).text();
    expect(body).toBe(arrival);
    expect(JSON.parse(body)["x-note"]).toEqual({ v: 1 });
  });
});

describe("A4 GPT-Type is advisory", () => {
  it("A4 gptType adds GPT-Type to GET, HEAD and 304, and lets browsers read it", async () => {
    const h = harness({ gptType: "page" });
    const get = await h.fetch();
    expect(get.headers.get("gpt-type")).toBe("page");
    expect(get.headers.get("access-control-expose-headers")).toContain("GPT-Type");
    expect((await h.fetch({ method: "HEAD" })).headers.get("gpt-type")).toBe("page");
    expect((await h.fetch({ headers: { "If-None-Match": form.etag } })).headers.get("gpt-type")).toBe("page");
  });

  it("A4 without gptType there is no GPT-Type, and acts are judged the same either way", async () => {
    const plain = harness();
    expect((await plain.fetch()).headers.get("gpt-type")).toBeNull();
    const typed = harness({ gptType: "page" });
    await expectAccepted(plain, await plain.post(recipe));
    await expectAccepted(typed, await typed.post(recipe));
    await expectRejected(plain, await plain.post(invalid["invalid-http-link.json"]), "schema");
    await expectRejected(typed, await typed.post(invalid["invalid-http-link.json"]), "schema");
  });
});

describe("A5 nothing varies with earlier contact", () => {
  it("A5 the same GET before and after acts, with and without cookies, is identical and sets no cookie", async () => {
    const h = harness();
    const first = await h.fetch();
    const firstBody = await first.text();
    await expectAccepted(h, await h.post(recipe));
    await expectRejected(h, await h.post(invalid["invalid-truncated.json"]), "json-syntax:unexpected-end");
    const later = await h.fetch({ headers: { Cookie: "seen=1" } });
    expect(await later.text()).toBe(firstBody);
    expect(fields(later)).toEqual(fields(first));
    expect(first.headers.get("set-cookie")).toBeNull();
    expect(later.headers.get("set-cookie")).toBeNull();
  });

  it("A5 act answers set no cookie either", async () => {
    const h = harness();
    const accepted = await h.post(recipe);
    expect(accepted.headers.get("set-cookie")).toBeNull();
    await expectAccepted(h, accepted);
    const rejected = await h.post("{}");
    expect(rejected.headers.get("set-cookie")).toBeNull();
    await expectRejected(h, rejected, "schema");
  });
});

describe("A6 the page for people, by Accept", () => {
  const cases: [string | null, "json" | "html"][] = [
    [null, "json"],
    ["application/json", "json"],
    ["*/*", "json"],
    ["text/*", "json"],
    ["image/png", "json"],
    ["text/html", "html"],
    ["TEXT/HTML", "html"],
    ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "html"],
    ["text/html;q=0", "json"],
    ["text/html;q=0.5, */*", "json"],
    ["text/html;q=0.5, application/json;q=0.4", "html"],
    ["application/json, text/html;q=0.9", "json"],
    ["application/json, text/html", "html"],
    ["application/*;q=0.9, text/html;q=0.9", "html"],
    ["text/html;q=0.8, application/*;q=0.9, application/json;q=0.5", "html"],
    ["text/html;q=2", "json"],
  ];
  for (const [accept, expected] of cases) {
    it(`A6 Accept ${accept === null ? "(none)" : JSON.stringify(accept)} gets the ${expected === "html" ? "HTML page" : "JSON form"}`, async () => {
      const response = await harness().fetch(accept === null ? {} : { headers: { Accept: accept } });
      expect(response.status).toBe(200);
      expect(response.headers.get("vary")).toBe("Accept");
      if (expected === "json") {
        expect(response.headers.get("content-type")).toBe("application/json");
        expect(await response.text()).toBe(form.arrival);
      } else {
        expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(await response.text()).toBe(form.page);
      }
    });
  }

  it("A6 the page shows p and the form; its one script is inline and allowed by its hash; nothing loads; private with its own ETag", async () => {
    const response = await harness().fetch({ headers: { Accept: "text/html" } });
    const page = await response.text();
    expect(page).toContain('<pre id="gpt-schema">');
    expect(page).toContain("&quot;$schema&quot;");
    expect(page).toContain("This address publishes a page of rich text");
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.map((script) => script[1])).toEqual([' type="module"']);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(scripts[0]?.[2]));
    const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`script-src 'sha256-${hash}';`);
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("form-action 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    // No inline event handler, nothing fetched from elsewhere.
    expect(page).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
    expect(page).not.toMatch(/\s(src|href)\s*=/i);
    expect(response.headers.get("cache-control")).toMatch(/^private\b/);
    expect(response.headers.get("etag")).toBe(form.pageEtag);
    expect(form.pageEtag).not.toBe(form.etag);
  });
});

describe("S4 caching: ETag, Cache-Control, 304, HEAD", () => {
  it("S4 the JSON form carries a strong ETag and a public Cache-Control with stale-while-revalidate", async () => {
    const response = await harness().fetch();
    expect(response.headers.get("etag")).toBe(form.etag);
    expect(form.etag).toMatch(/^"[^"]+"$/);
    expect(response.headers.get("cache-control")).toMatch(/^public, .*max-age=\d+.*stale-while-revalidate=\d+/);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("S4 cacheControl replaces the default for the JSON form only", async () => {
    const h = harness({ cacheControl: "public, max-age=60" });
    expect((await h.fetch()).headers.get("cache-control")).toBe("public, max-age=60");
    expect((await h.fetch({ headers: { Accept: "text/html" } })).headers.get("cache-control")).toMatch(/^private\b/);
  });

  for (const [what, field] of [
    ["the ETag", form.etag],
    ["a weak form of the ETag", `W/${form.etag}`],
    ["a list holding the ETag", `"other", ${form.etag}, "x,y"`],
    ["*", "*"],
  ] as const) {
    it(`S4 If-None-Match with ${what} gets 304 with the cache fields and no body`, async () => {
      const h = harness();
      const response = await h.fetch({ headers: { "If-None-Match": field } });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe("");
      expect(response.headers.get("etag")).toBe(form.etag);
      expect(response.headers.get("vary")).toBe("Accept");
      expect(response.headers.get("cache-control")).toMatch(/^public/);
    });
  }

  it("S4 If-None-Match with another tag, or a malformed field, gets the full 200 (control)", async () => {
    const h = harness();
    for (const field of ['"other"', `${form.etag.slice(0, -2)}"`, "garbage", `W/"${form.pageEtag}"`]) {
      const response = await h.fetch({ headers: { "If-None-Match": field } });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(form.arrival);
    }
  });

  it("S4 the HTML page revalidates against its own ETag, never the JSON one", async () => {
    const h = harness();
    const html = { Accept: "text/html" };
    expect((await h.fetch({ headers: { ...html, "If-None-Match": form.pageEtag } })).status).toBe(304);
    expect((await h.fetch({ headers: { ...html, "If-None-Match": form.etag } })).status).toBe(200);
    expect((await h.fetch({ headers: { "If-None-Match": form.pageEtag } })).status).toBe(200);
  });

  it("S4 HEAD mirrors GET: same status and fields, no body", async () => {
    const h = harness();
    for (const headers of [{}, { Accept: "text/html" }, { "If-None-Match": form.etag }] as Record<string, string>[]) {
      const get = await h.fetch({ headers });
      const head = await h.fetch({ method: "HEAD", headers });
      expect(head.status).toBe(get.status);
      expect(fields(head).filter(([name]) => name !== "content-length")).toEqual(
        fields(get).filter(([name]) => name !== "content-length"),
      );
      expect(await head.text()).toBe("");
    }
  });
});

describe("V1 bodies over the maximum size", () => {
  it("V1 a body one byte over maxBytes is rejected (content-too-large); exactly maxBytes is accepted", async () => {
    const size = encode(recipe).byteLength;
    const atLimit = harness({ maxBytes: size });
    await expectAccepted(atLimit, await atLimit.post(recipe));
    const overLimit = harness({ maxBytes: size - 1 });
    const rejection = await expectRejected(overLimit, await overLimit.post(recipe), "content-too-large");
    expect(rejection.reason).toContain(String(size - 1));
  });

  it("V1 a streamed body with no Content-Length is cut off at maxBytes; the same stream under the limit passes", async () => {
    const bytes = encode(recipe);
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 100) controller.enqueue(bytes.slice(i, i + 100));
          controller.close();
        },
      });
    const ok = harness({ maxBytes: bytes.length });
    await expectAccepted(ok, await ok.post(stream()));
    const tight = harness({ maxBytes: bytes.length - 1 });
    await expectRejected(tight, await tight.post(stream()), "content-too-large");
  });

  it("V1 the default limit is 1 MiB: padding to 1,048,576 bytes passes, one byte more does not", async () => {
    const pad = (n: number) => recipe + " ".repeat(n - encode(recipe).byteLength);
    const h = harness();
    await expectAccepted(h, await h.post(pad(1_048_576)));
    await expectRejected(h, await h.post(pad(1_048_577)), "content-too-large");
  });

  it("V1 a lying Content-Length never lets a body through; the true one does (control)", async () => {
    const h = harness();
    const length = String(encode(recipe).byteLength);
    await expectAccepted(h, await h.post(recipe, { "Content-Length": length }));
    await expectRejected(h, await h.post(recipe, { "Content-Length": "12" }), "content-length-mismatch");
    await expectRejected(h, await h.post(recipe, { "Content-Length": `${length}, ${length}` }), "content-length");
    await expectRejected(h, await h.post(recipe, { "Content-Length": `+${length}` }), "content-length");
  });

  it("a stream that fails halfway is rejected (body-read); the same stream completing passes (control)", async () => {
    const bytes = encode(recipe);
    const stream = (fail: boolean) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, 1000));
          if (fail) controller.error(new TypeError("connection reset"));
          else {
            controller.enqueue(bytes.slice(1000));
            controller.close();
          }
        },
      });
    const h = harness();
    await expectAccepted(h, await h.post(stream(false)));
    await expectRejected(h, await h.post(stream(true)), "body-read");
  });

  it("a Content-Encoding other than identity is rejected unread; identity is accepted (control)", async () => {
    const h = harness();
    await expectAccepted(
      h,
      await h.post(recipe, { "Content-Type": "application/json", "Content-Encoding": "identity" }),
    );
    for (const coding of ["gzip", "br", "deflate", "identity, gzip"]) {
      await expectRejected(
        h,
        await h.post(recipe, { "Content-Type": "application/json", "Content-Encoding": coding }),
        "content-encoding",
      );
    }
  });
});

describe("V2 strict parsing of LLM-written bodies", () => {
  for (const name of Object.keys(valid) as (keyof typeof valid)[]) {
    it(`V2 accepts ${name}`, async () => {
      const h = harness();
      await expectAccepted(h, await h.post(valid[name]));
      expect(h.acts[0]!.value).toEqual(JSON.parse(valid[name]));
    });
  }

  it("V2 rejects a duplicate member at depth 9 (invalid-duplicate-member.json) that JSON.parse would silently merge; control release-notes passes", async () => {
    const body = invalid["invalid-duplicate-member.json"];
    // The one difference: a permissive parser reads exactly the control's value.
    expect(JSON.parse(body)).toEqual(JSON.parse(releaseNotes));
    const h = harness();
    await expectAccepted(h, await h.post(releaseNotes));
    await expectRejected(h, await h.post(body), "json-syntax:duplicate-name");
  });

  it("V2 rejects chatter after the value (invalid-trailing-chatter.json); control recipe passes", async () => {
    const body = invalid["invalid-trailing-chatter.json"];
    expect(body.startsWith(recipe)).toBe(true);
    const h = harness();
    await expectAccepted(h, await h.post(recipe));
    await expectRejected(h, await h.post(body), "json-syntax:trailing-bytes");
  });

  it("V2 rejects a markdown code fence around the value (invalid-code-fence.json); control recipe passes", async () => {
    const body = invalid["invalid-code-fence.json"];
    expect(body).toBe(`\`\`\`json\n${recipe}\`\`\`\n`);
    const h = harness();
    await expectAccepted(h, await h.post(recipe));
    await expectRejected(h, await h.post(body), "json-syntax:unexpected-byte");
  });

  it("V2 rejects a body cut off mid-string (invalid-truncated.json); control release-notes passes", async () => {
    const body = invalid["invalid-truncated.json"];
    expect(releaseNotes.startsWith(body)).toBe(true);
    const h = harness();
    await expectAccepted(h, await h.post(releaseNotes));
    await expectRejected(h, await h.post(body), "json-syntax:unexpected-end");
  });

  it("V2 rejects a root duplicate spelled with an escape (\\u0074itle); control with one title passes", async () => {
    const h = harness();
    const control = `{"title": "A", "blocks": [{"type": "paragraph", "spans": [{"text": "x"}]}]}`;
    await expectAccepted(h, await h.post(control));
    await expectRejected(
      h,
      await h.post(control.replace(`{"title": "A",`, `{"title": "A", "\\u0074itle": "A",`)),
      "json-syntax:duplicate-name",
    );
  });

  it("V2 rejects a second value after the first; trailing whitespace alone passes (control)", async () => {
    const h = harness();
    await expectAccepted(h, await h.post(`${minimal("A")}\n\n \t`));
    await expectRejected(h, await h.post(`${minimal("A")}\n${minimal("B")}`), "json-syntax:trailing-bytes");
  });

  it("V2 rejects a byte order mark; the same body without it passes (control)", async () => {
    const h = harness();
    await expectAccepted(h, await h.post(minimal("A")));
    await expectRejected(h, await h.post(`\uFEFF${minimal("A")}`), "json-syntax:byte-order-mark");
  });

  it("V2 rejects invalid UTF-8 a decoder emitted through byte tokens; valid UTF-8 passes (control)", async () => {
    const h = harness();
    const good = encode(minimal("é"));
    await expectAccepted(h, await h.post(good));
    const bad = good.slice();
    const at = bad.indexOf(0xc3);
    bad[at] = 0xc0; // overlong start byte in place of é's lead byte
    await expectRejected(h, await h.post(bad), "json-syntax:invalid-utf8");
  });

  it("V2 nesting beyond the form's own depth is rejected by the parser (depth-exceeded), not the validator", async () => {
    expect(form.maxDepth).toBeTypeOf("number");
    const h = harness();
    const nest = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    // At the limit the parser lets it through and the validator rejects it: the control.
    const within = `{"title":"A","blocks":${nest(form.maxDepth! - 1)}}`;
    await expectRejected(h, await h.post(within), "schema");
    const beyond = `{"title":"A","blocks":${nest(form.maxDepth!)}}`;
    await expectRejected(h, await h.post(beyond), "json-syntax:depth-exceeded");
  });

  it("V2 a string past the form's own bound is rejected by the parser (string-too-long), not the validator", async () => {
    // The longest string of a valid page: a span's text or href, maxLength 1999, 2·1999 code units.
    expect(form.maxStringLength).toBe(3998);
    const entries: ActLogEntry[] = [];
    const h = harness({ onLog: (entry) => entries.push(entry) });
    // At the bound the parser lets the title through and the validator rejects it (maxLength 200): the control.
    const within = await expectRejected(h, await h.post(minimal("A".repeat(3998))), "schema");
    expect(within.reason).toBe("/properties/title/maxLength");
    const hostile = await expectRejected(h, await h.post(minimal("A".repeat(900_000))), "json-syntax:string-too-long");
    expect(hostile.reason).toMatch(/at byte 9$/); // the opening quote of the title
    expect(entries.map((entry) => [entry.status, entry.code])).toEqual([
      [204, "schema"],
      [204, "json-syntax:string-too-long"],
    ]);
    // A member name is bounded too: the page's names are closed, all shorter than 3998.
    const name = `{"${"k".repeat(3999)}":1,${minimal("A").slice(1)}`;
    await expectRejected(h, await h.post(name), "json-syntax:string-too-long");
    // maxStringLength: Infinity leaves the string to the validator.
    const open = harness({ maxStringLength: Infinity });
    await expectRejected(open, await open.post(minimal("A".repeat(900_000))), "schema");
    expect(() => harness({ maxStringLength: -1 })).toThrow(/maxStringLength/);
  });

  it("V2 the deepest valid page (lists nested three deep) fits the default maxDepth", async () => {
    const span = { text: "x", marks: ["bold"] };
    const list = (depth: number): unknown => ({
      type: "list",
      ordered: false,
      items: [depth === 3 ? { spans: [span] } : { spans: [span], children: list(depth + 1) }],
    });
    const h = harness();
    await expectAccepted(h, await h.post(JSON.stringify({ title: "Deep", blocks: [list(1)] })));
  });
});

describe("V3 validation uses the very form GET publishes", () => {
  it("V3 every fixture gets the verdict that the served s gives under an independent validator", async () => {
    const h = harness();
    const served = (await (await h.fetch()).json()) as { s: Schema };
    const oracle = new Validator(served.s, "2020-12", false);
    for (const [name, body] of Object.entries({ ...valid, ...invalid })) {
      let value: unknown;
      let parsed = true;
      try {
        value = JSON.parse(body);
      } catch {
        parsed = false;
      }
      const strictlyParsable = parsed && name !== "invalid-duplicate-member.json";
      const expected = strictlyParsable && oracle.validate(value).valid;
      const before = h.acts.length;
      const response = await h.post(body);
      expect(response.status, name).toBe(expected ? 200 : 204);
      expect(h.acts.length - before, name).toBe(expected ? 1 : 0);
      h.rejections.length = 0;
    }
  });

  it("V3 the arrival served is the arrival the validator was built from", async () => {
    const served = await (await harness().fetch()).text();
    expect(served).toBe(form.arrival);
    const s = JSON.parse(served).s as Record<string, unknown>;
    // A body the served s rejects (title over its maxLength) is what the address rejects.
    const maxLength = (s.properties as { title: { maxLength: number } }).title.maxLength;
    const h = harness();
    await expectAccepted(h, await h.post(minimal("x".repeat(maxLength))));
    await expectRejected(h, await h.post(minimal("x".repeat(maxLength + 1))), "schema");
  });

  /** [what, control, rejected body, the keyword location lastFailure() names]. */
  const schemaPairs: [string, string, string, string][] = [
    ["an http link (invalid-http-link.json)", releaseNotes, invalid["invalid-http-link.json"], "/$defs/block/anyOf"],
    [
      "an extra root member (invalid-extra-member.json)",
      recipe,
      invalid["invalid-extra-member.json"],
      "/additionalProperties",
    ],
    [
      "an overlong title (invalid-overlong-title.json)",
      releaseNotes,
      invalid["invalid-overlong-title.json"],
      "/properties/title/maxLength",
    ],
    [
      "a heading of level 4",
      withSpan({ text: "x" }).replace(`"type":"paragraph"`, `"type":"heading","level":3`),
      withSpan({ text: "x" }).replace(`"type":"paragraph"`, `"type":"heading","level":4`),
      "/$defs/block/anyOf",
    ],
    [
      "a mark repeated (uniqueItems)",
      withSpan({ text: "x", marks: ["bold", "italic"] }),
      withSpan({ text: "x", marks: ["bold", "bold"] }),
      "/$defs/block/anyOf",
    ],
    [
      "an unknown mark",
      withSpan({ text: "x", marks: ["bold"] }),
      withSpan({ text: "x", marks: ["underline"] }),
      "/$defs/block/anyOf",
    ],
    [
      "a javascript: link",
      withSpan({ text: "x", href: "https://example.org/" }),
      withSpan({ text: "x", href: "javascript:alert(1)" }),
      "/$defs/block/anyOf",
    ],
    [
      "a link with a quote in it",
      withSpan({ text: "x", href: "https://example.org/a" }),
      withSpan({ text: "x", href: 'https://example.org/a"onmouseover=x' }),
      "/$defs/block/anyOf",
    ],
    [
      "a span of 2000 code points",
      withSpan({ text: "😀".repeat(1999) }),
      // 2000 code points in 3998 UTF-16 code units: within the parser's bound, so the validator decides.
      withSpan({ text: `${"😀".repeat(1998)}ab` }),
      "/$defs/block/anyOf",
    ],
    ["an empty title", minimal("A"), minimal(""), "/properties/title/minLength"],
    ["no blocks", minimal("A"), JSON.stringify({ title: "A", blocks: [] }), "/properties/blocks/minItems"],
    [
      "a string where a number belongs",
      withSpan({ text: "x" }).replace(`"type":"paragraph"`, `"type":"heading","level":2`),
      withSpan({ text: "x" }).replace(`"type":"paragraph"`, `"type":"heading","level":"2"`),
      "/$defs/block/anyOf",
    ],
    ["a value that is not an object", minimal("A"), JSON.stringify(JSON.parse(minimal("A")).blocks), "/type"],
    [
      "a missing required member (title)",
      minimal("A"),
      JSON.stringify({ blocks: JSON.parse(minimal("A")).blocks }),
      "/required",
    ],
  ];
  for (const [what, control, body, location] of schemaPairs) {
    it(`V3 rejects ${what} with code schema at ${location}; the control passes`, async () => {
      const h = harness();
      await expectAccepted(h, await h.post(control));
      const rejection = await expectRejected(h, await h.post(body), "schema");
      expect(rejection.reason).toBe(location);
    });
  }

  it("V3 the extra member, overlong title and http link fixtures differ from their controls in that one respect", () => {
    const extra = JSON.parse(invalid["invalid-extra-member.json"]);
    delete extra.language;
    expect(extra).toEqual(JSON.parse(recipe));
    const overlong = JSON.parse(invalid["invalid-overlong-title.json"]);
    expect([...overlong.title].length).toBeGreaterThan(200);
    expect({ ...overlong, title: JSON.parse(releaseNotes).title }).toEqual(JSON.parse(releaseNotes));
    expect(invalid["invalid-http-link.json"].replace("http://", "https://")).toBe(releaseNotes);
  });
});

describe("V4 nothing is accepted that the validator did not check", () => {
  /** The closed vocabulary of the form compiler (issue 2, item 4), annotations included. */
  const vocabulary = new Set([
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "pattern",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "minimum",
    "maximum",
    "$schema",
    "$id",
    "title",
    "description",
    "$comment",
    "examples",
    "default",
  ]);
  const keywordsIn = (schema: unknown, at: string, out: string[]): string[] => {
    if (typeof schema !== "object" || schema === null) return out;
    for (const [key, value] of Object.entries(schema)) {
      out.push(`${at}/${key}`);
      if (key === "properties" || key === "$defs") {
        for (const [name, sub] of Object.entries(value as object)) keywordsIn(sub, `${at}/${key}/${name}`, out);
      } else if (key === "anyOf") {
        (value as unknown[]).forEach((sub, i) => {
          keywordsIn(sub, `${at}/${key}/${i}`, out);
        });
      } else if (key === "items" || key === "additionalProperties") {
        keywordsIn(value, `${at}/${key}`, out);
      }
    }
    return out;
  };

  it("V4 the published form uses only keywords the compiler implements", () => {
    const s = JSON.parse(form.arrival).s;
    const unknown = keywordsIn(s, "", []).filter(
      (pointer) => !vocabulary.has(pointer.slice(pointer.lastIndexOf("/") + 1)),
    );
    expect(unknown).toEqual([]);
  });

  it("V4 a validator that throws fails closed: no act, 500, not reported as a rejection", async () => {
    const h = harness({
      form: {
        ...form,
        validate: (() => {
          throw new Error("unimplemented keyword");
        }) as unknown as typeof form.validate,
      },
    });
    const logged = await capturingErrors(async () => {
      const response = await h.post(recipe);
      expect(response.status).toBe(500);
      expect(await response.text()).toBe("");
    });
    expect(h.acts).toEqual([]);
    expect(h.rejections).toEqual([]);
    expectLoggedFaults(logged, [['gpt-address: verification of the address "page" threw', "unimplemented keyword"]]);
    // Control: the same address with the real validator acts, and logs nothing.
    const control = harness();
    expect(await capturingErrors(async () => void (await expectAccepted(control, await control.post(recipe))))).toEqual(
      [],
    );
  });
});

describe("R1 success", () => {
  it("R1 200, application/json, the act's return value as the body", async () => {
    const h = harness({ act: (value) => ({ title: (value as { title: string }).title, ok: true }) });
    const response = await h.post(recipe);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({ title: "Crème brûlée for two", ok: true });
  });

  it("R1 an async act is awaited; undefined is sent as null", async () => {
    const h = harness({ act: async () => undefined });
    const response = await h.post(recipe);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("null");
  });

  it("R1 an act whose result JSON cannot represent is a server fault, not an empty 200", async () => {
    for (const result of [
      () => 1,
      Symbol("x"),
      10n,
      (() => {
        const a: unknown[] = [];
        a.push(a);
        return a;
      })(),
    ]) {
      const h = harness({ act: () => result });
      const logged = await capturingErrors(async () => {
        const response = await h.post(recipe);
        expect(response.status).toBe(500);
        expect(await response.text()).toBe("");
      });
      expect(logged).toHaveLength(1);
      expect(logged[0]![0]).toBe('gpt-address: the act handler of the address "page" threw');
      expect(logged[0]![1]).toBeInstanceOf(TypeError);
    }
  });

  it("R1 an act that throws is a server fault: 500, no body, not a rejection", async () => {
    const h = harness({
      act: () => {
        throw new Error("store unavailable");
      },
    });
    const logged = await capturingErrors(async () => {
      const response = await h.post(recipe);
      expect(response.status).toBe(500);
      expect(await response.text()).toBe("");
    });
    expect(h.rejections).toEqual([]);
    expectLoggedFaults(logged, [['gpt-address: the act handler of the address "page" threw', "store unavailable"]]);
  });
});

describe("R2 failure says nothing", () => {
  it("R2 every kind of rejection gets the same 204 with the same fields and no body; a body left unread also closes the connection", async () => {
    const h = harness({ maxBytes: 10_000 });
    const read = [
      await h.post(invalid["invalid-duplicate-member.json"]),
      await h.post(invalid["invalid-overlong-title.json"]),
      await h.post(""),
    ];
    const unread = [await h.post("x".repeat(10_001)), await h.post(recipe, { "Content-Encoding": "gzip" })];
    expect(h.rejections.map((r) => r.code)).toEqual([
      "json-syntax:duplicate-name",
      "schema",
      "json-syntax:unexpected-end",
      "content-too-large",
      "content-encoding",
    ]);
    for (const answer of [...read, ...unread]) {
      expect(answer.status).toBe(204);
      expect((await answer.arrayBuffer()).byteLength).toBe(0);
    }
    // Refusals about the content (parse, schema) look exactly alike.
    const first = fields(read[0]!);
    for (const answer of read) expect(fields(answer)).toEqual(first);
    expect(first.map(([name]) => name)).toEqual(["access-control-allow-origin", "cache-control"]);
    // A body refused before it was read whole (its size or coding) must not keep the connection
    // (RFC 9112 §9.6); the answer came before the upload ended, so this tells the actor nothing new.
    for (const answer of unread) expect(fields(answer)).toEqual([...first, ["connection", "close"]]);
  });

  it("R2 the media type never gates: every Content-Type gets the same verification", async () => {
    for (const contentType of [
      null,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "application/json; charset=utf-8",
    ]) {
      const headers: Record<string, string> = contentType === null ? {} : { "Content-Type": contentType };
      const h = harness();
      await expectAccepted(h, await h.post(recipe, headers));
      await expectRejected(
        h,
        await h.post(invalid["invalid-trailing-chatter.json"], headers),
        "json-syntax:trailing-bytes",
      );
      await expectRejected(h, await h.post(invalid["invalid-extra-member.json"], headers), "schema");
    }
  });

  it("R2 an onReject that throws still answers 204", async () => {
    const h = harness({
      onReject: () => {
        throw new Error("logger down");
      },
    });
    const logged = await capturingErrors(async () => {
      const response = await h.post("{}");
      expect(response.status).toBe(204);
    });
    expectLoggedFaults(logged, [['gpt-address: onReject of the address "page" threw', "logger down"]]);
  });

  it("X3 development mode answers a problem report naming the reason; an accepted act is unchanged", async () => {
    const h = harness({ development: true });
    await expectAccepted(h, await h.post(recipe));
    const response = await h.post(invalid["invalid-overlong-title.json"]);
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ type: "about:blank", status: 422, code: "schema" });
    expect(problem.detail).toBe(h.rejections[0]!.reason);
    const tooLarge = await harness({ development: true, maxBytes: 10 }).post(recipe);
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { code: string }).code).toBe("content-too-large");
  });

  it("X3 development mode names the line and column of a JSON syntax error, with the byte offset once", async () => {
    const h = harness({ development: true });
    const response = await h.post('{\n  "title": "a",\n  "title": "b"\n}');
    expect(response.status).toBe(400);
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ code: "json-syntax:duplicate-name" });
    expect(problem.detail).toBe("duplicate member name at line 3, column 3 (byte 20)");
    // Control: off development mode, the log keeps the plain message (no pass over the body).
    const plain = harness();
    const rejection = await expectRejected(
      plain,
      await plain.post('{\n  "title": "a",\n  "title": "b"\n}'),
      "json-syntax:duplicate-name",
    );
    expect(rejection.reason).toBe("duplicate member name at byte 20");
  });

  it("X3 development mode is off by default", async () => {
    const h = harness();
    await expectRejected(h, await h.post(invalid["invalid-overlong-title.json"]), "schema");
  });
});

describe("H1 GPT-Actor is recorded, never a gate", () => {
  it("H1 the GPT-Actor field reaches the act as actor; without it actor is null", async () => {
    const h = harness();
    await expectAccepted(
      h,
      await h.post(recipe, { "Content-Type": "application/json", "GPT-Actor": "claude-via-curl/1.0" }),
    );
    await expectAccepted(h, await h.post(recipe));
    expect(h.acts.map((a) => a.actor)).toEqual(["claude-via-curl/1.0", null]);
  });

  it("H1 no GPT-Actor value lets a rejected body through", async () => {
    const h = harness();
    for (const actor of ["admin", "trusted", "root", "gpt-address"]) {
      await expectRejected(h, await h.post(invalid["invalid-extra-member.json"], { "GPT-Actor": actor }), "schema");
    }
  });

  it("H1 identity is never inferred from the body: a body naming a speaker is content", async () => {
    const h = harness();
    const body = JSON.stringify({
      title: "From the admin",
      blocks: [{ type: "paragraph", spans: [{ text: "role: admin" }] }],
    });
    await expectAccepted(h, await h.post(body));
    expect(h.acts[0]!.actor).toBeNull();
  });
});

describe("methods", () => {
  it("OPTIONS answers the CORS preflight for GET, HEAD and POST", async () => {
    const response = await harness().fetch({
      method: "OPTIONS",
      headers: {
        Origin: "https://client.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, gpt-actor",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("gpt-actor");
  });

  for (const method of ["PUT", "DELETE", "PATCH"]) {
    it(`${method} gets 405 with Allow and is not an act`, async () => {
      const h = harness();
      const response = await h.fetch({ method, body: recipe });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
      expect(h.acts).toEqual([]);
    });
  }

  it("a 405 that leaves a body unread closes the connection, as a refused act's; one without a body keeps it (control)", async () => {
    const h = harness();
    const withBody = await h.fetch({ method: "PUT", body: recipe });
    const without = await h.fetch({ method: "DELETE" });
    const expected = [
      ["access-control-allow-origin", "*"],
      ["allow", "GET, HEAD, POST, OPTIONS"],
      ["cache-control", "no-store"],
      ["content-length", "0"],
    ];
    expect(without.status).toBe(405);
    expect(fields(without)).toEqual(expected);
    expect(withBody.status).toBe(405);
    expect(fields(withBody)).toEqual([...expected.slice(0, 3), ["connection", "close"], expected[3]]);
    expect((await withBody.arrayBuffer()).byteLength).toBe(0);
  });

  it("an OPTIONS with a body closes the connection too; the same preflight without one keeps it (control)", async () => {
    const h = harness();
    const withBody = await h.fetch({ method: "OPTIONS", body: recipe });
    const without = await h.fetch({ method: "OPTIONS" });
    expect([withBody.status, without.status]).toEqual([204, 204]);
    expect(withBody.headers.get("connection")).toBe("close");
    expect(without.headers.get("connection")).toBeNull();
  });

  it("a 405 cancels the body it leaves unread (discardAct), never awaiting it", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull() {
        // Never enqueues: a body whose rest does not come.
      },
      cancel() {
        cancelled = true;
      },
    });
    const h = harness();
    const response = await h.fetch({ method: "PATCH", body, duplex: "half" } as RequestInit);
    expect(response.status).toBe(405);
    expect(response.headers.get("connection")).toBe("close");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cancelled).toBe(true);
  });

  it("address() refuses a bad maxBytes or maxDepth", () => {
    expect(() => harness({ maxBytes: -1 })).toThrow(RangeError);
    expect(() => harness({ maxDepth: 1.5 })).toThrow(RangeError);
  });
});
