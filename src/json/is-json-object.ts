/**
 * The one test for "a JSON object" on parsed values.
 *
 * @module
 */

/**
 * Is `value` a JSON object (RFC 8259 §4): an object that is neither `null` nor an array? Forms,
 * schemas, arrival documents and their members are tested with it.
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
