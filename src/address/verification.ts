/**
 * Verification: the door-independent path every act takes before it is acted on (draft: The
 * Act, Verification; V1–V4). Bytes are read under a size limit, parsed by the strict parser,
 * and validated by the form's generated validator; only a value that passed all three is ever
 * handed to an act.
 *
 * Each stage returns an outcome instead of throwing for bad input, so every door (the HTTP
 * door of `address()`, the MCP door) maps the same {@link Refusal} to its own wire answer.
 * Only an unexpected fault (a bug in a stage) throws; a door must then fail closed without
 * acting.
 *
 * ```text
 * Request ──receiveAct──▶ bytes ──parseAct──▶ value ──validateAct──▶ Act
 *         └──────────────── verifyAct (all three) ────────────────────┘
 *                          └─────── verifyBytes (parse + validate) ───┘
 * ```
 *
 * @module
 */

import { BodyReadError } from "../body/body-read-error.ts";
import { ContentTooLargeError } from "../body/content-too-large-error.ts";
import { lingerUnread, type NodeMessage, nodeMessageOf, type PendingContinue } from "../body/node-message.ts";
import { DEFAULT_BODY_DEADLINE_MS, type HeadLimit, readBody } from "../body/read-body.ts";
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { DEFAULT_MAX_DEPTH, parseJson } from "../json/parse.ts";
import type { CompiledForm } from "./form.ts";
import type { RejectionCode } from "./rejection.ts";

/** The default `maxBytes` of an act: 1 MiB (1,048,576 bytes). */
export const DEFAULT_MAX_BYTES = 1_048_576;

/** The bounds verification enforces, resolved by {@link verificationLimits}. */
export interface VerificationLimits {
  /** The largest body read, in bytes (V1); a non-negative safe integer. */
  readonly maxBytes: number;
  /** The most arrays and objects the value may nest, counting the root (V2). */
  readonly maxDepth: number;
  /**
   * The longest string, value or member name, the value may hold, in UTF-16 code units (V2);
   * a non-negative safe integer, or `Infinity` for none.
   */
  readonly maxStringLength: number;
  /** The most members any object of the value may have (V2); a non-negative safe integer, or `Infinity`. */
  readonly maxMembers: number;
  /** The most items any array of the value may have (V2); a non-negative safe integer, or `Infinity`. */
  readonly maxItems: number;
  /** The time the whole body may take to arrive, in milliseconds (`readBody`'s `deadlineMs`). */
  readonly bodyDeadlineMs: number;
  /**
   * When true, a syntax refusal's `reason` names the line and column as well as the byte
   * offset. It costs a pass over the body, so only development mode (X3) asks for it.
   */
  readonly lineColumn?: boolean;
}

/** A stage that passed, with what it produced. */
export interface Verified<T> {
  readonly ok: true;
  readonly value: T;
}

/** A stage that refused its input: the act is rejected and nothing is acted on (R2). */
export interface Refusal {
  readonly ok: false;
  /** The stage and reason, stable and safe to count in metrics ({@link RejectionCode}). */
  readonly code: RejectionCode;
  /** Details for logs (an error message, or the failing keyword's pointer); never for actors. */
  readonly reason: string;
  /**
   * For `schema`: the JSON Pointer, into the form `s`, of the keyword that failed (its
   * `keywordLocation`, such as `/properties/title/maxLength`). Absent for other codes.
   */
  readonly pointer?: string;
}

/** The outcome of a verification stage. */
export type Verification<T> = Verified<T> | Refusal;

/** Options {@link verificationLimits} resolves; both optional. */
export interface VerificationLimitOptions {
  /**
   * The largest body accepted, in bytes. Default: the form's own bound (`form.maxBytes`, the
   * longest valid act as a serializer writes it) when it is below {@link DEFAULT_MAX_BYTES},
   * else {@link DEFAULT_MAX_BYTES}.
   */
  readonly maxBytes?: number;
  /**
   * The most arrays and objects a value may nest (counting the root). Default: the form's own
   * bound (`form.maxDepth`), or {@link DEFAULT_MAX_DEPTH} when the form admits unbounded nesting.
   */
  readonly maxDepth?: number;
  /**
   * The longest string, value or member name, a value may hold, in UTF-16 code units (a
   * non-negative safe integer, or `Infinity` for none). Default: the form's own bound
   * (`form.maxStringLength`), or none when the form admits unbounded strings.
   */
  readonly maxStringLength?: number;
  /**
   * The most members any object of a value may have (a non-negative safe integer, or
   * `Infinity` for none). Default: the form's own bound (`form.maxMembers`), or none.
   */
  readonly maxMembers?: number;
  /**
   * The most items any array of a value may have (a non-negative safe integer, or `Infinity`
   * for none). Default: the form's own bound (`form.maxItems`), or none.
   */
  readonly maxItems?: number;
  /**
   * The time the whole body may take to arrive, in milliseconds (a positive number; `Infinity`
   * for none). Default {@link DEFAULT_BODY_DEADLINE_MS}, 5 s.
   */
  readonly bodyDeadlineMs?: number;
}

/**
 * Resolves the limits of one form's verification from options and the form's own bounds.
 *
 * @param form - the compiled form (its `maxDepth`, `maxStringLength`, `maxMembers`, `maxItems`
 *   and `maxBytes` are the defaults; a module built before one of them existed has none).
 * @param options - {@link VerificationLimitOptions}.
 * @param who - the caller named in the error message (`"address()"`, `"mcp()"`).
 * @returns the resolved {@link VerificationLimits}.
 * @throws {RangeError} when `maxBytes` or `maxDepth` is not a non-negative safe integer,
 *   `maxStringLength`, `maxMembers` or `maxItems` neither that nor `Infinity`, or
 *   `bodyDeadlineMs` not a positive number.
 */
export function verificationLimits(
  form: Pick<CompiledForm, "maxDepth" | "maxStringLength" | "maxMembers" | "maxItems" | "maxBytes">,
  options: VerificationLimitOptions = {},
  who = "address()",
): VerificationLimits {
  // A form module built before a bound existed has none: no bound, as for null.
  const formBytes = form.maxBytes ?? DEFAULT_MAX_BYTES;
  return {
    maxBytes: limit(who, "maxBytes", options.maxBytes ?? Math.min(formBytes, DEFAULT_MAX_BYTES)),
    maxDepth: limit(who, "maxDepth", options.maxDepth ?? form.maxDepth ?? DEFAULT_MAX_DEPTH),
    maxStringLength: countLimit(who, "maxStringLength", options.maxStringLength ?? form.maxStringLength ?? Infinity),
    maxMembers: countLimit(who, "maxMembers", options.maxMembers ?? form.maxMembers ?? Infinity),
    maxItems: countLimit(who, "maxItems", options.maxItems ?? form.maxItems ?? Infinity),
    bodyDeadlineMs: deadline(who, options.bodyDeadlineMs ?? DEFAULT_BODY_DEADLINE_MS),
  };
}

/**
 * Stage 1, the reader (V1): the request's body as bytes, never more than `limits.maxBytes`.
 *
 * A coded body (`Content-Encoding` other than `identity`) is refused unread, since nothing is
 * decompressed (DESIGN.md §6); so is a transfer coding other than `chunked` a runtime passed
 * on undecoded (Node keeps `gzip` of `gzip, chunked`). Whatever the `Content-Type` says, the
 * bytes are read; judging the media type is a door's business. The body is consumed or
 * cancelled in every case.
 *
 * @param request - the request whose body is read.
 * @param limits - `maxBytes`, the body deadline, and a `headLimit` (`readBody`'s) if any.
 * @param message - on Node, the unread message `request` was made from (`nodeMessageOf`): the
 *   bytes are read from it, without building `request.body` (issue 16); the same checks apply.
 * @param pending - with `message`, its response when it is owed a `100 Continue`
 *   (`continuePending`): sent only once the body is to be read.
 * @returns the bytes, or a {@link Refusal} coded `content-encoding`, `transfer-encoding`,
 *   `content-too-large`, or a `BodyReadError` code.
 * @throws {RangeError} when `limits.maxBytes` is invalid (a programming error).
 * @see ../body/read-body.ts
 */
export async function receiveAct(
  request: Request,
  limits: Pick<VerificationLimits, "maxBytes"> & { readonly bodyDeadlineMs?: number; readonly headLimit?: HeadLimit },
  message?: NodeMessage,
  pending?: PendingContinue,
): Promise<Verification<Uint8Array>> {
  const coding = request.headers.get("content-encoding");
  if (!onlyCodings(coding, "identity")) {
    discardAct(request, message);
    return refuse("content-encoding", `Content-Encoding ${JSON.stringify(coding)}`);
  }
  const transfer = request.headers.get("transfer-encoding");
  if (!onlyCodings(transfer, "chunked")) {
    discardAct(request, message);
    return refuse("transfer-encoding", `Transfer-Encoding ${JSON.stringify(transfer)}`);
  }
  try {
    return {
      ok: true,
      value: await readBody(request, {
        maxBytes: limits.maxBytes,
        deadlineMs: limits.bodyDeadlineMs,
        headLimit: limits.headLimit,
        message,
        pending,
      }),
    };
  } catch (error) {
    if (error instanceof ContentTooLargeError || error instanceof BodyReadError) {
      return refuse(error.code, error.message);
    }
    throw error;
  }
}

/**
 * Gives up a body a door refuses before reading it (a rate limit, a pin, a media type, a
 * method it does not answer): a web body is cancelled, not awaited (a source's cancel may never
 * settle; see `readBody`); a Node message is left alone, since touching `request.body` would
 * build the very stream the message path avoids.
 *
 * @param request - the request whose body is not read.
 * @param message - on Node, the unread message `request` was made from (`nodeMessageOf`).
 * @returns whether the answer must say `Connection: close`: the request carried a body (a web
 *   body, or a message framed with `Content-Length` other than 0 or with `Transfer-Encoding`,
 *   RFC 9112 §6.3) and {@link closesUnread} says so.
 */
export function discardAct(request: Request, message?: NodeMessage): boolean {
  if (message !== undefined) {
    const length = request.headers.get("content-length");
    const framed = request.headers.has("transfer-encoding") || (length !== null && length !== "0");
    return framed && closesUnread(request, message);
  }
  const body = request.body;
  if (body === null) return false;
  if (!body.locked) void body.cancel().catch(() => {});
  return true;
}

/**
 * Whether a request carries a body, for a door answering a method whose body it never reads
 * (GET, HEAD, OPTIONS): such a body is discarded with {@link discardAct}, or Node would read all
 * of it after the answer to keep the connection (its own dump of an unread message, bounded
 * only by the server's `requestTimeout`: a GET declaring 4 GiB cost 3.6 s of CPU). On a Node
 * message the fields say (RFC 9112 §6.3: `Content-Length` other than 0, or `Transfer-Encoding`),
 * since asking `request.body` there builds a web stream; elsewhere `request.body`.
 *
 * @param request - the request.
 * @param message - on Node, the message `request` was made from (`nodeMessageOf`).
 * @returns `true` when there is a body.
 */
export function carriesBody(request: Request, message: NodeMessage | undefined): boolean {
  if (message === undefined) return request.body !== null;
  const headers = request.headers;
  const length = headers.get("content-length");
  return (length !== null && length !== "0") || headers.has("transfer-encoding");
}

/**
 * For an answer that never reads the body (GET, HEAD, OPTIONS, or a route outside the doors):
 * discards a body the request carries ({@link carriesBody}, {@link discardAct}) and says whether
 * the answer must say `Connection: close`. Not for a request whose body was read.
 *
 * @param request - the request (`c.req.raw`).
 * @param env - its bindings (`c.env`), where @hono/node-server keeps Node's message.
 * @returns `true` when the answer must close the connection ({@link closing}).
 */
export function leavesBodyUnread(request: Request, env: unknown): boolean {
  const message = nodeMessageOf(request, env);
  return carriesBody(request, message) && discardAct(request, message);
}

/**
 * `answer` with `Connection: close` added (a body left unread, {@link discardAct}); a promise
 * of one, likewise. The answers given here have fields of their own to add to.
 */
export function closing<A extends Response | Promise<Response>>(answer: A): A {
  return (answer instanceof Promise ? answer.then(closeAfter) : closeAfter(answer)) as A;
}

function closeAfter(answer: Response): Response {
  answer.headers.set("Connection", "close");
  return answer;
}

/**
 * Whether the answer to a request whose body a door leaves unread (refused before reading,
 * or given up while reading: too large, too slow) must say `Connection: close` (RFC 9112 §9.6),
 * the same rule behind every door. A runtime that would go on reading the rest (Bun's and
 * Deno's own servers, workerd) closes when the answer says so: always, off a Node message. On
 * a Node message (`nodeMessageOf`), Node would destroy the socket at once after such an answer,
 * with the upload still arriving, and the reset lost the answer; there {@link lingerUnread}
 * either leaves a small rest to @hono/node-server, which reads it and keeps the connection
 * (`false`), or sets a lingering close that reads nothing (`true`). A body read whole keeps the
 * connection: closing after every rejected act made valid acts sharing connections with
 * rejected ones reconnect (issue 16, under attack 0.43×).
 *
 * @param request - the request whose body is left unread.
 * @param message - on Node, the message `request` was made from (`nodeMessageOf`).
 * @returns `true` when the answer must say `Connection: close`.
 */
export function closesUnread(request: Request, message?: NodeMessage): boolean {
  return message === undefined || lingerUnread(message, request.headers);
}

/** The limits {@link parseAct} reads: `maxDepth`, and the others when present (absent: no bound). */
export type ParseLimits = Pick<VerificationLimits, "maxDepth" | "lineColumn"> &
  Partial<Pick<VerificationLimits, "maxStringLength" | "maxMembers" | "maxItems">>;

/**
 * Stage 2, the strict parser (V2): UTF-8 JSON bytes to a value, refusing duplicate names,
 * trailing bytes, lone surrogates, nesting deeper than `limits.maxDepth`, a string or member
 * name longer than `limits.maxStringLength` (UTF-16 code units), an object of more members than
 * `limits.maxMembers`, an array of more items than `limits.maxItems` (each absent: no bound)
 * and everything else `parseJson` refuses.
 *
 * @param bytes - the bytes read.
 * @param limits - {@link ParseLimits}.
 * @returns the value, or a {@link Refusal} coded `json-syntax:<JsonSyntaxError code>`.
 * @see ../json/parse.ts
 */
export function parseAct(bytes: Uint8Array, limits: ParseLimits): Verification<unknown> {
  try {
    return {
      ok: true,
      value: parseJson(bytes, {
        maxDepth: limits.maxDepth,
        maxStringLength: limits.maxStringLength ?? Infinity,
        maxMembers: limits.maxMembers ?? Infinity,
        maxItems: limits.maxItems ?? Infinity,
      }),
    };
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      return refuse(`json-syntax:${error.code}`, limits.lineColumn === true ? error.messageIn(bytes) : error.message);
    }
    throw error;
  }
}

/**
 * Stage 3, the generated validator (V3, V4): whether `value` is valid against the very form
 * the arrival publishes.
 *
 * @param value - a value parsed from JSON text (by `parseJson` or `JSON.parse`, or a part of
 *   one): its objects' prototype is `Object.prototype`, so `form.validate.parsed` is exact for
 *   it and is used when the validator carries it.
 * @param form - the compiled form.
 * @returns the value typed as the act, or a {@link Refusal} coded `schema` whose `pointer` and
 *   `reason` are the failing keyword's location in `s`.
 */
export function validateAct<Act>(value: unknown, form: CompiledForm<Act>): Verification<Act> {
  // `parsed` only when the very validator carries it (FormValidate); else called as a method.
  const parsed = form.validate.parsed;
  const valid = parsed === undefined ? form.validate(value) : parsed(value);
  if (valid) return { ok: true, value: value as Act };
  const pointer = form.lastFailure();
  return { ok: false, code: "schema", reason: pointer, pointer };
}

/**
 * Stages 2 and 3: bytes already read (and already within `maxBytes`) to a valid act.
 *
 * @param bytes - the act's bytes.
 * @param form - the compiled form.
 * @param limits - as for {@link parseAct}.
 * @returns the valid act, or the first stage's {@link Refusal}.
 */
export function verifyBytes<Act>(bytes: Uint8Array, form: CompiledForm<Act>, limits: ParseLimits): Verification<Act> {
  const parsed = parseAct(bytes, limits);
  return parsed.ok ? validateAct(parsed.value, form) : parsed;
}

/**
 * The whole verification of an act carried by a request: reader, strict parser, generated
 * validator, in that order, each stage only on what the previous one passed.
 *
 * @param request - the request carrying the act; its body is consumed.
 * @param form - the compiled form.
 * @param limits - {@link VerificationLimits}, from {@link verificationLimits}.
 * @param message - on Node, the message `request` was made from, as in {@link receiveAct}.
 * @returns the valid act, or the first stage's {@link Refusal}.
 * @throws only on an unexpected fault inside a stage (never for bad input): the caller must
 *   then answer without acting.
 * @example
 * ```ts
 * const limits = verificationLimits(form);
 * const outcome = await verifyAct(request, form, limits);
 * if (outcome.ok) await act(outcome.value);
 * else console.log(outcome.code, outcome.reason);
 * ```
 */
export async function verifyAct<Act>(
  request: Request,
  form: CompiledForm<Act>,
  limits: VerificationLimits,
  message?: NodeMessage,
): Promise<Verification<Act>> {
  const received = await receiveAct(request, limits, message);
  return received.ok ? verifyBytes(received.value, form, limits) : received;
}

function refuse(code: RejectionCode, reason: string): Refusal {
  return { ok: false, code, reason };
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

function limit(who: string, name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${who}: ${name} must be a non-negative safe integer, got ${value}`);
  }
  return value;
}

function countLimit(who: string, name: string, value: number): number {
  if (value !== Infinity && !(Number.isSafeInteger(value) && value >= 0)) {
    throw new RangeError(`${who}: ${name} must be a non-negative safe integer or Infinity, got ${value}`);
  }
  return value;
}

function deadline(who: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`${who}: bodyDeadlineMs must be a positive number, got ${value}`);
  return value;
}
