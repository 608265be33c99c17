/**
 * Arrival from the actor's side: GET the address, parse the document strictly, and pick out
 * `p`, `m`, `s` and the examples in `m`.
 *
 * @see draft "Arrival"
 * @module
 */
import { JsonSyntaxError } from "../json/json-syntax-error.ts";
import { parseJson } from "../json/parse.ts";
import { type ArrivalDocument, ArrivalError, toArrivalDocument } from "./arrival-document.ts";
import { type Exchange, exchange, mediaType } from "./http.ts";

export { type ArrivalDocument, ArrivalError, toArrivalDocument } from "./arrival-document.ts";

/** A retrieved form. */
export interface Arrival {
  readonly url: string;
  readonly document: ArrivalDocument;
  /** The `ETag` field of the answer, if any (for `If-Match`, `--pin`). */
  readonly etag: string | undefined;
  readonly response: Exchange;
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
