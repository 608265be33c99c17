/**
 * The origin the example writes into the URLs it answers with (the act's `url`, the text
 * index): the one configured (`PUBLIC_ORIGIN`), or, only when none is, the request's own, which
 * comes from its `Host` field or an absolute-form target and so is whatever the client wrote.
 *
 * @module
 */
import type { Context } from "hono";

/**
 * Reads the `PUBLIC_ORIGIN` setting: the origin people reach the server at
 * (`https://gpt.example.com`), or `undefined` when unset or empty.
 *
 * @returns the origin as the URL standard serializes it (lower-case host, no default port).
 * @throws {RangeError} naming the setting, for anything but an `http:` or `https:` origin (a
 *   path, query, fragment or user name is refused).
 */
export function publicOrigin(value: string | undefined): string | undefined {
  const text = (value ?? "").trim();
  if (text === "") return undefined;
  const refuse = (): never => {
    throw new RangeError(`PUBLIC_ORIGIN must be an http(s) origin such as https://gpt.example.com, got "${value}"`);
  };
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    refuse();
  }
  const { protocol, username, password, pathname, search, hash, origin } = url!;
  if (!/^https?:$/.test(protocol) || username !== "" || password !== "") refuse();
  if (pathname !== "/" || search !== "" || hash !== "" || /[?#]$/.test(text)) refuse();
  return origin;
}

/**
 * The origin of the URLs answered to `c`: `configured` when there is one; else the request's,
 * or `null` when its URL cannot be parsed (a malformed `Host` that the runtime passed on).
 */
export function originOf(c: Context, configured: string | undefined): string | null {
  if (configured !== undefined) return configured;
  try {
    return new URL(c.req.url).origin;
  } catch {
    return null;
  }
}
