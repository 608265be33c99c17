/**
 * Arrival: the answers to GET and HEAD of an address, precomputed once per form (draft:
 * Arrival; A1, A2, A5, A6, S4). Door-independent: `address()` wires it to Hono, and any other
 * door that publishes the form reuses the same bytes and entity-tags.
 *
 * @module
 */

import { matchesIfNoneMatch } from "./conditional.ts";
import type { CompiledForm } from "./form.ts";
import { prefersHtml } from "./negotiate.ts";

/**
 * The default `Cache-Control` of the JSON form: any cache may keep it for 5 minutes and serve
 * it stale for an hour while revalidating (RFC 5861), so a changed form reaches actors within
 * about an hour at worst.
 */
export const DEFAULT_CACHE_CONTROL = "public, max-age=300, stale-while-revalidate=3600";

/** `Cache-Control` of the HTML page for people: not for shared caches, which may ignore `Vary`. */
const PAGE_CACHE_CONTROL = "private, max-age=300";

/** A list of response fields, name and value; a fresh `Headers` is built from it per answer. */
export type HeaderList = [string, string][];

/** Options of {@link prepareArrival}. */
export interface ArrivalOptions {
  /** When set, every answer carries it as the advisory `GPT-Type` field (A4). */
  readonly gptType?: string;
  /** `Cache-Control` of the JSON form (S4). Default {@link DEFAULT_CACHE_CONTROL}. */
  readonly cacheControl?: string;
}

/** The precomputed arrival of one form: its bytes, entity-tags and answers. */
export interface Arrival {
  /** The UTF-8 bytes of the arrival document `{p, m, s}`, exactly as GET sends them. */
  readonly bytes: Uint8Array;
  /** Strong entity-tag of {@link bytes}, quoted (`form.etag`). */
  readonly etag: string;
  /** The UTF-8 bytes of the HTML page for people (A6). */
  readonly pageBytes: Uint8Array;
  /** Strong entity-tag of {@link pageBytes}, quoted (`form.pageEtag`). */
  readonly pageEtag: string;
  /**
   * Answers a GET or HEAD request: 304 when `If-None-Match` matches the selected
   * representation's entity-tag, else 200 with the JSON form, or the page when `Accept`
   * prefers `text/html`. HEAD gets the fields GET would send, `Content-Length` included, and no
   * content. Never reads the body; never throws.
   *
   * @param request - a GET or HEAD request (any other method is answered as GET).
   */
  readonly answer: (request: Request) => Response;
}

/**
 * Precomputes the arrival of `form`: the bytes are encoded and the response fields listed
 * here, once, so answering a GET does header matching and nothing else (S4).
 *
 * Every answer carries `ETag`, `Cache-Control`, `Vary: Accept` and
 * `Access-Control-Allow-Origin: *`; the page also carries its `Content-Security-Policy`.
 *
 * @param form - the compiled form whose `arrival` and `page` are served.
 * @param options - {@link ArrivalOptions}.
 * @returns the {@link Arrival}.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.2 (If-None-Match)
 */
export function prepareArrival(form: CompiledForm, options: ArrivalOptions = {}): Arrival {
  const { gptType } = options;
  const cacheControl = options.cacheControl ?? DEFAULT_CACHE_CONTROL;
  const encoder = new TextEncoder();
  const bytes = encoder.encode(form.arrival);
  const pageBytes = encoder.encode(form.page);
  const common: HeaderList = [
    ["Vary", "Accept"],
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Expose-Headers", gptType === undefined ? "ETag" : "ETag, GPT-Type"],
    ...(gptType === undefined ? [] : [["GPT-Type", gptType] as [string, string]]),
  ];
  const arrivalNotModified: HeaderList = [["ETag", form.etag], ["Cache-Control", cacheControl], ...common];
  const arrivalHeaders: HeaderList = [
    ["Content-Type", "application/json"],
    ["X-Content-Type-Options", "nosniff"],
    ...arrivalNotModified,
  ];
  const pageNotModified: HeaderList = [["ETag", form.pageEtag], ["Cache-Control", PAGE_CACHE_CONTROL], ...common];
  const pageHeaders: HeaderList = [
    ["Content-Type", "text/html; charset=utf-8"],
    ["Content-Security-Policy", form.pageContentSecurityPolicy],
    ["X-Content-Type-Options", "nosniff"],
    ...pageNotModified,
  ];
  const arrivalHeadHeaders: HeaderList = [...arrivalHeaders, ["Content-Length", String(bytes.byteLength)]];
  const pageHeadHeaders: HeaderList = [...pageHeaders, ["Content-Length", String(pageBytes.byteLength)]];

  // Header lists or fresh copies, never Headers objects shared between responses:
  // @hono/node-server's Response keeps the Headers object it is given, so a middleware that
  // sets a field on one answer (`c.res.headers.set`) would set it on every later answer (A5).
  const arrivalGet = new Headers(arrivalHeaders);
  const pageGet = new Headers(pageHeaders);

  function answer(request: Request): Response {
    const html = prefersHtml(request.headers.get("accept"));
    const etag = html ? form.pageEtag : form.etag;
    if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
      return new Response(null, { status: 304, headers: html ? pageNotModified : arrivalNotModified });
    }
    if (request.method === "HEAD") {
      // The length GET would send (RFC 9110 §9.3.2); runtimes otherwise say 0 for a null body.
      return new Response(null, { status: 200, headers: html ? pageHeadHeaders : arrivalHeadHeaders });
    }
    // A fresh copy of Headers built once: cheaper than a list, and never shared between answers.
    return new Response(html ? pageBytes : bytes, {
      status: 200,
      headers: new Headers(html ? pageGet : arrivalGet),
    });
  }

  return { bytes, etag: form.etag, pageBytes, pageEtag: form.pageEtag, answer };
}
