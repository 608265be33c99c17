/**
 * What the operator of an address sees: one structured entry per act, per rejection and per
 * limited request (the `onLog` hook of every door), and counters of them by address, door,
 * status and code, in the Prometheus text format. An entry never holds the body or any value
 * taken from it.
 *
 * @module
 */
import type { RejectionCode } from "./rejection.ts";

/**
 * Why the MCP door refused a message before any method ran, by the HTTP status answered:
 * - `host-not-allowed`, `origin-not-allowed`: `Host` or `Origin` not allowed (403, DNS-rebinding protection);
 * - `content-type`: a `Content-Type` other than `application/json` (415);
 * - `accept`: an `Accept` that admits no `application/json` (406);
 * - `method-not-allowed`: a method other than POST and OPTIONS (405; the door is stateless;
 *   the HTTP door logs the same code for a method other than GET, HEAD, POST and OPTIONS);
 * - `batch`: a JSON array, a batch (400, JSON-RPC -32600);
 * - `invalid-request`: JSON that is not a JSON-RPC 2.0 message (400, -32600);
 * - `protocol-version`: a protocol version no revision speaks, or a `_meta` envelope missing
 *   or malformed (400, -32022, -32600 or -32602);
 * - `header-mismatch`: `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` disagreeing with the
 *   body (400, -32020).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
export type MessageRefusalCode =
  | "host-not-allowed"
  | "origin-not-allowed"
  | "content-type"
  | "accept"
  | "method-not-allowed"
  | "batch"
  | "invalid-request"
  | "protocol-version"
  | "header-mismatch";

/**
 * Why a request was not acted on: a verification {@link RejectionCode} (answered 204), an MCP
 * {@link MessageRefusalCode} (`method-not-allowed` on either door: 405 with `Allow`), or
 * - `rate-limited`: the client's limit was reached (429, `Retry-After`);
 * - `precondition-failed`: the act's `If-Match` names another form (412);
 * - `fault`: the act handler or a stage threw (500; on the MCP door, whose answer is then a tool
 *   result with `isError: true`, 200);
 * - `declined`: the act handler declined a valid act with `ActDeclined` (its status, 400, 413
 *   or 503 with `Retry-After`; on the MCP door a tool result with `isError: true`, 200);
 * - `invalid-params`: an MCP `tools/call` whose params are no tool call, or name no tool (200,
 *   JSON-RPC -32602);
 * - `run-quota`: the act asked for a run and the run store holds its quota (503, `Retry-After`);
 * - `idempotency-key`: an `Idempotency-Key` that is no key (400);
 * - `idempotency-key-reused`: an `Idempotency-Key` already used with other bytes (422).
 * `null` in an entry means the act was performed (200), or an arrival was answered.
 */
export type ActLogCode =
  | RejectionCode
  | MessageRefusalCode
  | "rate-limited"
  | "precondition-failed"
  | "fault"
  | "declined"
  | "invalid-params"
  | "run-quota"
  | "idempotency-key"
  | "idempotency-key-reused";

/** The door a request came through. */
export type Door = "http" | "mcp";

/** One log entry: one line of JSON (see {@link formatActLog}). */
export interface ActLogEntry {
  /** When the request arrived, ISO 8601 UTC. */
  readonly time: string;
  /** The address's form name (`page`, `feedback`). */
  readonly address: string;
  readonly door: Door;
  /** `POST` for an act (or the MCP tool call), `GET`/`HEAD` for an arrival, any other for a 405. */
  readonly method: string;
  /** The status answered. */
  readonly status: number;
  /** The reason it was not acted on, or `null`. */
  readonly code: ActLogCode | null;
  /** Body bytes read, or `null` when the body was not read (limited, precondition, coding). */
  readonly bytes: number | null;
  /** From arrival to answer, in milliseconds. */
  readonly durationMs: number;
  /** The `GPT-Actor` field, sanitised by {@link sanitizeActor}; `null` when absent (H1: recorded only). */
  readonly actor: string | null;
}

/** The most characters of `GPT-Actor` kept in a log entry: 64. */
export const ACTOR_LOG_LENGTH = 64;

/**
 * `GPT-Actor` as a log may keep it: printable ASCII only (anything else becomes `?`, so no
 * control character or line break reaches a log), at most {@link ACTOR_LOG_LENGTH} characters
 * followed by `…` when cut.
 */
export function sanitizeActor(field: string | null): string | null {
  if (field === null) return null;
  const cut = field.length > ACTOR_LOG_LENGTH;
  const kept = field.slice(0, ACTOR_LOG_LENGTH).replace(/[^\x20-\x7e]/g, "?");
  return cut ? `${kept}…` : kept;
}

/** An entry as one line of JSON, no line break inside. */
export function formatActLog(entry: ActLogEntry): string {
  return JSON.stringify(entry);
}

/**
 * Counts log entries by address, door, status and code, for scraping (Prometheus text format)
 * and for a running count in each log line. In memory, per process or isolate.
 */
export class ActCounters {
  readonly #counts = new Map<string, { labels: CounterLabels; count: number }>();

  /**
   * Counts one entry.
   *
   * @returns the count of its series after this entry.
   */
  record(entry: ActLogEntry): number {
    const labels: CounterLabels = {
      address: entry.address,
      door: entry.door,
      status: String(entry.status),
      code: entry.code ?? "none",
    };
    const id = `${labels.address}\n${labels.door}\n${labels.status}\n${labels.code}`;
    const series = this.#counts.get(id) ?? { labels, count: 0 };
    series.count++;
    this.#counts.set(id, series);
    return series.count;
  }

  /** The count of one series, 0 when never seen. */
  count(address: string, door: Door, status: number, code: ActLogCode | null): number {
    return this.#counts.get(`${address}\n${door}\n${status}\n${code ?? "none"}`)?.count ?? 0;
  }

  /**
   * Every series in the Prometheus text exposition format (version 0.0.4), as the counter
   * `gpt_address_requests_total`.
   *
   * @see https://prometheus.io/docs/instrumenting/exposition_formats/
   */
  prometheus(): string {
    const lines = [
      "# HELP gpt_address_requests_total Requests to GPT addresses by address, door, status and reason code.",
      "# TYPE gpt_address_requests_total counter",
    ];
    for (const { labels, count } of this.#counts.values()) {
      const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
      lines.push(`gpt_address_requests_total{${pairs.join(",")}} ${count}`);
    }
    return `${lines.join("\n")}\n`;
  }
}

interface CounterLabels {
  readonly address: string;
  readonly door: string;
  readonly status: string;
  readonly code: string;
}

/** A label value as the text format escapes it: backslash, double quote, line feed. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}
