/**
 * The transport's guards of the MCP door, before any byte of a message is read: the `Host` and
 * `Origin` checks (DNS-rebinding protection), the media type and `Accept`. Each is pure and
 * returns a value; the door maps a refusal to its answer (`answers.ts`: 403, 415, 406).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices
 * @module
 */
import { acceptWeights } from "../address/negotiate.ts";
import { LOOPBACK_HOSTS, type McpOptions } from "./options.ts";

/** The hosts and origins an endpoint admits, resolved once from `allowedHosts` and `allowedOrigins`. */
export interface HostPolicy {
  /** Host names (no port; lower case; IPv6 in brackets), or `null` to admit any `Host`. */
  readonly hosts: ReadonlySet<string> | null;
  /** Origins admitted besides those of an allowed host. */
  readonly origins: ReadonlySet<string>;
}

/** The policy of `allowedHosts` (default {@link LOOPBACK_HOSTS}; `null`: any host) and `allowedOrigins`. */
export function hostPolicy(options: Pick<McpOptions, "allowedHosts" | "allowedOrigins">): HostPolicy {
  const allowed = options.allowedHosts === undefined ? LOOPBACK_HOSTS : options.allowedHosts;
  return {
    hosts: allowed === null ? null : new Set(allowed.map((host) => host.toLowerCase())),
    origins: new Set(options.allowedOrigins ?? []),
  };
}

/**
 * The request's host (`Host`, else the URL's), when the policy admits it.
 *
 * @returns the host as sent (port included), `null` when there is none and any host is
 *   admitted, or `false` when it is refused (403).
 */
export function admittedHost(request: Request, policy: HostPolicy): string | null | false {
  const host = request.headers.get("host") ?? hostOf(request.url);
  if (policy.hosts === null) return host;
  return host !== null && policy.hosts.has(hostName(host)) ? host : false;
}

/**
 * The `Origin` allowed to read answers (echoed in CORS): one of `policy.origins`, an `http` or
 * `https` origin of an allowed host, or with any host admitted only the server's own origin.
 *
 * @param host - the admitted host ({@link admittedHost}).
 * @returns the origin, `null` when the request has none (not from a browser), `false` when
 *   refused (403).
 */
export function admittedOrigin(request: Request, host: string | null, policy: HostPolicy): string | null | false {
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  if (policy.origins.has(origin)) return origin;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin) return false;
  if (policy.hosts !== null) return policy.hosts.has(url.hostname.toLowerCase()) ? origin : false;
  // No host list: only the server's own origin (same host and port).
  return host !== null && url.host.toLowerCase() === host.toLowerCase() ? origin : false;
}

/**
 * The media guard of a POST (transports, Streamable HTTP: the client sends `application/json`
 * and accepts it): `"content-type"` (415) when the body is not `application/json`, `"accept"`
 * (406) when `Accept` rules JSON out, else `null`.
 */
export function mediaRefusal(headers: Headers): "content-type" | "accept" | null {
  if (!isJsonMediaType(headers.get("content-type"))) return "content-type";
  return acceptsJson(headers.get("accept")) ? null : "accept";
}

/** Whether a `Content-Type` is `application/json` (parameters such as `charset` ignored). */
function isJsonMediaType(field: string | null): boolean {
  if (field === null) return false;
  const essence = field.split(";", 1)[0]!.trim().toLowerCase();
  return essence === "application/json";
}

/**
 * Whether an `Accept` field admits `application/json` (the weight of its most specific matching
 * range above 0, RFC 9110 §12.5.1: `application/json;q=0, *\/*` does not); an absent one admits
 * anything.
 */
function acceptsJson(field: string | null): boolean {
  return field === null || acceptWeights(field.toLowerCase()).json > 0;
}

/** The host name of a `Host` field value (RFC 9110 §7.2), port removed, lower case. */
function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.lastIndexOf(":");
  return colon === -1 ? value : value.slice(0, colon);
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
