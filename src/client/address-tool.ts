/**
 * The one core of the tool adapters (`gpt-address/ai`, `gpt-address/langchain`,
 * `gpt-address/openai-agents`): a GPT address as a tool an agent framework can call. The form is
 * fetched at contact (and cached by its `Cache-Control` and `ETag`), projected for the actor
 * when one is named, and each call is read back (`null` as absent where the projection made a
 * property nullable), checked locally with the strict parser and the form's validator, and
 * POSTed with `If-Match` naming the form it was written against. The answers become results or
 * tool errors the model can act on: 412 fetches the form again and says it changed, 204 says
 * nothing was done, 429 waits `Retry-After` once (bounded), then says when to try again.
 *
 * Runtime-neutral: `fetch` and Web APIs only. Where code cannot be generated from text (Workers)
 * the local check uses a validator that needs none (`portable-validator.ts`).
 *
 * @see draft "Arrival", "The Act"; DESIGN.md X2 (form pinning)
 * @module
 */
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import { getProfile } from "../lint/actors/index.ts";
import { actorRows } from "../lint/actors/table.ts";
import { nullAsAbsent } from "./absent.ts";
import { type ArrivalDocument, ArrivalError, toArrivalDocument } from "./arrival-document.ts";
import { boundedRequest, EXCHANGE_TIMEOUT_MS, MAX_RESPONSE_BYTES, readAnswer } from "./bounded-answer.ts";
import { chooseValidator, type ValidatorChoice, type ValidatorKind } from "./choose-validator.ts";
import type { FormValidator } from "./form-validator.ts";
import { checkLocally, type LocalFailure } from "./local-check.ts";
import { mediaType } from "./media-type.ts";
import type { ClientWarning } from "./model.ts";
import { type ProfiledActor, profileIds, profiles } from "./profiles.ts";
import { projectForm } from "./projection.ts";
import {
  followRun,
  idempotencyKeyField,
  preferField,
  type Run,
  RunCancelled,
  RunGone,
  RunReadError,
  retryAfterSeconds,
} from "./run.ts";

/** Options of {@link contactAddress}. */
export interface AddressToolOptions {
  /** The `fetch` to reach the address with (default: the global one). */
  readonly fetch?: (input: Request) => Promise<Response>;
  /**
   * The model provider the tool is for: the form is projected for it (`profiles.ts`), and the
   * tool is strict when its linter profile accepts the projection. None: the form as published,
   * not strict.
   */
  readonly actor?: ProfiledActor;
  /** The tool's name (default: from the form's `title`, else the address's last path segment). */
  readonly name?: string;
  /** The `GPT-Actor` field sent with each act (H1: recorded, never a gate). */
  readonly gptActor?: string;
  /** The longest `Retry-After` waited for once after a 429, in seconds (default 10). */
  readonly maxRetryAfterSeconds?: number;
  /** Which local validator (default `auto`: the compiled one where code can be generated). */
  readonly validator?: ValidatorChoice;
  /** Where arrivals are cached (default: one cache per process, shared by every tool). */
  readonly cache?: ArrivalCache;
  /**
   * Ask for a run (`Prefer: respond-async[, wait=N]`, docs/runs.md). A `202` with `Location` is
   * followed either way, to the run's end: its `result` is the tool's result.
   */
  readonly respondAsync?: boolean | { readonly wait?: number };
  /** Gives a run up (`DELETE`) after this many ms; the call is then a tool error. Default: none. */
  readonly runTimeoutMs?: number;
  /**
   * The time limit of each exchange with the address (the GET of the form, the act's POST, each
   * read of a run), head and content, in ms (default 30 000): past it, the call is `unreachable`.
   */
  readonly timeoutMs?: number;
  /** The largest answer read, in bytes, after `fetch` undid any content coding (default 16 MiB). */
  readonly maxResponseBytes?: number;
}

/** Options of one call ({@link AddressTool.act}). */
export interface ActCallOptions {
  /** Aborts the act; after a 202, gives its run up (`DELETE`) and rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Sent as `Idempotency-Key` (quoted): a retry of the call with the same key is acted on once. */
  readonly idempotencyKey?: string;
  /** Called with the run's state after each read, when the act became a run. */
  readonly onProgress?: (run: Run) => void;
}

/** A cached arrival: the document, its entity-tag, when it goes stale, its validator. */
export interface CachedArrival {
  readonly document: ArrivalDocument;
  readonly etag: string | undefined;
  /** `Date.now()` after which it is revalidated. */
  readonly staleAt: number;
  readonly validator: Promise<{ validator: FormValidator; kind: ValidatorKind }>;
}

/** Arrivals by URL. */
export type ArrivalCache = Map<string, CachedArrival>;

const sharedCache: ArrivalCache = new Map();

/** What went wrong with a call, for the model: the message says what happened and what to do. */
export class AddressToolError extends Error {
  override readonly name = "AddressToolError";
  /**
   * `invalid`: the local check refused the value (nothing sent); `refused`: 204; `form-changed`:
   * 412; `rate-limited`: 429; `failed`: another answer, or the act's run ended `failed`;
   * `cancelled`: the act's run was cancelled (by the address, or given up after `runTimeoutMs`);
   * `unreachable`: no answer, or the act's run could not be read or is gone (404).
   */
  readonly code: "invalid" | "refused" | "form-changed" | "rate-limited" | "failed" | "cancelled" | "unreachable";
  /** The local check's failure (`invalid`). */
  readonly failure?: LocalFailure;
  /** The HTTP status, when the address answered. */
  readonly status?: number;
  constructor(
    code: AddressToolError["code"],
    message: string,
    options: { failure?: LocalFailure; status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    if (options.failure !== undefined) this.failure = options.failure;
    if (options.status !== undefined) this.status = options.status;
  }
}

/** A GPT address as a tool: its current definition, and the call. */
export interface AddressTool {
  readonly url: string;
  /** `[A-Za-z0-9_-]{1,64}`: a function name every provider takes. */
  readonly name: string;
  /** `p`, the address's own words on what it is and what to do, then the form's `description`. */
  readonly description: string;
  /** The form as the actor takes it (the projection), an object schema. */
  readonly parameters: Record<string, unknown>;
  /** Whether the actor's strict mode takes {@link parameters} (its linter profile accepts them). */
  readonly strict: boolean;
  /** What the projection changed. */
  readonly warnings: readonly ClientWarning[];
  /** Which validator checks calls locally. */
  readonly validator: ValidatorKind;
  /** The local check of a call's input (after `null` is read as absent), or `null` when it passes. */
  check(input: unknown): LocalFailure | null;
  /**
   * Acts with `input`: the address's 200 answer (parsed JSON, or its text).
   *
   * @throws {AddressToolError} with a message for the model.
   */
  act(input: unknown, options?: ActCallOptions): Promise<unknown>;
}

/** `max-age` of a `Cache-Control` field, less `Age`, in ms; 0 for `no-cache`/`no-store` or none. */
function freshFor(response: Response): number {
  const field = (response.headers.get("cache-control") ?? "").toLowerCase();
  if (/(^|,)\s*(no-store|no-cache)\b/.test(field)) return 0;
  const maxAge = /(^|,)\s*max-age=(\d+)/.exec(field);
  if (maxAge === null) return 0;
  const age = Number(response.headers.get("age") ?? 0) || 0;
  return Math.max(0, Number(maxAge[2]) - age) * 1000;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * Refuses, before anything is fetched, what is not an absolute `http:` or `https:` URL (a typo,
 * a relative path), which `fetch` would report as a failure to reach the address.
 *
 * @throws {TypeError} naming the text and what it should be.
 */
function requireHttpUrl(text: string, what: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(text).protocol;
  } catch {
    // Not a URL at all: refused below.
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw new TypeError(`${JSON.stringify(text)} is not the absolute http: or https: URL ${what}`);
  }
}

/** A function name from the form's title or the URL. */
function toolName(document: ArrivalDocument, url: string): string {
  const clean = (text: string) =>
    text
      .replace(/[^A-Za-z0-9_-]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 64);
  const title = typeof document.s === "object" ? (document.s as { title?: unknown }).title : undefined;
  const fromTitle = typeof title === "string" ? clean(title) : "";
  return fromTitle || clean(new URL(url).pathname.split("/").filter(Boolean).pop() ?? "") || "address";
}

/**
 * GETs the arrival with `fetch`: `Accept: application/json` (A6), the strict parse, `{p, m, s}`.
 * With `etag`, a conditional GET; `undefined` means 304 (the cached arrival is still current).
 */
async function fetchArrival(
  url: string,
  options: AddressToolOptions,
  doFetch: (input: Request) => Promise<Response>,
  etag?: string,
): Promise<{ document: ArrivalDocument; etag: string | undefined; freshMs: number } | { notModified: number }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (etag !== undefined) headers["if-none-match"] = etag;
  let response: Response;
  let bytes: Uint8Array;
  try {
    // No redirect is followed (a 3xx is the answer, A1), and the GET has a time and size limit.
    response = await doFetch(boundedRequest(url, { headers }, options.timeoutMs ?? EXCHANGE_TIMEOUT_MS));
    bytes = await readAnswer(response, url, options.maxResponseBytes ?? MAX_RESPONSE_BYTES);
  } catch (cause) {
    throw new AddressToolError("unreachable", `The address ${url} could not be reached: ${String(cause)}`, {
      cause,
    });
  }
  if (etag !== undefined && response.status === 304) return { notModified: freshFor(response) };
  if (response.status !== 200) throw new ArrivalError("A1", `GET ${url} answered ${response.status}, not 200`);
  const type = mediaType(response.headers.get("content-type"));
  if (type !== "application/json") {
    throw new ArrivalError("A2", `GET ${url} answered Content-Type ${type || "(none)"}, not application/json`);
  }
  let value: unknown;
  try {
    value = parseJson(bytes);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new ArrivalError("A2", `the arrival document is not strict JSON (${error.code} at byte ${error.offset})`);
  }
  return {
    document: toArrivalDocument(value),
    etag: response.headers.get("etag") ?? undefined,
    freshMs: freshFor(response),
  };
}

/** The arrival of `url`: from the cache while fresh, revalidated by its `ETag` when stale. */
async function arrive(
  url: string,
  options: AddressToolOptions,
  doFetch: (input: Request) => Promise<Response>,
  reload = false,
): Promise<CachedArrival> {
  const cache = options.cache ?? sharedCache;
  const cached = reload ? undefined : cache.get(url);
  if (cached !== undefined && cached.staleAt > Date.now()) return cached;
  const got = await fetchArrival(url, options, doFetch, cached?.etag);
  if ("notModified" in got) {
    const renewed = { ...cached!, staleAt: Date.now() + got.notModified };
    cache.set(url, renewed);
    return renewed;
  }
  const entry: CachedArrival = {
    document: got.document,
    etag: got.etag,
    staleAt: Date.now() + got.freshMs,
    validator: chooseValidator(got.document.s, options.validator ?? "auto"),
  };
  // Only a form that may be kept is kept (no-store, no max-age: fetched at each contact), but
  // its entity-tag still serves `If-Match` and a later conditional GET.
  if (got.freshMs > 0 || got.etag !== undefined) cache.set(url, entry);
  return entry;
}

/** The tool's definition for the current arrival. */
function define(arrival: CachedArrival, url: string, options: AddressToolOptions) {
  const { p, s } = arrival.document;
  if (typeof s !== "object" || (s as { type?: unknown }).type !== "object") {
    throw new ArrivalError("F1", `the form of ${url} is not an object schema, and a tool's input must be an object`);
  }
  const projection =
    options.actor === undefined ? { schema: s, warnings: [] } : projectForm(s, profiles[options.actor]);
  const strict =
    options.actor !== undefined &&
    actorRows([getProfile(profileIds[options.actor])], projection.schema)[0]?.verdict !== "rejected";
  const formDescription = typeof s.description === "string" ? s.description : "";
  return {
    name: options.name ?? toolName(arrival.document, url),
    description: formDescription === "" || p.includes(formDescription) ? p : `${p}\n\n${formDescription}`,
    parameters: projection.schema,
    warnings: projection.warnings,
    strict,
  };
}

/**
 * Contacts the address at `url`: fetches its form (or takes it from the cache) and returns it as
 * a tool.
 *
 * @throws {TypeError} when `url` is not an absolute `http:` or `https:` URL (nothing is fetched).
 * @throws {ArrivalError} when the address publishes no usable form, or one that is not an object.
 * @throws {AddressToolError} `unreachable` when it cannot be reached.
 * @example
 * ```ts
 * const feedback = await contactAddress("https://example.org/feedback", { actor: "openai" });
 * await feedback.act({ rating: 5, topic: "other" }); // { received: true, rating: 5 }
 * ```
 */
export async function contactAddress(url: string, options: AddressToolOptions = {}): Promise<AddressTool> {
  requireHttpUrl(url, "of a GPT address (such as https://example.org/feedback)");
  const doFetch = options.fetch ?? ((input: Request) => fetch(input));
  const maxWait = options.maxRetryAfterSeconds ?? 10;
  const timeoutMs = options.timeoutMs ?? EXCHANGE_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  /** The answer's content, bounded; a failure to read it whole is `unreachable` (the act may have been done). */
  const content = async (response: Response): Promise<Uint8Array> => {
    try {
      return await readAnswer(response, url, maxBytes);
    } catch (cause) {
      throw new AddressToolError(
        "unreachable",
        `The answer of ${url} could not be read (${String(cause)}); the act may have been done.`,
        { status: response.status, cause },
      );
    }
  };
  const readsNull = options.actor !== undefined && profiles[options.actor].rewrites?.optionalProperties === "nullable";
  let arrival = await arrive(url, options, doFetch);
  let checker = await arrival.validator;
  let definition = define(arrival, url, options);

  /** The input as bytes of a value of the form, and the local check's verdict. */
  const prepare = (input: unknown) => {
    const value = readsNull ? nullAsAbsent(input, arrival.document.s).value : input;
    const bytes = new Uint8Array(new TextEncoder().encode(JSON.stringify(value) ?? ""));
    return { bytes, failure: checkLocally(bytes, checker.validator) };
  };

  const prefer = preferField(options.respondAsync);
  const post = async (bytes: Uint8Array<ArrayBuffer>, call: ActCallOptions): Promise<Response> => {
    const { signal } = call;
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (arrival.etag !== undefined) headers["if-match"] = arrival.etag;
    if (options.gptActor !== undefined) headers["gpt-actor"] = options.gptActor;
    if (prefer !== undefined) headers.prefer = prefer;
    if (call.idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKeyField(call.idempotencyKey);
    try {
      // No redirect is followed (the value goes to the address only), and a time limit.
      return await doFetch(boundedRequest(url, { method: "POST", headers, body: bytes }, timeoutMs, signal));
    } catch (cause) {
      if (signal?.aborted) throw cause;
      throw new AddressToolError("unreachable", `The address could not be reached; the act may not have been done.`, {
        cause,
      });
    }
  };

  const answer = async (response: Response): Promise<unknown> => {
    const body = await content(response);
    if (mediaType(response.headers.get("content-type")) === "application/json") {
      try {
        return parseJson(body);
      } catch {
        // Not strict JSON: handed over as text.
      }
    }
    return new TextDecoder().decode(body);
  };

  /** The end of the run a 202 named: its result, or a tool error. */
  const follow = async (response: Response, call: ActCallOptions): Promise<unknown> => {
    const runUrl = new URL(response.headers.get("location")!, url).href;
    let accepted: unknown;
    try {
      accepted = parseJson(await content(response));
    } catch {
      // The 202's content is only a first progress line: the run's first read decides.
    }
    let run: Run;
    try {
      run = await followRun(runUrl, {
        address: url,
        fetch: doFetch,
        ...(call.signal ? { signal: call.signal } : {}),
        ...(call.onProgress ? { onProgress: call.onProgress } : {}),
        ...(options.runTimeoutMs === undefined ? {} : { timeoutMs: options.runTimeoutMs }),
        readTimeoutMs: timeoutMs,
        maxResponseBytes: maxBytes,
        ...(options.gptActor === undefined ? {} : { headers: { "gpt-actor": options.gptActor } }),
        accepted: { retryAfter: response.headers.get("retry-after"), run: accepted },
      });
    } catch (error) {
      if (error instanceof RunCancelled) {
        if (error.reason === "signal") throw call.signal?.reason ?? error;
        throw new AddressToolError(
          "cancelled",
          `The act ran longer than ${options.runTimeoutMs! / 1000} seconds and was cancelled; whether part of it was done is unknown.`,
          { status: 202, cause: error },
        );
      }
      if (error instanceof RunGone || error instanceof RunReadError) {
        throw new AddressToolError(
          "unreachable",
          "The act was accepted to run in the background, but its run can no longer be read; whether it was done is unknown.",
          { status: 202, cause: error },
        );
      }
      throw error;
    }
    if (run.status === "completed") return run.result;
    if (run.status === "failed") {
      throw new AddressToolError(
        "failed",
        "The act was accepted and ran in the background, but it failed; the address does not say why.",
        { status: 202 },
      );
    }
    throw new AddressToolError("cancelled", "The act's run was cancelled before it ended; it was not completed.", {
      status: 202,
    });
  };

  return {
    url,
    get name() {
      return definition.name;
    },
    get description() {
      return definition.description;
    },
    get parameters() {
      return definition.parameters;
    },
    get strict() {
      return definition.strict;
    },
    get warnings() {
      return definition.warnings;
    },
    get validator() {
      return checker.kind;
    },
    check: (input) => prepare(input).failure,
    async act(input, callOptions = {}) {
      const { signal } = callOptions;
      const { bytes, failure } = prepare(input);
      if (failure !== null) {
        throw new AddressToolError(
          "invalid",
          `Not sent, nothing was done: ${failure.message}. Call the tool again with a value the form accepts.`,
          { failure },
        );
      }
      let response = await post(bytes, callOptions);
      if (response.status === 429) {
        const wait = retryAfterSeconds(response.headers.get("retry-after"));
        await response.body?.cancel();
        if (wait === undefined || wait > maxWait) {
          throw new AddressToolError(
            "rate-limited",
            `The address is rate limiting acts (429); nothing was done.${wait === undefined ? "" : ` Try again in ${wait} seconds.`}`,
            { status: 429 },
          );
        }
        await sleep(wait * 1000, signal);
        response = await post(bytes, callOptions);
      }
      if (response.status === 202 && response.headers.has("location")) return follow(response, callOptions);
      switch (response.status) {
        case 200:
          return answer(response);
        case 204:
          throw new AddressToolError(
            "refused",
            "The address refused the act (204 No Content): nothing was done. It does not say why; the value passed the local check, so check it against the form's description and try another value.",
            { status: 204 },
          );
        case 412: {
          await response.body?.cancel();
          arrival = await arrive(url, options, doFetch, true);
          checker = await arrival.validator;
          definition = define(arrival, url, options);
          throw new AddressToolError(
            "form-changed",
            `The address's form changed since it was read (412 Precondition Failed); nothing was done. Its current form is:\n${JSON.stringify(definition.parameters)}\nCall the tool again with a value for this form.`,
            { status: 412 },
          );
        }
        case 429: {
          const wait = retryAfterSeconds(response.headers.get("retry-after"));
          await response.body?.cancel();
          throw new AddressToolError(
            "rate-limited",
            `The address is still rate limiting acts (429); nothing was done.${wait === undefined ? "" : ` Try again in ${wait} seconds.`}`,
            { status: 429 },
          );
        }
        default:
          await response.body?.cancel();
          throw new AddressToolError("failed", `The address answered ${response.status}; the act was not confirmed.`, {
            status: response.status,
          });
      }
    },
  };
}

/**
 * The message for the model of an error from {@link AddressTool.act}: the tool error's own, or a
 * general one for anything else (never the details of an unexpected error).
 */
export function toolErrorMessage(error: unknown): string {
  return error instanceof AddressToolError ? error.message : "The tool failed; nothing is known to have been done.";
}

/**
 * The `item` links of a site's API catalog (RFC 9727: `/.well-known/api-catalog`, a JSON
 * linkset, RFC 9264), in order: every API the site lists, GPT addresses among them.
 *
 * @param site - the site's origin or any URL on it (`https://example.org`).
 * @throws {TypeError} when `site` is not an absolute `http:` or `https:` URL.
 * @throws {AddressToolError} `unreachable` when the catalog cannot be fetched or read.
 */
export async function catalogItems(
  site: string,
  options: Pick<AddressToolOptions, "fetch" | "timeoutMs" | "maxResponseBytes"> = {},
): Promise<string[]> {
  requireHttpUrl(site, "of a site (such as https://example.org), or a list of addresses");
  const doFetch = options.fetch ?? ((input: Request) => fetch(input));
  const catalog = new URL("/.well-known/api-catalog", site).href;
  let linkset: unknown;
  try {
    const response = await doFetch(
      boundedRequest(
        catalog,
        { headers: { accept: "application/linkset+json" } },
        options.timeoutMs ?? EXCHANGE_TIMEOUT_MS,
      ),
    );
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const bytes = await readAnswer(response, catalog, options.maxResponseBytes ?? MAX_RESPONSE_BYTES);
    linkset = (JSON.parse(new TextDecoder().decode(bytes)) as { linkset?: unknown } | null)?.linkset;
  } catch (error) {
    throw new AddressToolError("unreachable", `no API catalog at ${catalog}: ${String(error)}`);
  }
  if (!Array.isArray(linkset)) throw new AddressToolError("unreachable", `${catalog} is not a linkset`);
  const hrefs: string[] = [];
  for (const context of linkset as { item?: unknown }[])
    for (const item of Array.isArray(context?.item) ? (context.item as { href?: unknown }[]) : [])
      if (typeof item?.href === "string") hrefs.push(new URL(item.href, catalog).href);
  return hrefs;
}

/**
 * Contacts every address of `source`, giving each tool a name of its own (a repeated name gets
 * `_2`, `_3`…): the URLs of a list, or the items of a site's API catalog ({@link catalogItems})
 * that are GPT addresses (an item whose answer is no arrival document, such as an MCP door, is
 * left out).
 *
 * @throws {ArrivalError} for a listed URL that publishes no usable form.
 */
export async function contactAddresses(
  source: string | readonly string[],
  options: Omit<AddressToolOptions, "name"> = {},
): Promise<AddressTool[]> {
  const fromCatalog = typeof source === "string";
  const urls = fromCatalog ? await catalogItems(source, options) : source;
  const contacted = await Promise.all(
    urls.map((url) =>
      contactAddress(url, options).catch((error: unknown) => {
        if (fromCatalog && error instanceof ArrivalError) return undefined;
        throw error;
      }),
    ),
  );
  const names = new Set<string>();
  const addresses: AddressTool[] = [];
  for (const address of contacted) {
    if (address === undefined) continue;
    let name = address.name;
    for (let n = 2; names.has(name); n++) name = `${address.name.slice(0, 60)}_${n}`;
    names.add(name);
    // A renamed tool is contacted again under its name (the arrival comes from the cache).
    addresses.push(name === address.name ? address : await contactAddress(address.url, { ...options, name }));
  }
  return addresses;
}
