/**
 * Hostile input against the address inside workerd: framing, codings, media types, the strict
 * parser's edges, prototype names, script in stored pages, odd methods, paths and header fields.
 * Every rejected body is paired with an accepted control that differs in the one respect, and
 * every rejection asserts its code, so a server that answered 204 to everything would fail.
 * Cases that already behaved correctly are pinned here so they stay correct.
 */
import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { form as feedbackForm } from "../../examples/pages/generated/feedback.js";
import { form } from "../../examples/pages/generated/page.js";
import type { CompiledForm } from "../../src/address/form.ts";
import { parseAct } from "../../src/address/verification.ts";
import { TEXT_MAX } from "../../src/json/parse.ts";
import { LOOSE_MAX } from "../../src/json/utf8.ts";
import { encode, expectAccepted, expectRejected, fields, harness } from "./harness.ts";

/** A valid page whose one paragraph holds the spans `spans` (JSON text). */
const page = (spans = '{"text":"x"}', title = '"T"') =>
  `{"title":${title},"blocks":[{"type":"paragraph","spans":[${spans}]}]}`;
/** A valid page with one heading whose level is written as `level`. */
const heading = (level: string) =>
  `{"title":"T","blocks":[{"type":"heading","level":${level},"spans":[{"text":"x"}]}]}`;

/** Concatenates text (as UTF-8) and raw bytes. */
function bytes(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((part) => (typeof part === "string" ? encode(part) : Uint8Array.from(part)));
  const out = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** A stream yielding `body` `size` bytes at a time, each chunk after a macrotask (a slow client). */
function trickle(body: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.slice(offset, offset + size));
      offset += size;
    },
  });
}

describe("framing: Content-Length, Transfer-Encoding, Content-Encoding", () => {
  const body = page();
  const length = String(encode(body).byteLength);

  it("V1 a correct Content-Length is accepted (control); leading zeros are still one decimal number", async () => {
    const h = harness();
    await expectAccepted(h, await h.post(body, { "Content-Length": length }));
    await expectAccepted(h, await h.post(body, { "Content-Length": `000${length}` }));
  });

  for (const [what, field] of [
    ["negative", "-1"],
    ["plus-signed", `+${length}`],
    ["hexadecimal", "0x10"],
    ["exponent", "1e3"],
    ["comma list of equal values", `${length}, ${length}`],
    ["comma list of different values", `${length}, 5`],
    ["fractional", `${length}.0`],
  ]) {
    it(`V1 a ${what} Content-Length (${JSON.stringify(field)}) is rejected as invalid framing`, async () => {
      const h = harness();
      await expectRejected(h, await h.post(body, { "Content-Length": field! }), "content-length");
    });
  }

  it("V1 a Content-Length of 10^22 or above maxBytes is rejected before any byte is read", async () => {
    const h = harness();
    await expectRejected(h, await h.post(body, { "Content-Length": "99999999999999999999999" }), "content-too-large");
    await expectRejected(h, await h.post(body, { "Content-Length": "1048577" }), "content-too-large");
  });

  it("V1 a Content-Length shorter or longer than the body is rejected (content-length-mismatch)", async () => {
    const h = harness();
    await expectRejected(h, await h.post(body, { "Content-Length": "10" }), "content-length-mismatch");
    await expectRejected(h, await h.post(body, { "Content-Length": "500" }), "content-length-mismatch");
  });

  it("V1 an oversize stream without Content-Length is cut off; the same bytes under the limit pass", async () => {
    const padded = encode(body + " ".repeat(2000));
    const tight = harness({ maxBytes: 1000 });
    await expectRejected(tight, await tight.post(trickle(padded, 700)), "content-too-large");
    const roomy = harness({ maxBytes: padded.length });
    await expectAccepted(roomy, await roomy.post(trickle(padded, 700)));
  });

  it("C1 a slow body, one byte per chunk, splitting escapes and UTF-8 sequences, arrives exactly", async () => {
    const text = page('{"text":"é€😀 \\u00e9\\ud83d\\ude00 \\"q\\""}', '"Tïtle"');
    const h = harness();
    await expectAccepted(h, await h.post(trickle(encode(text), 1)));
    expect(h.acts[0]!.value).toEqual(JSON.parse(text));
  });

  it("a Content-Encoding of identity in any case, or an empty list, is no coding (control)", async () => {
    const h = harness();
    for (const coding of ["identity", "IDENTITY", " Identity ", "", "identity, identity", ",identity,"]) {
      await expectAccepted(h, await h.post(body, { "Content-Encoding": coding }));
    }
  });

  it("a Content-Encoding naming any coding is rejected unread, wherever it stands in the list", async () => {
    const h = harness();
    for (const coding of [
      "gzip",
      "GZIP",
      "br",
      "deflate",
      "zstd",
      "compress",
      "x-unknown",
      "identity, gzip",
      "gzip, identity",
      "identity;q=1",
    ]) {
      await expectRejected(h, await h.post(body, { "Content-Encoding": coding }), "content-encoding");
    }
  });

  it("a Transfer-Encoding other than chunked that reached the address is rejected; chunked is read (control)", async () => {
    const h = harness();
    await expectAccepted(h, await h.post(trickle(encode(body), 16), { "Transfer-Encoding": "chunked" }));
    for (const coding of ["gzip, chunked", "deflate", "x-unknown, chunked"]) {
      await expectRejected(
        h,
        await h.post(trickle(encode(body), 16), { "Transfer-Encoding": coding }),
        "transfer-encoding",
      );
    }
  });
});

describe("R2 the media type never gates: every Content-Type, or none, gets the same verdict", () => {
  for (const type of [
    null,
    "application/json",
    "text/plain",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
    "application/json; charset=utf-16",
    "garbage",
  ]) {
    it(`R2 Content-Type ${type === null ? "(none)" : JSON.stringify(type)}: a valid act passes, a duplicate member does not`, async () => {
      const h = harness();
      const headers: Record<string, string> = type === null ? {} : { "Content-Type": type };
      await expectAccepted(h, await h.post(page(), headers));
      await expectRejected(
        h,
        await h.post(page('{"text":"x","t\\u0065xt":"y"}'), headers),
        "json-syntax:duplicate-name",
      );
    });
  }

  it("R2 a form-urlencoded or multipart body is never decoded into an act", async () => {
    const h = harness();
    await expectRejected(
      h,
      await h.post("title=T&blocks=%5B%5D", { "Content-Type": "application/x-www-form-urlencoded" }),
      "json-syntax:unexpected-byte",
    );
    const multipart = `--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n${page()}\r\n--x--\r\n`;
    await expectRejected(
      h,
      await h.post(multipart, { "Content-Type": "multipart/form-data; boundary=x" }),
      "json-syntax:unexpected-byte",
    );
  });
});

describe("V2 the strict parser at the address", () => {
  it("V2 duplicate members spelled with escapes are rejected at the root and at depth 5", async () => {
    const h = harness();
    await expectAccepted(h, await h.post(page('{"text":"x","marks":["bold"]}')));
    await expectRejected(h, await h.post(page('{"text":"x","t\\u0065xt":"y"}')), "json-syntax:duplicate-name");
    await expectRejected(
      h,
      await h.post(page('{"text":"x","marks":[],"m\\u0061rks":["bold"]}')),
      "json-syntax:duplicate-name",
    );
    await expectRejected(h, await h.post(page(undefined, '"T","t\\u0069tle":"U"')), "json-syntax:duplicate-name");
  });

  it("V2 duplicate members are found past TEXT_MAX too, where strings are decoded one by one", async () => {
    const h = harness({ maxBytes: 3 * TEXT_MAX });
    const pad = " ".repeat(TEXT_MAX + 1);
    await expectAccepted(h, await h.post(pad + page('{"text":"é"}') + pad));
    await expectRejected(h, await h.post(pad + page('{"text":"é","t\\u0065xt":"y"}')), "json-syntax:duplicate-name");
  });

  it("V2 10^5 open brackets or objects are rejected by depth, without a crash; a shallow page passes", async () => {
    const h = harness();
    await expectRejected(h, await h.post("[".repeat(100_000)), "json-syntax:depth-exceeded");
    await expectRejected(h, await h.post("[".repeat(100_000) + "]".repeat(100_000)), "json-syntax:depth-exceeded");
    await expectRejected(h, await h.post('{"a":'.repeat(100_000)), "json-syntax:depth-exceeded");
    await expectAccepted(h, await h.post(page()));
  });

  it("V2 a byte order mark is rejected; the same body without it passes", async () => {
    const h = harness();
    await expectRejected(h, await h.post(bytes([0xef, 0xbb, 0xbf], page())), "json-syntax:byte-order-mark");
    await expectAccepted(h, await h.post(bytes(page())));
  });

  for (const [what, sequence] of [
    ["a stray 0xFF", [0xff]],
    ["an overlong '/' (C0 AF)", [0xc0, 0xaf]],
    ["an overlong '\"' (C0 A2)", [0xc0, 0xa2]],
    ["an overlong NUL (E0 80 80)", [0xe0, 0x80, 0x80]],
    ["an encoded surrogate (ED A0 80)", [0xed, 0xa0, 0x80]],
    ["a code point above U+10FFFF (F4 90 80 80)", [0xf4, 0x90, 0x80, 0x80]],
    ["a truncated sequence (E2 82)", [0xe2, 0x82]],
    ["a lone continuation byte (80)", [0x80]],
  ] as [string, number[]][]) {
    it(`V2 ${what} in a string is rejected below LOOSE_MAX, past it and past TEXT_MAX; the valid sequence passes (control)`, async () => {
      const h = harness({ maxBytes: 2 * TEXT_MAX });
      for (const pad of ["", " ".repeat(LOOSE_MAX + 1), " ".repeat(TEXT_MAX + 1)]) {
        await expectRejected(
          h,
          await h.post(
            bytes(pad, '{"title":"T', sequence, `","blocks":[{"type":"paragraph","spans":[{"text":"x"}]}]}`),
          ),
          "json-syntax:invalid-utf8",
        );
      }
      await expectAccepted(
        h,
        await h.post(
          bytes('{"title":"T', [0xe2, 0x82, 0xac], `","blocks":[{"type":"paragraph","spans":[{"text":"x"}]}]}`),
        ),
      );
    });
  }

  it("V2 lone surrogate escapes are rejected; a valid pair passes", async () => {
    const h = harness();
    for (const text of ["\\ud800", "\\udc00x", "\\udc00\\ud800", "\\ud800\\u0041", "x\\ud83d"]) {
      await expectRejected(h, await h.post(page(`{"text":"${text}"}`)), "json-syntax:lone-surrogate");
    }
    await expectAccepted(h, await h.post(page('{"text":"\\ud83d\\ude00"}')));
  });

  it("V2 numbers: 2, 2.0 and 2e0 are the integer 2 (control); overflow and unsafe integers are rejected", async () => {
    const h = harness();
    for (const level of ["2", "2.0", "2e0", "0.2e1", "20e-1"]) await expectAccepted(h, await h.post(heading(level)));
    await expectRejected(h, await h.post(heading("1e400")), "json-syntax:number-out-of-range");
    await expectRejected(h, await h.post(heading("-1e400")), "json-syntax:number-out-of-range");
    await expectRejected(h, await h.post(heading("9007199254740993")), "json-syntax:integer-out-of-range");
    await expectRejected(h, await h.post(heading("-9007199254740993")), "json-syntax:integer-out-of-range");
    await expectRejected(h, await h.post(heading(`1${"0".repeat(400)}`)), "json-syntax:integer-out-of-range");
    // Out of the form's range, not of the parser's: the validator decides.
    await expectRejected(h, await h.post(heading("-0")), "schema");
    await expectRejected(h, await h.post(heading("1e-400")), "schema");
  });

  for (const spelling of ["NaN", "Infinity", "-Infinity", "+1", ".5", "02", "0x2", "2.", "1_0", "١"]) {
    it(`V2 the number spelling ${spelling} is rejected by the grammar; level 2 passes (control)`, async () => {
      const h = harness();
      await expectRejected(h, await h.post(heading(spelling)), "json-syntax:unexpected-byte");
      await expectAccepted(h, await h.post(heading("2")));
    });
  }

  it("V2 whitespace around the value passes; garbage, a second value or a NUL after it does not", async () => {
    const h = harness();
    await expectAccepted(h, await h.post(` \n\t\r${page()} \n\t\r`));
    await expectRejected(h, await h.post(`${page()}x`), "json-syntax:trailing-bytes");
    await expectRejected(h, await h.post(`${page()}{}`), "json-syntax:trailing-bytes");
    await expectRejected(h, await h.post(bytes(page(), [0])), "json-syntax:trailing-bytes");
    await expectRejected(h, await h.post(bytes([0], page())), "json-syntax:unexpected-byte");
  });

  for (const [what, lead] of [
    ["a no-break space", [0xc2, 0xa0]],
    ["a vertical tab", [0x0b]],
    ["a form feed", [0x0c]],
    ["an ideographic space", [0xe3, 0x80, 0x80]],
  ] as [string, number[]][]) {
    it(`V2 ${what} is not JSON whitespace`, async () => {
      const h = harness();
      await expectRejected(h, await h.post(bytes(lead, page())), "json-syntax:unexpected-byte");
    });
  }

  it("V2 a raw NUL or tab inside a string is rejected; the escaped ones pass", async () => {
    const h = harness();
    await expectRejected(
      h,
      await h.post(bytes('{"title":"T', [0], `","blocks":[{"type":"paragraph","spans":[{"text":"x"}]}]}`)),
      "json-syntax:control-character",
    );
    await expectRejected(h, await h.post(page('{"text":"a\tb"}')), "json-syntax:control-character");
    await expectAccepted(h, await h.post(page('{"text":"a\\u0000b\\tc"}')));
    expect(h.acts[0]!.value).toEqual(JSON.parse(page('{"text":"a\\u0000b\\tc"}')));
  });

  it("V2 JSON5-isms are rejected: single quotes, comments, trailing commas, unquoted names", async () => {
    const h = harness();
    await expectRejected(h, await h.post(page("{'text':'x'}")), "json-syntax:unexpected-byte");
    await expectRejected(h, await h.post(page('{"text":"x"/*c*/}')), "json-syntax:unexpected-byte");
    await expectRejected(h, await h.post(page('{"text":"x",}')), "json-syntax:unexpected-byte");
    await expectRejected(h, await h.post(page('{text:"x"}')), "json-syntax:unexpected-byte");
  });

  it("V2 an empty body, whitespace only, or null is no act", async () => {
    const h = harness();
    await expectRejected(h, await h.post(""), "json-syntax:unexpected-end");
    await expectRejected(h, await h.post(null), "json-syntax:unexpected-end");
    await expectRejected(h, await h.post("   "), "json-syntax:unexpected-end");
    await expectRejected(h, await h.post("null"), "schema");
  });

  it("C1 what the act receives is what JSON.parse gives, across multi-byte text below and above TEXT_MAX", async () => {
    const text = (n: number) => 'aé€😀\\u00e9\\n\\"\\ud83d\\ude00ß'.repeat(n);
    // Blocks of spans, each span's text under the form's maxLength (1,999); the last case
    // is past TEXT_MAX bytes, where strings are decoded one by one.
    const pageOf = (blocks: number, spans: number, n: number) =>
      `{"title":"${text(1)}","blocks":[${Array.from(
        { length: blocks },
        (_, b) =>
          `{"type":"paragraph","spans":[${Array.from({ length: spans }, (_, i) => `{"text":"${b}.${i}${text(n)}"}`).join(",")}]}`,
      ).join(",")}]}`;
    for (const [blocks, spans, n] of [
      [1, 30, 1],
      [1, 30, 10],
      [4, 50, 200],
    ] as const) {
      const body = pageOf(blocks, spans, n);
      expect(encode(body).byteLength > TEXT_MAX).toBe(blocks === 4);
      const h = harness({ maxBytes: 2 * TEXT_MAX });
      await expectAccepted(h, await h.post(body));
      expect(h.acts[0]!.value).toEqual(JSON.parse(body));
    }
  });
});

describe("prototype names are ordinary members", () => {
  for (const name of ["__proto__", "__pr\\u006fto__", "constructor", "toString", "hasOwnProperty", "prototype"]) {
    it(`S1 a member named ${name} in a span is an extra member (schema); without it the page passes`, async () => {
      const h = harness();
      await expectRejected(h, await h.post(page(`{"text":"x","${name}":{"href":"javascript:alert(1)"}}`)), "schema");
      await expectRejected(
        h,
        await h.post(`{"${name}":{"x":1},"title":"T","blocks":[{"type":"paragraph","spans":[{"text":"x"}]}]}`),
        "schema",
      );
      await expectAccepted(h, await h.post(page()));
      expect(({} as Record<string, unknown>).href).toBeUndefined();
    });
  }

  it("S1 an open form sees __proto__ as an own member; the act's value has Object.prototype and nothing is polluted", async () => {
    const open: CompiledForm = {
      ...form,
      validate: (value: unknown): value is unknown => typeof value === "object" && value !== null,
      lastFailure: () => "",
      maxDepth: 4,
    };
    const h = harness({ form: open });
    await expectAccepted(
      h,
      await h.post('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
    );
    const value = h.acts[0]!.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__", "constructor"]);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true });
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    await expectRejected(h, await h.post('{"__proto__":1,"__proto__":2}'), "json-syntax:duplicate-name");
    await expectRejected(h, await h.post('{"__proto__":1,"__pr\\u006fto__":2}'), "json-syntax:duplicate-name");
  });
});

describe("methods, paths, header fields", () => {
  it("a lowercase post is normalized to POST by fetch and is an act like any other", async () => {
    const h = harness();
    await expectAccepted(h, await h.fetch({ method: "post", body: page() }));
    await expectRejected(h, await h.fetch({ method: "post", body: `${page()}x` }), "json-syntax:trailing-bytes");
  });

  for (const method of ["TRACE", "PUT", "PATCH", "patch", "DELETE", "PROPFIND"]) {
    it(`${method} is no act: 405 with Allow, no body, nothing recorded`, async () => {
      const h = harness();
      const response = await h.fetch({ method, ...(method === "TRACE" ? {} : { body: page() }) });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
      expect((await response.arrayBuffer()).byteLength).toBe(0);
      expect(h.acts).toEqual([]);
      expect(h.rejections).toEqual([]);
    });
  }

  it("OPTIONS answers the same fixed preflight whatever it is asked for", async () => {
    const h = harness();
    const plain = await h.fetch({ method: "OPTIONS" });
    const odd = await h.fetch({
      method: "OPTIONS",
      headers: {
        Origin: "null",
        "Access-Control-Request-Method": "DELETE",
        "Access-Control-Request-Headers": "x-evil, cookie, authorization",
        Cookie: "a=b",
      },
    });
    expect(odd.status).toBe(204);
    expect(fields(odd)).toEqual(fields(plain));
    expect(odd.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("A5 cookies, a query, Authorization and GPT-Actor change neither the verdict nor the answer's fields", async () => {
    const h = harness();
    const decoration = { Cookie: "session=1", Authorization: "Bearer x", "GPT-Actor": "admin" };
    const plain = await h.post(page());
    const decorated = await h.fetch({ method: "POST", body: page(), headers: decoration }, "/page?admin=1&debug=1");
    expect(decorated.status).toBe(200);
    expect(fields(decorated)).toEqual(fields(plain));
    expect(decorated.headers.get("set-cookie")).toBeNull();
    const rejected = await h.fetch({ method: "POST", body: `${page()}x`, headers: decoration }, "/page?development=1");
    expect(rejected.status).toBe(204);
    expect(await rejected.text()).toBe("");
  });

  for (const [accept, expected] of [
    ["text/html;q=0", "json"],
    ["text/html;q=0, */*", "json"],
    ["*/*", "json"],
    ["text/*", "json"],
    ["garbage", "json"],
    [";;;,,,==", "json"],
    ["text/html;q=2", "json"],
    ["text/html;q=-1", "json"],
    ["text/htmlx", "json"],
    ["TEXT/HTML", "html"],
    ["text/html;q=0.001", "html"],
    [`${"application/xml;q=0.5, ".repeat(2000)}text/html`, "html"],
    [`${"text/html;q=0.5, ".repeat(2000)}application/json`, "json"],
  ]) {
    it(`A6 Accept ${JSON.stringify(accept!.length > 40 ? `${accept!.slice(0, 40)}…` : accept)} gets the ${expected}`, async () => {
      const response = await harness().fetch({ headers: { Accept: accept! } });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(expected === "html" ? form.page : form.arrival);
    });
  }

  for (const [match, expected] of [
    ["*", 304],
    [` ${form.etag} `, 304],
    [`W/${form.etag}`, 304],
    [`"x", ${form.etag}`, 304],
    [`${form.etag},,,`, 304],
    [`w/${form.etag}`, 200],
    [`W/ ${form.etag}`, 200],
    [`*, ${form.etag}`, 200],
    [`${form.etag} garbage`, 200],
    [form.etag.toLowerCase(), 200],
    ['"', 200],
    ['""', 200],
    [form.pageEtag, 200],
    ["x".repeat(10_000), 200],
  ] as [string, number][]) {
    it(`S4 If-None-Match ${JSON.stringify(match.length > 40 ? `${match.slice(0, 40)}…` : match)} gets ${expected}`, async () => {
      const response = await harness().fetch({ headers: { "If-None-Match": match } });
      expect(response.status).toBe(expected);
      expect(await response.text()).toBe(expected === 304 ? "" : form.arrival);
    });
  }

  it("S4 If-None-Match * with Accept text/html revalidates the page, with the page's ETag", async () => {
    const response = await harness().fetch({ headers: { "If-None-Match": "*", Accept: "text/html" } });
    expect(response.status).toBe(304);
    expect(response.headers.get("etag")).toBe(form.pageEtag);
  });

  it("HEAD answers GET's fields with no body, and never acts", async () => {
    const h = harness();
    const head = await h.fetch({ method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const withoutLength = (response: Response) => fields(response).filter(([name]) => name !== "content-length");
    expect(withoutLength(head)).toEqual(withoutLength(await h.fetch()));
    expect(h.acts).toEqual([]);
  });
});

describe("issue 31: the form bounds the cost of every body", () => {
  /** A 1 MiB object of some 90,000 members, `"m0":0,"m1":0,…`: the hostile run's wide object. */
  const wide = (() => {
    const members: string[] = [];
    for (let k = 0, length = 2; length < 1_048_000; k++) {
      members.push(`"m${k}":0`);
      length += members.at(-1)!.length + 1;
    }
    return `{${members.join(",")}}`;
  })();
  const feedback = (options = {}) => harness({ form: feedbackForm as CompiledForm, ...options });
  /** The longest valid feedback act: its 1,999-code-point comment all escaped, pretty-printed. */
  const longest = JSON.stringify({ rating: 5, topic: "documentation", comment: "😀".repeat(1999) }, null, 4).replace(
    /[\u0080-\uffff]/g,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

  it("V1 /feedback reads no more than its longest valid act: the 1 MiB wide object is refused unread", async () => {
    expect(wide.split(",").length).toBeGreaterThan(90_000);
    expect(feedbackForm.maxBytes).toBe(24_296);
    const h = feedback();
    // Control: the longest valid act (24,037 bytes) is read and accepted.
    expect(encode(longest).byteLength).toBeGreaterThan(24_000);
    await expectAccepted(h, await h.post(longest));
    const refused = await expectRejected(h, await h.post(wide), "content-too-large");
    expect(refused.reason).toMatch(/24296/);
    h.rejections.length = 0;
    // Without Content-Length the reader stops at the bound.
    await expectRejected(h, await h.post(trickle(encode(wide), 65_536)), "content-too-large");
  });

  it("V2 under a 1 MiB maxBytes the parser refuses the wide object at its fourth member, from the bytes", async () => {
    const h = feedback({ maxBytes: 1_048_576 });
    await expectAccepted(h, await h.post('{"rating":4,"topic":"other","comment":"x"}'));
    const refused = await expectRejected(h, await h.post(wide), "json-syntax:too-many-members");
    expect(refused.reason).toMatch(/at byte 21$/); // the comma before "m3"
    // In process, a rough sanity check (not a timing test): refused at the fourth member, the
    // body costs a fraction of building its 90,000 members.
    const bytes = encode(wide);
    const limits = { maxDepth: 64, maxMembers: feedbackForm.maxMembers ?? Infinity };
    const time = (fn: () => unknown, runs: number) => {
      const started = performance.now();
      for (let k = 0; k < runs; k++) fn();
      return (performance.now() - started) / runs;
    };
    const unbounded = time(() => parseAct(bytes, { maxDepth: 64 }), 3);
    const bounded = time(() => parseAct(bytes, limits), 30);
    expect(parseAct(bytes, limits)).toMatchObject({ code: "json-syntax:too-many-members" });
    expect(bounded / unbounded).toBeLessThan(0.2);
  });

  it("V2 the page form's longest array is 100 items: the 101st block is refused by the parser", async () => {
    expect(form.maxItems).toBe(100);
    expect(form.maxMembers).toBe(3);
    const h = harness();
    const blocks = (n: number) => Array.from({ length: n }, () => '{"type":"paragraph","spans":[{"text":"x"}]}');
    await expectAccepted(h, await h.post(`{"title":"T","blocks":[${blocks(100).join(",")}]}`));
    await expectRejected(
      h,
      await h.post(`{"title":"T","blocks":[${blocks(101).join(",")}]}`),
      "json-syntax:too-many-items",
    );
    h.rejections.length = 0;
    // maxItems: Infinity leaves the array to the validator.
    const open = harness({ maxItems: Infinity });
    await expectRejected(open, await open.post(`{"title":"T","blocks":[${blocks(101).join(",")}]}`), "schema");
  });
});

/** The example worker of wrangler.toml, inside workerd with its local KV namespace. */
const worker = (path: string, init?: RequestInit) =>
  exports.default.fetch(new Request(`https://pages.example${path}`, init));

describe("the example server", () => {
  it("A1 V3 every form in forms/ has its own address: /feedback serves forms/feedback.json and enforces it", async () => {
    const get = await worker("/feedback");
    expect(get.status).toBe(200);
    expect(await get.text()).toBe(feedbackForm.arrival);
    expect(get.headers.get("etag")).toBe(feedbackForm.etag);
    expect(get.headers.get("gpt-type")).toBe("feedback");
    const post = (body: string) =>
      worker("/feedback", { method: "POST", body, headers: { "Content-Type": "application/json" } });
    const accepted = await post('{"rating": 4, "topic": "page-address", "comment": "One POST."}');
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ received: true, rating: 4 });
    for (const body of [
      '{"rating": 6, "topic": "page-address"}',
      '{"rating": 4, "topic": "page-address", "rating": 5}',
      page(),
    ]) {
      const rejected = await post(body);
      expect(rejected.status).toBe(204);
      expect(await rejected.text()).toBe("");
    }
    // The page address does not take feedback either.
    expect((await worker("/page", { method: "POST", body: '{"rating": 4, "topic": "other"}' })).status).toBe(204);
  });

  it("the index names every address", async () => {
    const index = await (await worker("/")).text();
    expect(index).toContain("https://pages.example/page\n");
    expect(index).toContain("https://pages.example/feedback\n");
  });

  it("S1 a stored page escapes script in the title, text and links, and forbids script by CSP", async () => {
    const body = page(
      `{"text":"<img src=x onerror=alert(1)><script>alert(2)</script>","href":"https://x.example/'onmouseover='alert(3)"}`,
      '"</title><script>alert(4)</script>"',
    );
    const published = await worker("/page", { method: "POST", body });
    expect(published.status).toBe(200);
    const { url } = (await published.json()) as { url: string };
    const stored = await worker(new URL(url).pathname);
    const html = await stored.text();
    expect(html).not.toMatch(/<(script|img)\b/i);
    expect(html).toContain("&lt;/title&gt;&lt;script&gt;alert(4)&lt;/script&gt;");
    expect(html).toContain('href="https://x.example/&#39;onmouseover=&#39;alert(3)"');
    const csp = stored.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-eval/);
    expect(stored.headers.get("x-content-type-options")).toBe("nosniff");
  });

  for (const href of [
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    'https://x" onmouseover="alert(1)',
    "https://x.example/\nfoo",
    "data:text/html,<script>alert(1)</script>",
    "//x.example/",
    "https://user@x.example/",
    "http://x.example/",
  ]) {
    it(`S2 the link ${JSON.stringify(href)} is refused by the form, so nothing is stored`, async () => {
      const response = await worker("/page", { method: "POST", body: page(JSON.stringify({ text: "x", href })) });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe("");
    });
  }

  for (const path of ["/page/", "/PAGE", "//page", "/page/x", "/page;x", "/page%2f", "/pages"]) {
    it(`POST ${path} is not the address: no act, no form`, async () => {
      const response = await worker(path, { method: "POST", body: page() });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('"url"');
    });
  }

  it("A1 /page?x, /%70age and /pages/../page are the address, with the same bytes", async () => {
    for (const path of ["/page?x", "/%70age", "/pages/../page"]) {
      const response = await worker(path);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(form.arrival);
    }
  });

  for (const id of [
    "..%2Fpage",
    "%00",
    "x".repeat(5000),
    "00000000-0000-4000-8000-000000000000",
    "00000000-0000-4000-8000-00000000000G",
    "<script>alert(1)</script>",
  ]) {
    it(`/pages/${id.length > 40 ? `${id.slice(0, 40)}…` : id} is no page: 404 as plain text, nothing reflected`, async () => {
      const response = await worker(`/pages/${id}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      const text = await response.text();
      expect(text).toMatch(/^(No page here\.\n|404 Not Found)$/);
    });
  }

  it("/pages/<an upper-case form of a real id> is no page (ids are compared exactly)", async () => {
    const { id } = (await (await worker("/page", { method: "POST", body: page() })).json()) as { id: string };
    expect((await worker(`/pages/${id}`)).status).toBe(200);
    expect((await worker(`/pages/${id.toUpperCase()}`)).status).toBe(404);
  });
});

describe("HEAD states GET's length", () => {
  it("S4 HEAD carries the Content-Length of the JSON form and of the page, not 0", async () => {
    const h = harness();
    const json = await h.fetch({ method: "HEAD" });
    expect(json.headers.get("content-length")).toBe(String(encode(form.arrival).byteLength));
    const html = await h.fetch({ method: "HEAD", headers: { Accept: "text/html" } });
    expect(html.headers.get("content-length")).toBe(String(encode(form.page).byteLength));
    expect(await html.text()).toBe("");
  });
});

describe("a body whose cancel never settles (edge-runtime's request bodies)", () => {
  /** A stream of `body` in 100-byte chunks whose cancel promise never settles; `cancelled` counts calls. */
  function stubborn(body: string) {
    const data = encode(body);
    const state = { cancelled: 0, offset: 0 };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.offset >= data.length) return controller.close();
        controller.enqueue(data.slice(state.offset, state.offset + 100));
        state.offset += 100;
      },
      cancel() {
        state.cancelled++;
        return new Promise<void>(() => {});
      },
    });
    return { stream, state };
  }
  /** Fails instead of hanging when the answer waits for the cancel. */
  const settled = (response: Promise<Response>) =>
    Promise.race([
      response,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer within 2 s")), 2000)),
    ]);

  it("V1 a Content-Length over the limit is answered 204 at once, and the body is cancelled", async () => {
    const h = harness({ maxBytes: 1000 });
    const { stream, state } = stubborn(page() + " ".repeat(2000));
    await expectRejected(h, await settled(h.post(stream, { "Content-Length": "2076" })), "content-too-large");
    expect(state.cancelled).toBe(1);
  });

  it("V1 a stream over the limit is answered 204 at once, and cancelled", async () => {
    const h = harness({ maxBytes: 1000 });
    const { stream, state } = stubborn(page() + " ".repeat(2000));
    await expectRejected(h, await settled(h.post(stream)), "content-too-large");
    expect(state.cancelled).toBe(1);
  });

  it("a Content-Encoding is answered 204 at once, and the body is cancelled unread", async () => {
    const h = harness();
    const { stream, state } = stubborn(page());
    await expectRejected(h, await settled(h.post(stream, { "Content-Encoding": "gzip" })), "content-encoding");
    expect(state.cancelled).toBe(1);
    expect(state.offset).toBeLessThanOrEqual(100);
  });

  it("the same stream under the limit and without a coding is read and accepted (control)", async () => {
    const h = harness({ maxBytes: 1000 });
    const { stream, state } = stubborn(page());
    await expectAccepted(h, await settled(h.post(stream)));
    expect(state.cancelled).toBe(0);
  });
});

describe("an act's answer is never read as HTML", () => {
  it('S1 a text/plain form post whose body is JSON (name `{"text":"<script>…`, value `"}`) is an act; its answer is JSON with nosniff', async () => {
    // What a third-party page's <form enctype="text/plain" method="post"> sends: name=value.
    const body = `${'{"title":"<script>alert(1)</script>","blocks":[{"type":"paragraph","spans":[{"text":"x'}=${'"}]}]}'}`;
    const h = harness({ act: (value) => value });
    const response = await h.post(body, { "Content-Type": "text/plain" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.json()).toEqual(JSON.parse(body));
  });

  it("X3 a development problem report is not sniffed either", async () => {
    const h = harness({ development: true });
    const response = await h.post(`${page()}x`);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("S1 mutated bodies never crash the address", () => {
  it("S1 600 byte-level mutations of valid pages: each is 200 with JSON.parse's value, or 204 with a code", async () => {
    const { valid } = await import("./fixtures.ts");
    const seeds = Object.values(valid).map((text) => encode(text));
    const h = harness();
    let accepted = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: seeds.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("set", "insert", "delete")), {
          minLength: 1,
          maxLength: 4,
        }),
        async (which, edits) => {
          const body = Array.from(seeds[which]!);
          for (const [at, byte, kind] of edits) {
            const i = at % (body.length + 1);
            if (kind === "set" && i < body.length) body[i] = byte;
            else if (kind === "insert") body.splice(i, 0, byte);
            else if (kind === "delete") body.splice(i, 1);
          }
          const bytes = Uint8Array.from(body);
          h.rejections.length = 0;
          const actsBefore = h.acts.length;
          const response = await h.post(bytes);
          if (response.status === 200) {
            accepted++;
            expect(h.acts.length).toBe(actsBefore + 1);
            expect(h.acts.at(-1)!.value).toEqual(JSON.parse(new TextDecoder().decode(bytes)));
          } else {
            rejected++;
            expect(response.status).toBe(204);
            expect(await response.text()).toBe("");
            expect(h.rejections).toHaveLength(1);
            expect(h.acts.length).toBe(actsBefore);
          }
        },
      ),
      { numRuns: 600, seed: 20261130 },
    );
    // Both outcomes occur, so the property checked something on each side.
    expect(accepted).toBeGreaterThan(0);
    expect(rejected).toBeGreaterThan(0);
  });
});

describe("C1 V1 readBody keeps the bytes exactly, however they are chunked", () => {
  it("C1 random bytes in random chunks (empty ones too), with or without Content-Length, come back exact; one byte over the limit does not", async () => {
    const { readBody } = await import("../../src/body/read-body.ts");
    const { ContentTooLargeError } = await import("../../src/body/content-too-large-error.ts");
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 40_000 }),
        fc.array(fc.nat({ max: 5000 }), { maxLength: 60 }),
        fc.boolean(),
        async (data, cuts, withLength) => {
          const stream = () => {
            const points = [...new Set(cuts.map((cut) => cut % (data.length + 1)))].sort((a, b) => a - b);
            const pieces: Uint8Array[] = [];
            let from = 0;
            for (const to of [...points, data.length]) {
              pieces.push(data.slice(from, Math.max(from, to)));
              from = Math.max(from, to);
            }
            return new ReadableStream<Uint8Array>({
              start(controller) {
                for (const piece of pieces) controller.enqueue(piece);
                controller.close();
              },
            });
          };
          const request = (maxHeader: boolean) =>
            new Request("http://address.test/page", {
              method: "POST",
              body: stream(),
              headers: maxHeader ? { "Content-Length": String(data.length) } : {},
            });
          const bytes = await readBody(request(withLength), { maxBytes: data.length });
          expect(bytes).toEqual(data);
          await expect(readBody(request(false), { maxBytes: data.length - 1 })).rejects.toBeInstanceOf(
            ContentTooLargeError,
          );
        },
      ),
      { numRuns: 150, seed: 1130 },
    );
  });

  it("C1 a page sent in 10⁴ one-byte chunks is the same act as the page in one piece", async () => {
    const text = page(Array.from({ length: 5 }, (_, i) => `{"text":"${i} é€😀 ${"x".repeat(1900)}"}`).join(","));
    const h = harness();
    const data = encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < data.length; i++) controller.enqueue(data.slice(i, i + 1));
        controller.close();
      },
    });
    await expectAccepted(h, await h.post(stream));
    expect(h.acts[0]!.value).toEqual(JSON.parse(text));
  });
});

/**
 * The page address behind a middleware that sets `Set-Cookie` on every answer to a request with
 * `?tag`; returns how to send it a request (to a path such as `/page?tag`).
 */
async function taggingAddress(): Promise<(path: string, init?: RequestInit) => Promise<Response>> {
  const { Hono } = await import("hono");
  const { address } = await import("../../src/address/address.ts");
  const app = new Hono();
  let n = 0;
  app.use("*", async (c, next) => {
    await next();
    if (c.req.query("tag") !== undefined) c.res.headers.set("Set-Cookie", `seen=${++n}`);
  });
  app.route("/page", address({ form, act: () => ({}) }));
  return async (path, init) => app.fetch(new Request(`http://address.test${path}`, init));
}

const cookie = (response: Response) => response.headers.get("set-cookie");

describe("A5 no answer carries a field set on an earlier answer", () => {
  it("A5 the answer fields are one shared Headers only while Response is workerd's own; a JavaScript Response gets the record", async () => {
    const { AnswerFields } = await import("../../src/address/answer-fields.ts");
    const fields = new AnswerFields({ "Cache-Control": "no-store" });
    expect(fields.init()).toBeInstanceOf(Headers);
    const Real = globalThis.Response;
    class Written extends Real {}
    globalThis.Response = Written as typeof Response;
    try {
      expect(fields.init()).toBe(fields.record);
    } finally {
      globalThis.Response = Real;
    }
    expect(fields.init()).toBeInstanceOf(Headers);
    expect(Object.isFrozen(fields.record)).toBe(true);
  });

  it("A5 with workerd's own Response (the shared Headers), a field a middleware sets on one answer stays on that answer", async () => {
    const send = await taggingAddress();
    // A rejected act (204, the empty fields) and a performed one (200, the act's fields).
    for (const [body, status] of [
      ["x", 204],
      [page(), 200],
    ] as const) {
      const tagged = await send("/page?tag", { method: "POST", body });
      expect(tagged.status).toBe(status);
      expect(cookie(tagged)).toMatch(/^seen=\d+$/);
      expect(cookie(await send("/page", { method: "POST", body }))).toBeNull();
    }
  });

  it("A5 with @hono/node-server's Response (it keeps the Headers object it is given), a field a middleware sets on one answer stays on that answer", async () => {
    const Real = globalThis.Response;
    // As @hono/node-server's Response does: `headers` is the very Headers object of the init.
    class KeepsHeaders extends Real {
      readonly #kept: Headers | undefined;
      constructor(body?: BodyInit | null, init?: ResponseInit) {
        super(body, init);
        this.#kept = init?.headers instanceof Headers ? init.headers : undefined;
      }
      override get headers(): Headers {
        return this.#kept ?? super.headers;
      }
    }
    const send = await taggingAddress();
    globalThis.Response = KeepsHeaders as typeof Response;
    try {
      const inits: (RequestInit | undefined)[] = [
        undefined,
        { method: "HEAD" },
        { headers: { Accept: "text/html" } },
        { headers: { "If-None-Match": "*" } },
        { method: "POST", body: "x" },
        { method: "POST", body: page() },
      ];
      for (const init of inits) {
        expect(cookie(await send("/page?tag", init))).toMatch(/^seen=\d+$/);
        expect(cookie(await send("/page", init))).toBeNull();
      }
    } finally {
      globalThis.Response = Real;
    }
  });
});
