/**
 * The media type of a `Content-Type` field value (RFC 9110 §8.3.1), for code on any runtime.
 *
 * @module
 */

/** The media type of a `Content-Type` field value, lower-cased, without parameters. */
export function mediaType(field: string | undefined | null): string {
  return (field ?? "").split(";")[0]!.trim().toLowerCase();
}
