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
