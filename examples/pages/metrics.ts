/**
 * `/metrics` of the example: the counters in the Prometheus text format, served only to a
 * request with `Authorization: Bearer <METRICS_TOKEN>`. Without a token configured the path is
 * not served (404); with one, a request without it or with another gets 401. The counters name
 * why each act was rejected, which the 204 keeps from the actor (R2), so they are not public.
 *
 * @module
 */
import type { Context } from "hono";

const encoder = new TextEncoder();

/**
 * Whether `given` is `token`, compared in constant time: both are hashed (SHA-256) and the
 * digests compared in full, so the time says nothing of where they differ, nor of the token's
 * length.
 */
export async function sameSecret(given: string, token: string): Promise<boolean> {
  const [a, b] = await Promise.all([given, token].map((text) => crypto.subtle.digest("SHA-256", encoder.encode(text))));
  const left = new Uint8Array(a!);
  const right = new Uint8Array(b!);
  let difference = 0;
  for (let i = 0; i < left.length; i++) difference |= left[i]! ^ right[i]!;
  return difference === 0;
}

/** The credentials of an `Authorization: Bearer …` field (RFC 6750 §2.1), or `null`. */
export function bearerToken(field: string | undefined): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(field ?? "");
  return match === null ? null : match[1]!;
}

/** Counters that write themselves in the Prometheus text format (`ActCounters`, `RenderCounters`). */
export interface Exposition {
  prometheus(): string;
}

/**
 * Answers `/metrics`: 404 without a token configured, 401 (with `WWW-Authenticate: Bearer`)
 * without the right one, else the counters, one set after the other.
 *
 * @param token - `METRICS_TOKEN`, `undefined` or empty when not configured.
 */
export async function metricsAnswer(
  c: Context,
  counters: readonly Exposition[],
  token: string | undefined,
): Promise<Response> {
  if (token === undefined || token === "") return c.text("404 Not Found", 404);
  const given = bearerToken(c.req.header("authorization"));
  if (given === null || !(await sameSecret(given, token))) {
    return new Response(null, {
      status: 401,
      headers: { "WWW-Authenticate": 'Bearer realm="metrics"', "Content-Length": "0", "Cache-Control": "no-store" },
    });
  }
  return c.text(counters.map((set) => set.prometheus()).join(""), 200, {
    "Content-Type": "text/plain; version=0.0.4; charset=utf-8",
    "Cache-Control": "no-store",
  });
}
