/**
 * Accept negotiation (A6) and If-None-Match matching (S4) as functions.
 */
import { describe, expect, it } from "vitest";
import { matchesIfNoneMatch } from "../../src/address/conditional.ts";
import { prefersHtml } from "../../src/address/negotiate.ts";

describe("prefersHtml", () => {
  it("A6 never chooses HTML unless text/html itself is named and acceptable", () => {
    for (const accept of [
      null,
      "",
      "*/*",
      "text/*",
      "application/json",
      "text/plain",
      "text/htm",
      "text/html;q=0",
      "text/html;q=0.000",
    ]) {
      expect(prefersHtml(accept), String(accept)).toBe(false);
    }
  });

  it("A6 weighs text/html against the most specific range matching application/json", () => {
    expect(prefersHtml("text/html")).toBe(true);
    expect(prefersHtml("text/html;q=0.1")).toBe(true);
    expect(prefersHtml("text/html;q=0.5,*/*;q=0.6")).toBe(false);
    expect(prefersHtml("text/html;q=0.5,*/*;q=0.6,application/json;q=0.4")).toBe(true);
    expect(prefersHtml("text/html;q=0.5,application/*;q=0.6")).toBe(false);
    expect(prefersHtml("text/html ; q=1.000 , application/json ; q=1")).toBe(true);
    expect(prefersHtml("application/json;q=0, text/html;q=0.001")).toBe(true);
  });

  it("A6 ignores ranges with a malformed weight", () => {
    expect(prefersHtml("text/html;q=1.5")).toBe(false);
    expect(prefersHtml("text/html;q=abc")).toBe(false);
    expect(prefersHtml("text/html, application/json;q=x")).toBe(true);
  });
});

describe("matchesIfNoneMatch", () => {
  const etag = '"abc"';
  it("S4 matches the tag, its weak form, a list member and *", () => {
    for (const field of ['"abc"', 'W/"abc"', '"x", "abc"', '"a,b" ,W/"abc"', "*", " * "]) {
      expect(matchesIfNoneMatch(field, etag), field).toBe(true);
    }
  });

  it("S4 matches nothing for other tags, prefixes, unquoted or malformed fields", () => {
    for (const field of [null, "", '"ab"', '"abcd"', "abc", '"abc', 'w/"abc"', '"x" "abc"', '"abc"x', '"a,"abc""']) {
      expect(matchesIfNoneMatch(field, etag), String(field)).toBe(false);
    }
  });
});
