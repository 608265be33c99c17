/**
 * Arrival from the actor's side: GET the address, parse the document strictly, and pick out
 * `p`, `m`, `s` and the examples in `m`.
 *
 * @see draft "Arrival"
 * @module
 */
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import { type Exchange, exchange, mediaType } from "./http.ts";
import type { ChatMessage } from "./model.ts";

/** The arrival document's members the protocol names (others are kept and ignored, A3). */
export interface ArrivalDocument {
  readonly p: string;
  readonly m: readonly ChatMessage[];
  readonly s: Record<string, unknown> | boolean;
  readonly [member: string]: unknown;
}

/** A retrieved form. */
export interface Arrival {
  readonly url: string;
  readonly document: ArrivalDocument;
  /** The `ETag` field of the answer, if any (for `If-Match`, `--pin`). */
  readonly etag: string | undefined;
  readonly response: Exchange;
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

/**
 * Retrieves the form: a GET with no header field but `Host`, as the draft allows any client
 * to (A1), and a strict parse of the answer (the same parser addresses use).
 *
 * @throws {ArrivalError} when the answer is not 200 `application/json` with `{p, m, s}`.
 * @throws {ExchangeError} when the address cannot be reached.
 */
export async function retrieve(url: string, headers: Record<string, string> = {}): Promise<Arrival> {
  const response = await exchange(url, { headers });
  if (response.status !== 200) throw new ArrivalError("A1", `GET ${url} answered ${response.status}, not 200`);
  const type = mediaType(response.headers["content-type"]);
  if (type !== "application/json") {
    throw new ArrivalError("A2", `GET ${url} answered Content-Type ${type || "(none)"}, not application/json`);
  }
  let value: unknown;
  try {
    value = parseJson(response.body);
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      throw new ArrivalError("A2", `the arrival document is not strict JSON (${error.code} at byte ${error.offset})`);
    }
    throw error;
  }
  return { url, document: toArrivalDocument(value), etag: response.headers.etag, response };
}

/** An example act in `m`: an assistant message whose content is a JSON value. */
export interface Example {
  /** Index in `m`. */
  readonly index: number;
  /** The content's exact text (what the example actor sent). */
  readonly text: string;
  readonly value: unknown;
}

/**
 * The assistant messages of `m` whose content parses strictly as JSON: the address's own
 * examples of an act. Prose replies are not examples and are left out.
 */
export function examplesOf(document: ArrivalDocument): Example[] {
  const out: Example[] = [];
  document.m.forEach((message, index) => {
    if (message.role !== "assistant") return;
    try {
      out.push({ index, text: message.content, value: parseJson(new TextEncoder().encode(message.content)) });
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
    }
  });
  return out;
}
