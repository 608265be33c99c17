/**
 * `address()`: one GPT address as a Hono app (draft: Arrival, The Act, Verification).
 *
 * @module
 */

import type { Context, Env } from "hono";
import { Hono } from "hono";
import { BodyReadError } from "../body/body-read-error.ts";
import { ContentTooLargeError } from "../body/content-too-large-error.ts";
import { readBody } from "../body/read-body.ts";
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { DEFAULT_MAX_DEPTH, parseJson } from "../json/parse.ts";
import { matchesIfNoneMatch } from "./conditional.ts";
import type { CompiledForm } from "./form.ts";
import { prefersHtml } from "./negotiate.ts";
import { problemStatus, type Rejection, type RejectionCode } from "./rejection.ts";

/** What an act handler receives besides the value. */
export interface ActContext<E extends Env = Env> {
  /**
   * The `GPT-Actor` request field, or `null`: self-asserted and unauthenticated, to be
   * recorded at most, never used to gate anything (H1).
   */
  readonly actor: string | null;
  /** The Hono context of the request (bindings in `c.env`, the URL in `c.req.url`). */
  readonly c: Context<E>;
}

/** Options of {@link address}. */
export interface AddressOptions<Act, E extends Env = Env> {
  /** The form, as built from `forms/<name>.json` (`import { form } from "./generated/<name>.ts"`). */
  readonly form: CompiledForm<Act>;
  /**
   * Performs a valid act. Runs only after the body was read, parsed strictly and validated
   * against the very form GET serves. Its return value is the consequence of the act, sent
   * as the 200 JSON body (R1; `undefined` is sent as `null`). An exception it throws is a
   * server fault: logged with `console.error`, answered 500 with no body, never reported to
   * `onReject`.
   */
  readonly act: (value: Act, context: ActContext<E>) => unknown;
  /**
   * Called once per rejected act with its code and reason, for logs and metrics; the actor
   * only ever sees 204 (R2). Exceptions it throws are logged and otherwise ignored.
   */
  readonly onReject?: (rejection: Rejection) => void;
  /** The largest act body accepted, in bytes (V1). Default 1 MiB (1,048,576). */
  readonly maxBytes?: number;
  /**
   * The most arrays and objects an act may nest (counting the root). Default: the form's own
   * bound (`form.maxDepth`), or 64 when the form admits unbounded nesting.
   */
  readonly maxDepth?: number;
  /** When set, every GET/HEAD answer carries it as the advisory `GPT-Type` field (A4). */
  readonly gptType?: string;
  /**
   * `Cache-Control` of the JSON form, a shared-cacheable representation (S4). Default
   * {@link DEFAULT_CACHE_CONTROL}. The HTML page is always `private` (DESIGN.md §6).
   */
  readonly cacheControl?: string;
  /**
   * Development mode (X3), off by default: a rejected act is answered with an RFC 9457 problem
   * report (`application/problem+json`) naming the rejection code and reason, instead of 204.
   * Never turn it on for a public address: reasons help an actor shape a body that passes.
   */
  readonly development?: boolean;
}

/** The default `maxBytes` of an address: 1 MiB. */
export const DEFAULT_MAX_BYTES = 1_048_576;

/**
 * The default `Cache-Control` of the JSON form: any cache may keep it for 5 minutes and serve
 * it stale for an hour while revalidating (RFC 5861), so a changed form reaches actors within
 * about an hour at worst.
 */
export const DEFAULT_CACHE_CONTROL = "public, max-age=300, stale-while-revalidate=3600";

/** `Cache-Control` of the HTML page for people: not for shared caches, which may ignore `Vary`. */
const PAGE_CACHE_CONTROL = "private, max-age=300";

const ALLOW = "GET, HEAD, POST, OPTIONS";

type HeaderList = [string, string][];

/**
 * Creates the Hono app of one GPT address, to be mounted on its path.
 *
 * - GET and HEAD answer the arrival document `{p, m, s}` from bytes encoded once, here, with a
 *   strong `ETag`, `Cache-Control`, `Vary: Accept` and `Access-Control-Allow-Origin: *`
 *   (A1, A2, A5, S4); a matching `If-None-Match` gets 304. An `Accept` that prefers `text/html`
 *   gets the page for people rendered at build time (A6).
 * - POST reads the body under `maxBytes` (V1), parses it strictly (V2), validates it with the
 *   form's generated validator (V3, V4) and only then calls `act` with the value and the
 *   `GPT-Actor` field (H1), answering 200 with its result as JSON (R1). Whatever the
 *   `Content-Type` says, every body goes through all three stages. Any failure is answered 204
 *   with no body and no hint (R2) and reported to `onReject`.
 * - OPTIONS answers the CORS preflight; any other method gets 405 with `Allow`.
 *
 * Nothing depends on cookies or on earlier requests (A5).
 *
 * @param options - {@link AddressOptions}.
 * @returns a Hono app answering at its root path `/`.
 * @throws {RangeError} when `maxBytes` or `maxDepth` is not a non-negative safe integer.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.2 (If-None-Match)
 * @see https://www.rfc-editor.org/rfc/rfc9457 (problem details, development mode)
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { address } from "gpt-address";
 * import { form } from "./generated/page.ts";
 *
 * const app = new Hono();
 * app.route("/page", address({ form, act: (page) => ({ title: page.title }) }));
 * export default app;
 * ```
 */
export function address<Act, E extends Env = Env>(options: AddressOptions<Act, E>): Hono<E> {
  const { form, act, onReject, gptType, development = false } = options;
  const maxBytes = limit("maxBytes", options.maxBytes ?? DEFAULT_MAX_BYTES);
  const maxDepth = limit("maxDepth", options.maxDepth ?? form.maxDepth ?? DEFAULT_MAX_DEPTH);
  const cacheControl = options.cacheControl ?? DEFAULT_CACHE_CONTROL;

  // Precomputed once: GET does header matching and nothing else (S4).
  const encoder = new TextEncoder();
  const arrivalBytes = encoder.encode(form.arrival);
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
  const arrivalHeadHeaders: HeaderList = [...arrivalHeaders, ["Content-Length", String(arrivalBytes.byteLength)]];
  const pageHeadHeaders: HeaderList = [...pageHeaders, ["Content-Length", String(pageBytes.byteLength)]];
  const preflightHeaders: HeaderList = [
    ["Allow", ALLOW],
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Allow-Methods", ALLOW],
    ["Access-Control-Allow-Headers", "Content-Type, GPT-Actor, If-None-Match"],
    ["Access-Control-Max-Age", "86400"],
  ];
  // nosniff: an act's answer may echo the actor's text, and a browser can be made to POST a
  // text/plain form whose body is valid JSON; its answer must never be read as HTML.
  const actHeaders: HeaderList = [
    ["Content-Type", "application/json"],
    ["X-Content-Type-Options", "nosniff"],
    ["Cache-Control", "no-store"],
    ["Access-Control-Allow-Origin", "*"],
  ];
  const emptyHeaders: HeaderList = [
    ["Cache-Control", "no-store"],
    ["Access-Control-Allow-Origin", "*"],
  ];

  // Header lists, never Headers objects shared between responses: @hono/node-server's
  // Response keeps the Headers object it is given, so a middleware that sets a field on one
  // answer (`c.res.headers.set`) would set it on every later answer too (A5).
  const arrivalGet = new Headers(arrivalHeaders);
  const pageGet = new Headers(pageHeaders);

  function arrive(request: Request): Response {
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
    return new Response(html ? pageBytes : arrivalBytes, {
      status: 200,
      headers: new Headers(html ? pageGet : arrivalGet),
    });
  }

  function reject(request: Request, code: RejectionCode, reason: string): Response {
    if (onReject !== undefined) {
      try {
        onReject({ code, reason, request });
      } catch (error) {
        console.error(`gpt-address: onReject of the address "${form.name}" threw`, error);
      }
    }
    if (development) {
      const { status, title } = problemStatus(code);
      const problem = JSON.stringify({ type: "about:blank", title, status, detail: reason, code });
      return new Response(problem, {
        status,
        headers: [["Content-Type", "application/problem+json"], ["X-Content-Type-Options", "nosniff"], ...emptyHeaders],
      });
    }
    return new Response(null, { status: 204, headers: emptyHeaders });
  }

  /** A server fault (a throwing act, or a bug in a stage): logged, 500, never a rejection. */
  function fault(what: string, error: unknown): Response {
    console.error(`gpt-address: ${what} of the address "${form.name}" threw`, error);
    return new Response(null, { status: 500, headers: emptyHeaders });
  }

  async function perform(c: Context<E>): Promise<Response> {
    try {
      return await verify(c);
    } catch (error) {
      // Only an unexpected exception gets here: every rejection returned 204 already. Failing
      // with 500 keeps an unchecked body from reaching the act (V4).
      return fault("verification", error);
    }
  }

  async function verify(c: Context<E>): Promise<Response> {
    const request = c.req.raw;
    // No decompression: a coded body is rejected unread (DESIGN.md §6).
    const coding = request.headers.get("content-encoding");
    if (!onlyCodings(coding, "identity")) {
      void request.body?.cancel().catch(() => {}); // not awaited: see readBody
      return reject(request, "content-encoding", `Content-Encoding ${JSON.stringify(coding)}`);
    }
    // A runtime that passes a transfer coding it did not decode (Node keeps `gzip` of
    // `gzip, chunked`) would hand over coded bytes; only plain chunking is read.
    const transfer = request.headers.get("transfer-encoding");
    if (!onlyCodings(transfer, "chunked")) {
      void request.body?.cancel().catch(() => {}); // not awaited: see readBody
      return reject(request, "transfer-encoding", `Transfer-Encoding ${JSON.stringify(transfer)}`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readBody(request, { maxBytes });
    } catch (error) {
      if (error instanceof ContentTooLargeError || error instanceof BodyReadError) {
        return reject(request, error.code, error.message);
      }
      throw error;
    }
    let value: unknown;
    try {
      value = parseJson(bytes, { maxDepth });
    } catch (error) {
      if (error instanceof JsonSyntaxError) return reject(request, `json-syntax:${error.code}`, error.message);
      throw error;
    }
    if (!form.validate(value)) return reject(request, "schema", form.lastFailure());
    let body: string;
    try {
      const result = await act(value, { actor: request.headers.get("gpt-actor"), c });
      // JSON.stringify gives undefined for a function or symbol: not a JSON consequence (R1).
      const json: string | undefined = JSON.stringify(result === undefined ? null : result);
      if (json === undefined) throw new TypeError("the act handler returned a value JSON cannot represent");
      body = json;
    } catch (error) {
      return fault("the act handler", error);
    }
    return new Response(body, { status: 200, headers: actHeaders });
  }

  const app = new Hono<E>();
  app.all("/", function gptAddress(c) {
    switch (c.req.method) {
      case "GET":
      case "HEAD":
        return arrive(c.req.raw);
      case "POST":
        return perform(c);
      case "OPTIONS":
        return new Response(null, { status: 204, headers: preflightHeaders });
      default:
        return new Response(null, { status: 405, headers: [["Allow", ALLOW], ...emptyHeaders] });
    }
  });
  return app;
}

/**
 * Whether a coding list field (`Content-Encoding`, `Transfer-Encoding`: `#coding`, RFC 9110
 * §5.6.1) is absent or names no coding but `only`, case-insensitively. Empty list elements are
 * allowed by the list syntax and name nothing, so an empty field is no coding at all.
 */
function onlyCodings(field: string | null, only: string): boolean {
  if (field === null) return true;
  for (const element of field.split(",")) {
    const coding = element.trim().toLowerCase();
    if (coding !== "" && coding !== only) return false;
  }
  return true;
}

function limit(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`address(): ${name} must be a non-negative safe integer, got ${value}`);
  }
  return value;
}
