/**
 * A GPT address written with nothing but `node:http`: no code of this toolkit on the server
 * side. Its `m` is empty (no example to build on); its form has a required string, an enum, a
 * nested object and an optional integer, checked by hand. It verifies an act as the draft says
 * (size, UTF-8, one value, no duplicate name, the form), unless told to be lenient in one of
 * those ways; it can pin the form with an ETag (`If-Match` → 412), change its form, refuse a
 * value the form accepts (204), and answer 429.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The form: an order with a name, a size, where to, and an optional count. */
export const ORDER_FORM = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "order",
  description: "Order a box: a name for it, a size, the city it goes to, and how many.",
  type: "object",
  additionalProperties: false,
  required: ["name", "size", "where"],
  properties: {
    name: { type: "string", minLength: 2, maxLength: 40 },
    size: { enum: ["s", "m", "l"] },
    where: {
      type: "object",
      additionalProperties: false,
      required: ["city"],
      properties: { city: { type: "string", minLength: 1, maxLength: 40 } },
    },
    count: { type: "integer", minimum: 1, maximum: 9 },
  },
} as const;

/** The largest act the plain address reads, in bytes. */
const MAX_BYTES = 64 * 1024;

/** Ways the address may be lenient, each one MUST of the draft's "Verification" broken. */
export interface Leniency {
  readonly duplicates?: boolean;
  readonly trailing?: boolean;
  readonly utf8?: boolean;
  readonly oversize?: boolean;
}

export interface PlainAddress {
  /** The address's URL. */
  readonly url: string;
  /** The values acted on, in order. */
  readonly acts: unknown[];
  /** Every POST's `If-Match` field (or `null`). */
  readonly ifMatch: (string | null)[];
  /** Publishes another description (a new ETag); the check stays the same. */
  changeForm(description: string): void;
  /** Answers the next `count` POSTs 429 with `Retry-After: seconds`. */
  limitNext(count: number, seconds: number): void;
  close(): Promise<void>;
}

export interface PlainOptions {
  readonly lenient?: Leniency;
  /** Send an ETag and honour `If-Match` (412 when it names another form). Default true. */
  readonly etag?: boolean;
  /** A value the form accepts that the address refuses all the same (204). */
  readonly refuses?: (value: Record<string, unknown>) => boolean;
  /** Another form to publish (the acts are still checked against {@link ORDER_FORM}). */
  readonly form?: Readonly<Record<string, unknown>>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const length = (s: string) => [...s].length;

/** The form, checked by hand. */
function valid(v: unknown): v is Record<string, unknown> {
  if (!isObject(v) || !Object.keys(v).every((k) => ["name", "size", "where", "count"].includes(k))) return false;
  const { name, size, where, count } = v;
  if (typeof name !== "string" || length(name) < 2 || length(name) > 40) return false;
  if (size !== "s" && size !== "m" && size !== "l") return false;
  if (!isObject(where) || !Object.keys(where).every((k) => k === "city")) return false;
  if (typeof where.city !== "string" || length(where.city) < 1 || length(where.city) > 40) return false;
  return count === undefined || (Number.isInteger(count) && (count as number) >= 1 && (count as number) <= 9);
}

/** Whether the JSON text names a member twice in one object (names compared unescaped). */
function hasDuplicate(text: string): boolean {
  const stack: Set<string>[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") stack.push(new Set());
    else if (c === "}") stack.pop();
    else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const raw = text.slice(i, j + 1);
      i = j;
      let k = j + 1;
      while (/\s/.test(text[k] ?? "")) k++;
      if (text[k] !== ":") continue;
      const name = JSON.parse(raw) as string;
      const names = stack.at(-1);
      if (names === undefined || names.has(name)) return true;
      names.add(name);
    }
  }
  return false;
}

/** A lone surrogate: a code point of category Cs (a valid pair is one code point, not Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

function hasLoneSurrogate(v: unknown): boolean {
  if (typeof v === "string") return LONE_SURROGATE.test(v);
  if (Array.isArray(v)) return v.some(hasLoneSurrogate);
  if (isObject(v)) return Object.entries(v).some(([k, item]) => LONE_SURROGATE.test(k) || hasLoneSurrogate(item));
  return false;
}

/** The text of the first JSON value in `text` (what a lenient reader that stops there sees). */
function firstValue(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i += text[i] === "\\" ? 2 : 1);
    } else if (c === "{" || c === "[") depth++;
    else if ((c === "}" || c === "]") && --depth === 0) return text.slice(0, i + 1);
  }
  return text;
}

/** Starts the plain address on 127.0.0.1 at an ephemeral port. */
export async function servePlainAddress(options: PlainOptions = {}): Promise<PlainAddress> {
  const lenient = options.lenient ?? {};
  const acts: unknown[] = [];
  const ifMatch: (string | null)[] = [];
  let arrival = "";
  let etag = "";
  let limited = 0;
  let retryAfter = 0;
  const changeForm = (description: string) => {
    arrival = JSON.stringify({
      p: "Send one HTTP POST whose body is one JSON value valid against s.",
      m: [],
      s: options.form ?? { ...ORDER_FORM, description },
    });
    etag = `"${createHash("sha256").update(arrival).digest("base64url").slice(0, 16)}"`;
  };
  changeForm(ORDER_FORM.description);

  const answer = (res: ServerResponse, status: number, body?: string) => {
    const headers: Record<string, string> = { "cache-control": "no-store" };
    if (body !== undefined) headers["content-type"] = "application/json";
    res.writeHead(status, headers).end(body);
  };

  async function post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    ifMatch.push(req.headers["if-match"] ?? null);
    if (limited > 0) {
      limited--;
      req.resume();
      res.writeHead(429, { "retry-after": String(retryAfter), "content-length": "0" }).end();
      return;
    }
    if (options.etag !== false && req.headers["if-match"] !== undefined && req.headers["if-match"] !== etag) {
      req.resume();
      return answer(res, 412);
    }
    const declared = Number(req.headers["content-length"] ?? 0);
    if (!lenient.oversize && declared > MAX_BYTES) {
      req.resume();
      return answer(res, 204);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (lenient.oversize || size <= MAX_BYTES) chunks.push(chunk);
    }
    if (!lenient.oversize && size > MAX_BYTES) return answer(res, 204);
    let value: unknown;
    try {
      let text = new TextDecoder("utf-8", { fatal: !lenient.utf8, ignoreBOM: true }).decode(Buffer.concat(chunks));
      if (lenient.trailing) text = firstValue(text);
      if (!lenient.duplicates && hasDuplicate(text)) return answer(res, 204);
      value = JSON.parse(lenient.oversize ? text.trimEnd() : text);
    } catch {
      return answer(res, 204);
    }
    if (!valid(value) || hasLoneSurrogate(value)) return answer(res, 204);
    if (options.refuses?.(value)) return answer(res, 204);
    acts.push(value);
    answer(res, 200, JSON.stringify({ ordered: true, name: value.name }));
  }

  const server = createServer((req, res) => {
    if (req.method === "GET" || req.method === "HEAD") {
      const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "max-age=60" };
      if (options.etag !== false) {
        headers.etag = etag;
        if (req.headers["if-none-match"] === etag) return void res.writeHead(304, headers).end();
      }
      return void res.writeHead(200, headers).end(req.method === "GET" ? arrival : undefined);
    }
    if (req.method === "POST") {
      post(req, res).catch(() => res.destroy());
      return;
    }
    res.writeHead(405, { allow: "GET, HEAD, POST" }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    acts,
    ifMatch,
    changeForm,
    limitNext(count, seconds) {
      limited = count;
      retryAfter = seconds;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
