/**
 * The arrival document `{p, m, s}` and its checks, apart from how it was fetched (`arrival.ts`
 * over `node:http`, the tool adapters over `fetch`), so that code for any runtime can read it.
 *
 * @see draft "Arrival"
 * @module
 */
import type { ChatMessage } from "./model.ts";

/** The arrival document's members the protocol names (others are kept and ignored, A3). */
export interface ArrivalDocument {
  readonly p: string;
  readonly m: readonly ChatMessage[];
  readonly s: Record<string, unknown> | boolean;
  readonly [member: string]: unknown;
}

/** The address did not publish a usable form. */
export class ArrivalError extends Error {
  override readonly name = "ArrivalError";
  /** The requirement id that failed (DESIGN.md: A1, A2, F1). */
  readonly requirement: string;
  constructor(requirement: string, message: string) {
    super(message);
    this.requirement = requirement;
  }
}

/**
 * Checks that a parsed value is an arrival document.
 *
 * @throws {ArrivalError} naming the member at fault.
 */
export function toArrivalDocument(value: unknown): ArrivalDocument {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ArrivalError("A2", "the arrival document is not a JSON object");
  }
  const doc = value as Record<string, unknown>;
  if (typeof doc.p !== "string") throw new ArrivalError("A2", "member p is missing or not a string");
  if (!Array.isArray(doc.m)) throw new ArrivalError("A2", "member m is missing or not an array");
  doc.m.forEach((message, i) => {
    const { role, content } = (message ?? {}) as Record<string, unknown>;
    if (typeof message !== "object" || message === null || typeof role !== "string" || typeof content !== "string") {
      throw new ArrivalError("A2", `m/${i} is not an object with string role and content`);
    }
  });
  const s = doc.s;
  if (typeof s !== "boolean" && (typeof s !== "object" || s === null || Array.isArray(s))) {
    throw new ArrivalError("A2", "member s is missing or not a JSON Schema object");
  }
  return doc as ArrivalDocument;
}
