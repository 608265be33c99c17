/**
 * The consequence of an act (draft: The Act; R1): what an act handler returned, as the JSON
 * text every door sends back. Door-independent, like verification.
 *
 * @module
 */

/**
 * Encodes what an act handler returned as the JSON text of its consequence; `undefined` is
 * `null` (R1).
 *
 * @param result - the act handler's (awaited) return value.
 * @returns the JSON text.
 * @throws {TypeError} when JSON cannot represent `result` (a function, a symbol, a `BigInt`, a
 *   cycle): a server fault of the act handler, never the actor's.
 */
export function encodeConsequence(result: unknown): string {
  // JSON.stringify gives undefined for a function or symbol: not a JSON consequence.
  const json: string | undefined = JSON.stringify(result === undefined ? null : result);
  if (json === undefined) throw new TypeError("the act handler returned a value JSON cannot represent");
  return json;
}

/** What an act handler may answer instead of performing a valid act: see {@link ActDeclined}. */
export type DeclinedStatus = 400 | 413 | 503;

/**
 * Thrown by an act handler that declines a valid act it cannot perform, for a reason that is
 * not the value's: the store is full for now (503 Service Unavailable with `Retry-After`, RFC
 * 9110 §15.6.4), what the act would keep is larger than the address keeps (413 Content Too
 * Large, §15.5.14), or the request around the act is malformed (400, such as an unparseable
 * `Host`). The HTTP door answers that status with no body (and `Retry-After` when given); the
 * MCP door a tool result with `isError: true` that says it. Logged with the code `declined`,
 * never reported to `onReject` (the value was valid) and never as a fault.
 *
 * @example
 * ```ts
 * throw new ActDeclined(503, { retryAfterSeconds: 60, message: "the page store is full" });
 * ```
 */
export class ActDeclined extends Error {
  override readonly name = "ActDeclined";
  readonly status: DeclinedStatus;
  /** Seconds until the act may succeed (`Retry-After`), for a 503; `undefined` when unknown. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: DeclinedStatus,
    options: { readonly retryAfterSeconds?: number; readonly message?: string; readonly cause?: unknown } = {},
  ) {
    super(options.message ?? `the act was declined with ${status}`, { cause: options.cause });
    this.status = status;
    const seconds = options.retryAfterSeconds;
    this.retryAfterSeconds = seconds === undefined ? undefined : Math.max(0, Math.ceil(seconds));
  }
}
