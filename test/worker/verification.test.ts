/**
 * The door-independent core inside workerd: verification stages (V1–V4) and the arrival
 * (A2, A6, S4) as plain functions, without Hono. Every refusal is paired with an accepted
 * control that differs from it in one respect.
 */
import { describe, expect, it } from "vitest";
import { forms } from "../../examples/pages/generated/forms.js";
import { encodeConsequence } from "../../src/address/act.ts";
import { prepareArrival } from "../../src/address/arrival.ts";
import {
  parseAct,
  receiveAct,
  validateAct,
  verificationLimits,
  verifyAct,
  verifyBytes,
} from "../../src/address/verification.ts";

const form = forms.feedback;
const limits = verificationLimits(form);
const valid = '{"rating":4,"topic":"other"}';
const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://address.test/feedback", { method: "POST", body, headers });

describe("verification core", () => {
  it("verificationLimits: the form's own bounds by default (1 MiB when it bounds no size); bad limits throw", () => {
    // feedback: 3 members, no array, its longest act as a serializer writes it 24,296 bytes.
    expect(limits).toEqual({
      maxBytes: 24_296,
      maxDepth: form.maxDepth,
      maxStringLength: form.maxStringLength,
      maxMembers: 3,
      maxItems: 0,
      bodyDeadlineMs: 5_000,
    });
    expect(form.maxStringLength).toBeTypeOf("number");
    const given = { maxBytes: 10, maxDepth: 3, maxStringLength: 7, maxMembers: 5, maxItems: 6, bodyDeadlineMs: 100 };
    expect(verificationLimits(form, given)).toEqual(given);
    // A form that bounds nothing, or a module built before the bounds existed: no limit but 1 MiB.
    const open = { maxBytes: 1_048_576, maxStringLength: Infinity, maxMembers: Infinity, maxItems: Infinity };
    expect(verificationLimits({ maxDepth: null, maxStringLength: null })).toMatchObject(open);
    expect(
      verificationLimits({ maxDepth: null, maxStringLength: null, maxMembers: null, maxItems: null, maxBytes: null }),
    ).toMatchObject(open);
    expect(verificationLimits({ maxDepth: null } as typeof form).maxStringLength).toBe(Infinity);
    // A form's own byte bound above 1 MiB leaves 1 MiB.
    expect(verificationLimits({ ...form, maxBytes: 2 ** 40 }).maxBytes).toBe(1_048_576);
    expect(verificationLimits(form, { maxMembers: Infinity, maxItems: Infinity })).toMatchObject({
      maxMembers: Infinity,
      maxItems: Infinity,
    });
    expect(() => verificationLimits(form, { maxMembers: -1 })).toThrow(/maxMembers/);
    expect(() => verificationLimits(form, { maxItems: 0.5 })).toThrow(/maxItems/);
    expect(verificationLimits(form, { maxStringLength: Infinity }).maxStringLength).toBe(Infinity);
    expect(() => verificationLimits(form, { maxStringLength: 2.5 })).toThrow(/maxStringLength/);
    expect(() => verificationLimits(form, { maxStringLength: Number.NaN })).toThrow(RangeError);
    expect(() => verificationLimits(form, { bodyDeadlineMs: 0 })).toThrow(/bodyDeadlineMs/);
    expect(() => verificationLimits(form, { maxBytes: -1 }, "mcp()")).toThrow(/^mcp\(\): maxBytes/);
    expect(() => verificationLimits(form, { maxDepth: 1.5 })).toThrow(RangeError);
  });

  it("V1: receiveAct refuses more than maxBytes; exactly maxBytes is read", async () => {
    const bytes = new TextEncoder().encode(valid);
    expect(await receiveAct(post(valid), { maxBytes: bytes.length })).toEqual({ ok: true, value: bytes });
    const over = await receiveAct(post(valid), { maxBytes: bytes.length - 1 });
    expect(over).toMatchObject({ ok: false, code: "content-too-large" });
  });

  it("receiveAct refuses a coded body unread; identity is read", async () => {
    expect(await receiveAct(post(valid, { "Content-Encoding": "gzip" }), limits)).toMatchObject({
      ok: false,
      code: "content-encoding",
    });
    expect((await receiveAct(post(valid, { "Content-Encoding": "identity" }), limits)).ok).toBe(true);
  });

  it("V2: parseAct refuses a duplicate name and trailing bytes; the plain value parses", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(parseAct(bytes(valid), limits)).toEqual({ ok: true, value: { rating: 4, topic: "other" } });
    expect(parseAct(bytes('{"rating":4,"rating":5,"topic":"other"}'), limits)).toMatchObject({
      ok: false,
      code: "json-syntax:duplicate-name",
    });
    expect(parseAct(bytes(`${valid} x`), limits)).toMatchObject({ ok: false, code: "json-syntax:trailing-bytes" });
  });

  it("V2: parseAct refuses a string or member name past maxStringLength; at it, and without it, the value parses", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    const topic = (text: string) => bytes(`{"rating":4,"topic":${JSON.stringify(text)}}`);
    const bounds = { maxDepth: 2, maxStringLength: 6 }; // "rating" is 6 code units
    expect(parseAct(topic("abcdef"), bounds).ok).toBe(true);
    expect(parseAct(topic("abcdefg"), bounds)).toMatchObject({ ok: false, code: "json-syntax:string-too-long" });
    expect(parseAct(bytes('{"rating":4,"topic_7":"a"}'), bounds)).toMatchObject({
      code: "json-syntax:string-too-long",
    });
    expect(parseAct(topic("abcdefg"), { maxDepth: 2 }).ok).toBe(true);
    // The feedback form: a topic from its enum, a comment of at most 1999 code points.
    expect(parseAct(topic("x".repeat(form.maxStringLength! + 1)), limits)).toMatchObject({
      code: "json-syntax:string-too-long",
    });
  });

  it("V2: parseAct refuses an object or array past maxMembers or maxItems from the bytes; the form's own bounds", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    // feedback admits 3 members and no array: a fourth member is refused at the comma before it.
    const four = '{"rating":4,"topic":"other","comment":"x","extra":1}';
    expect(parseAct(bytes(four), limits)).toMatchObject({ code: "json-syntax:too-many-members" });
    expect(parseAct(bytes(four), { ...limits, maxMembers: 4 }).ok).toBe(true); // then the form refuses it
    expect(parseAct(bytes('{"rating":[1]}'), limits)).toMatchObject({ code: "json-syntax:too-many-items" });
    expect(parseAct(bytes('{"rating":[]}'), limits).ok).toBe(true);
    expect(parseAct(bytes("[1, 2, 3]"), { maxDepth: 2, maxItems: 2 })).toMatchObject({
      code: "json-syntax:too-many-items",
    });
  });

  it("V3: validateAct refuses with the failing keyword's pointer; a valid value passes", () => {
    expect(validateAct({ rating: 4, topic: "other" }, form)).toEqual({
      ok: true,
      value: { rating: 4, topic: "other" },
    });
    const refused = validateAct({ rating: 6, topic: "other" }, form);
    expect(refused).toEqual({
      ok: false,
      code: "schema",
      reason: "/properties/rating/maximum",
      pointer: "/properties/rating/maximum",
    });
  });

  it("verifyAct runs all three stages; verifyBytes the last two", async () => {
    expect(await verifyAct(post(valid), form, limits)).toEqual({ ok: true, value: { rating: 4, topic: "other" } });
    expect(await verifyAct(post('{"rating":0,"topic":"other"}'), form, limits)).toMatchObject({ code: "schema" });
    expect(await verifyAct(post("{"), form, limits)).toMatchObject({ code: "json-syntax:unexpected-end" });
    const bytes = new TextEncoder().encode(valid);
    expect(verifyBytes(bytes, form, limits).ok).toBe(true);
    expect(verifyBytes(bytes, form, { maxDepth: 0 })).toMatchObject({ ok: false, code: "json-syntax:depth-exceeded" });
  });

  it("R1: encodeConsequence is the JSON of the result, null for undefined; a function throws", () => {
    expect(encodeConsequence({ received: true })).toBe('{"received":true}');
    expect(encodeConsequence(undefined)).toBe("null");
    expect(() => encodeConsequence(() => 1)).toThrow(TypeError);
  });
});

describe("arrival core", () => {
  const arrival = prepareArrival(form, { gptType: "feedback" });

  it("A2, S4: the bytes are the form's arrival; GET answers them with the form's ETag", async () => {
    expect(new TextDecoder().decode(arrival.bytes)).toBe(form.arrival);
    expect(arrival.etag).toBe(form.etag);
    const response = arrival.answer(new Request("http://address.test/feedback"));
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(form.etag);
    expect(response.headers.get("gpt-type")).toBe("feedback");
    expect(await response.text()).toBe(form.arrival);
  });

  it("A6: text/html gets the page; a matching If-None-Match gets 304", async () => {
    const page = arrival.answer(new Request("http://address.test/feedback", { headers: { Accept: "text/html" } }));
    expect(page.headers.get("etag")).toBe(form.pageEtag);
    expect(await page.text()).toBe(form.page);
    const cached = arrival.answer(
      new Request("http://address.test/feedback", { headers: { "If-None-Match": form.etag } }),
    );
    expect(cached.status).toBe(304);
  });
});
