/**
 * Run ids and idempotency claims: random and hashed identifiers, base64url (RFC 4648 §5, no
 * padding). Web Crypto only.
 *
 * @module
 */
import type { IdempotencyClaim } from "./run.ts";

/** Random bytes in a run id: 128 bits, 22 base64url characters. */
export const RUN_ID_BYTES = 16;

const RUN_ID = /^[A-Za-z0-9_-]{22}$/;

/** base64url of `bytes`, without padding. */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A new run id: {@link RUN_ID_BYTES} from `crypto.getRandomValues`, base64url; unguessable. */
export function newRunId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(RUN_ID_BYTES)));
}

/** Whether `id` has a run id's shape (a store is never asked for anything else). */
export function isRunId(id: string): boolean {
  return RUN_ID.test(id);
}

/** SHA-256 of `content` (a string as its UTF-8 bytes), base64url: 43 characters. */
export async function sha256(content: Uint8Array | string): Promise<string> {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)));
}

/**
 * The claim of an act sent with an `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header):
 * the key hashed with the scope it holds in (the address: one key at two addresses is two keys),
 * and the fingerprint of the act's bytes. Stores keep only the hashes, 43 characters each,
 * whatever the key's length.
 *
 * @param scope - what the key is unique within, such as the address's path.
 * @param key - the `Idempotency-Key` field value as received.
 * @param content - the act's body bytes as received.
 */
export async function idempotencyClaim(
  scope: string,
  key: string,
  content: Uint8Array | string,
): Promise<IdempotencyClaim> {
  return { key: await sha256(`${scope.length}:${scope}${key}`), fingerprint: await sha256(content) };
}
