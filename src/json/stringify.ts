/**
 * The JSON text of a parsed value that may hold a `bigint` (a form file parsed with
 * `bigIntegers`): `JSON.stringify`, where a `bigint` is written as its exact digits.
 *
 * @module
 */

/**
 * `JSON.stringify(value, null, indent)`, except that a `bigint` anywhere in `value` is written
 * as its decimal digits (`9223372036854775807`), the number literal it was parsed from, where
 * `JSON.stringify` throws. The same text otherwise, byte for byte.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8259#section-6 RFC 8259 §6 (numbers)
 * @example
 * ```ts
 * stringifyJson({ maximum: 9223372036854775807n }); // '{"maximum":9223372036854775807}'
 * ```
 */
export function stringifyJson(value: unknown, indent?: number): string {
  if (!holdsBigInt(value)) return JSON.stringify(value, null, indent);
  // Each bigint becomes a string no value can hold by chance (a random tag), then its digits.
  const tag = `\u0000${crypto.randomUUID()}:`;
  const text = JSON.stringify(
    value,
    (_, member: unknown) => (typeof member === "bigint" ? `${tag}${member}` : member),
    indent,
  );
  const quoted = JSON.stringify(tag).slice(0, -1);
  return text.replace(new RegExp(`${escapeRegExp(quoted)}(-?\\d+)"`, "g"), "$1");
}

/** Does `value` hold a `bigint` at any depth? */
export function holdsBigInt(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "bigint") return true;
    if (typeof item === "object" && item !== null) for (const member of Object.values(item)) pending.push(member);
  }
  return false;
}

/** `value` with every `bigint` replaced by the nearest double: for what only reads the type of a number. */
export function withoutBigInts(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (typeof value !== "object" || value === null || !holdsBigInt(value)) return value;
  if (Array.isArray(value)) return value.map(withoutBigInts);
  const copy: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    // defineProperty: a member named __proto__ stays an own member, as the parser made it.
    Object.defineProperty(copy, name, {
      value: withoutBigInts(member),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}
