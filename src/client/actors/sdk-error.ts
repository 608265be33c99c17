/**
 * One mapping from a vendor SDK's thrown error to {@link ModelError}: the HTTP status and the
 * provider's structured error code, read from the error's fields (never from its message).
 *
 * @module
 */
import { ModelError, retryableStatus } from "../model.ts";

/** Structured codes that say "do not try again" even on a retryable status (a 429 for an exhausted quota). */
const FINAL_CODES = new Set(["insufficient_quota", "billing_hard_limit_reached", "RESOURCE_EXHAUSTED_QUOTA"]);
/** Structured codes that say "try again" whatever the status. */
const RETRY_CODES = new Set([
  "rate_limit_exceeded",
  "overloaded_error",
  "rate_limit_error",
  "api_error",
  "UNAVAILABLE",
]);

function field(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Wraps what an SDK threw; a {@link ModelError} passes through unchanged. */
export function toModelError(provider: string, error: unknown): ModelError {
  if (error instanceof ModelError) return error;
  const rawStatus = field(error, "status") ?? field(error, "status_code") ?? field(error, "code");
  const status = typeof rawStatus === "number" ? rawStatus : undefined;
  const rawCode =
    field(error, "error", "code") ??
    field(error, "error", "error", "type") ??
    field(error, "error", "type") ??
    field(error, "code") ??
    field(error, "type");
  const code = typeof rawCode === "string" ? rawCode : undefined;
  const retryable =
    code !== undefined && FINAL_CODES.has(code)
      ? false
      : code !== undefined && RETRY_CODES.has(code)
        ? true
        : status === undefined
          ? field(error, "name") === "APIConnectionError" || field(error, "cause", "code") === "ECONNREFUSED"
          : retryableStatus(status);
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(provider, message, { status, code, retryable, cause: error });
}
