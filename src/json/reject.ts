/**
 * How {@link parseJson} throws: a {@link JsonSyntaxError}, cheaply.
 *
 * @module
 */
import { JsonSyntaxError, type JsonSyntaxErrorCode } from "./json-syntax-error.ts";

/**
 * Throws the rejection. The error carries no stack trace: capturing one costs about ten
 * times a small parse, rejections are the path an attacker chooses, and the code and offset
 * say all there is to say. Where `Error.stackTraceLimit` is absent or cannot be set, the
 * error has the runtime's usual stack.
 */
export function fail(code: JsonSyntaxErrorCode, offset: number): never {
  const E = Error as { stackTraceLimit?: unknown };
  const limit = E.stackTraceLimit;
  if (typeof limit !== "number") throw new JsonSyntaxError(code, offset);
  let error: JsonSyntaxError;
  try {
    E.stackTraceLimit = 0;
    error = new JsonSyntaxError(code, offset);
  } catch {
    // Not writable (frozen intrinsics): the error gets the usual stack.
    error = new JsonSyntaxError(code, offset);
  } finally {
    if (E.stackTraceLimit !== limit) E.stackTraceLimit = limit;
  }
  throw error;
}

/** Rejects at `i` of a text of `length` bytes: the end of the text, or an unexpected byte. */
export function failAt(length: number, i: number): never {
  return fail(i >= length ? "unexpected-end" : "unexpected-byte", i);
}
