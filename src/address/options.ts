/**
 * The options of `address()` and what an act handler receives: the author-facing side of the
 * HTTP door, kept apart from its wiring (`address.ts`).
 *
 * @module
 */
import type { Context, Env } from "hono";
import type { RunStore } from "../run/run.ts";
import type { ActDeclined } from "./act.ts";
import type { ActLogEntry } from "./act-log.ts";
import type { DEFAULT_CACHE_CONTROL } from "./arrival.ts";
import type { CompiledForm } from "./form.ts";
import type { RateLimit } from "./rate-limit.ts";
import type { Rejection } from "./rejection.ts";

/** What an act handler receives besides the value. */
export interface ActContext<E extends Env = Env> {
  /**
   * The `GPT-Actor` request field, or `null`: self-asserted and unauthenticated, to be
   * recorded at most, never used to gate anything (H1).
   */
  readonly actor: string | null;
  /** The Hono context of the request (bindings in `c.env`, the URL in `c.req.url`). */
  readonly c: Context<E>;
  /**
   * Aborted when the act should stop: for an act performed as a run, when the run is cancelled
   * (`DELETE` of its URL, MCP `tasks/cancel`) or expires; otherwise when the request ends early
   * (the client went away; a runtime that never tells, never).
   */
  readonly signal: AbortSignal;
  /**
   * Records how the act is going, for an act performed as a run: `message` becomes the run's
   * `statusMessage` (at most 1,024 UTF-16 code units kept), `fraction` (0 to 1) its `progress`.
   * Does nothing for an act performed within its request. Never throws.
   */
  progress(message: string, fraction?: number): void;
}

/**
 * Runs (docs/runs.md): acts that outlive their request, off unless given. The same shape on both
 * doors (`address()`'s `runs`, an MCP tool's `runs`).
 */
export interface RunsOptions<E extends Env = Env> {
  /** Where runs live: a store, or one per request (on Workers, from bindings in `c.env`). */
  readonly store: RunStore | ((c: Context<E>) => RunStore);
  /**
   * The longest wait for the act's own answer before a run is answered, in ms: the cap on
   * `Prefer: wait=N` (N seconds; RFC 7240 §4.3), and on the MCP door the wait before a tool call
   * becomes a task. Default 10,000. A client that asks for no run waits as without runs.
   */
  readonly maxWaitMs?: number;
  /**
   * How often clients should poll a run, in ms (the run's `pollIntervalMs`; `Retry-After` is it
   * in seconds, rounded up), and how often the instance acting reads a cancel. Default 1,000.
   */
  readonly pollIntervalMs?: number;
  /**
   * The largest consequence a run keeps, in UTF-8 bytes of its JSON: a positive safe integer
   * (else RangeError). Default 61,440 (60 KiB), or the store's own maximum when smaller. It never
   * limits an answer given within the request: an act that finishes within the wait is answered
   * its 200 whatever its size; only its run, read later (a `GET` of the run URL, a replay of its
   * `Idempotency-Key`, `tasks/get`), ends `failed` with `statusMessage` "the act's answer is too
   * large to keep". Each store's own limit (`RunStore.maxResultBytes`), which this may not pass
   * (RangeError): `DenoKvRunStore` 64,512 (Deno KV keeps 64 KiB per value),
   * `DurableObjectRunStore` 1 MiB (its SQLite storage keeps 2 MB per row), `SqliteRunStore` and
   * `MemoryRunStore` none that matters.
   */
  readonly maxResultBytes?: number;
}

/** Options of {@link address}. */
export interface AddressOptions<Act, E extends Env = Env> {
  /** The form, as built from `forms/<name>.json` (`import { form } from "./generated/<name>.js"`). */
  readonly form: CompiledForm<Act>;
  /**
   * Performs a valid act. Runs only after the body was read, parsed strictly and validated
   * against the very form GET serves. Its return value is the consequence of the act, sent
   * as the 200 JSON body (R1; `undefined` is sent as `null`). An {@link ActDeclined} it throws
   * is answered with its status (400, 413, or 503 with `Retry-After`) and no body; any other
   * exception is a server fault: logged with `console.error`, answered 500 with no body. Neither
   * is reported to `onReject`.
   */
  readonly act: (value: Act, context: ActContext<E>) => unknown;
  /**
   * Called once per rejected act with its code and reason, for logs and metrics; the actor
   * only ever sees 204 (R2). Exceptions it throws are logged and otherwise ignored.
   */
  readonly onReject?: (rejection: Rejection) => void;
  /**
   * The largest act body accepted, in bytes (V1). Default: the longest valid act as a
   * serializer writes it (`form.maxBytes`: every character escaped, numbers in 32 bytes, a
   * whitespace margin; src/compile/README.md) when the form bounds it below 1 MiB, else 1 MiB
   * (1,048,576).
   */
  readonly maxBytes?: number;
  /**
   * The most arrays and objects an act may nest (counting the root). Default: the form's own
   * bound (`form.maxDepth`), or 64 when the form admits unbounded nesting.
   */
  readonly maxDepth?: number;
  /**
   * The longest string, value or member name, an act may hold, in UTF-16 code units (V2; a
   * non-negative safe integer, or `Infinity` for none); a longer one is refused by the parser
   * (`json-syntax:string-too-long`) before it is decoded whole. Default: the form's own bound
   * (`form.maxStringLength`), or none when the form admits unbounded strings.
   */
  readonly maxStringLength?: number;
  /**
   * The most members any object of an act may have (V2; a non-negative safe integer, or
   * `Infinity` for none); one more is refused by the parser (`json-syntax:too-many-members`)
   * before it is read. Default: the form's own bound (`form.maxMembers`), or none.
   */
  readonly maxMembers?: number;
  /**
   * The most items any array of an act may have, as {@link maxMembers}
   * (`json-syntax:too-many-items`). Default: the form's own bound (`form.maxItems`), or none.
   */
  readonly maxItems?: number;
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
  /**
   * Rate limits by client (draft: Denial of Service): separate limiters for arrivals and acts.
   * A limited request is answered 429 with `Retry-After` (never 204, which means the value was
   * wrong), an act before its body is read. None by default. See {@link RateLimit}.
   */
  readonly rateLimit?: RateLimit<E>;
  /**
   * The time an act's whole body may take to arrive, in milliseconds; a body still arriving
   * then is rejected (`body-deadline`) and its connection closed. Default 5 s.
   */
  readonly bodyDeadlineMs?: number;
  /**
   * Called once per act (200), per rejected act (204), per refused request (429, 412, and 405
   * for a method the address does not answer) and per fault (500) with one structured entry:
   * never the body or a value from it. Exceptions it throws are logged and otherwise ignored.
   * None by default; `(e) => console.log(formatActLog(e))` writes JSON lines (Workers Logs and
   * `wrangler tail` show them).
   */
  readonly onLog?: (entry: ActLogEntry) => void;
  /**
   * Runs (docs/runs.md), off by default: with a store, an act sent with `Prefer: respond-async`
   * (RFC 7240) that has not finished within its wait is answered `202 Accepted` with the run's
   * URL (`<address>/runs/<taskId>`: GET its state, DELETE cancels it), and an act sent with an
   * `Idempotency-Key` is acted on once per key. Verification comes first: an invalid act never
   * creates a run. Without the preference or the key the address answers as without runs.
   */
  readonly runs?: RunsOptions<E>;
}
