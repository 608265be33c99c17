/**
 * Test harness: an `address()` for the page form (or a hand-written form) mounted at `/page`,
 * recording every act and every rejection.
 */
import { Hono } from "hono";
import { expect, vi } from "vitest";
import { form as pageForm } from "../../examples/pages/generated/page.js";
import { type AddressOptions, address } from "../../src/address/address.ts";
import type { CompiledForm } from "../../src/address/form.ts";
import type { Rejection } from "../../src/address/rejection.ts";

export interface Harness {
  /** Sends a request to the address at `http://address.test/page`. */
  fetch(init?: RequestInit, path?: string): Promise<Response>;
  /** POSTs `body` with `Content-Type: application/json` unless `headers` says otherwise. */
  post(body: BodyInit | null, headers?: Record<string, string>): Promise<Response>;
  readonly acts: { value: unknown; actor: string | null }[];
  readonly rejections: Rejection[];
}

/** An address for `form` (default: the page form) whose act answers `{ accepted: n }`. */
export function harness<Act = unknown>(
  options: Partial<AddressOptions<Act>> & { form?: CompiledForm<Act> } = {},
): Harness {
  const acts: { value: unknown; actor: string | null }[] = [];
  const rejections: Rejection[] = [];
  const app = new Hono();
  app.route(
    "/page",
    address<Act>({
      form: (options.form ?? pageForm) as CompiledForm<Act>,
      act(value, { actor }) {
        acts.push({ value, actor });
        return { accepted: acts.length };
      },
      onReject(rejection) {
        rejections.push(rejection);
      },
      ...options,
    }),
  );
  const fetch = (init?: RequestInit, path = "/page") =>
    Promise.resolve(app.fetch(new Request(`http://address.test${path}`, init)));
  return {
    fetch,
    post: (body, headers = { "Content-Type": "application/json" }) => fetch({ method: "POST", body, headers }),
    acts,
    rejections,
  };
}

/** Asserts an accepted act: 200 JSON from the act, one more act recorded, no rejection. */
export async function expectAccepted(h: Harness, response: Response): Promise<unknown> {
  const rejected = h.rejections.map((r) => `${r.code}: ${r.reason}`);
  expect(rejected, "no rejection").toEqual([]);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  const body = await response.json();
  expect(body).toEqual({ accepted: h.acts.length });
  return body;
}

/**
 * Asserts a rejected act (R2): 204, no body, no content type, nothing acted on, and exactly one
 * rejection reported with `code`. Resets the recorded rejections.
 */
export async function expectRejected(h: Harness, response: Response, code: string): Promise<Rejection> {
  const actsBefore = h.acts.length;
  expect(response.status).toBe(204);
  expect((await response.arrayBuffer()).byteLength).toBe(0);
  expect(response.headers.get("content-type")).toBeNull();
  expect(h.acts.length).toBe(actsBefore);
  expect(h.rejections.map((r) => r.code)).toEqual([code]);
  const rejection = h.rejections[0]!;
  h.rejections.length = 0;
  return rejection;
}

/** The response's header fields, sorted, without `date`. */
export function fields(response: Response): [string, string][] {
  return [...response.headers].filter(([name]) => name !== "date").sort(([a], [b]) => (a < b ? -1 : 1));
}

export const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** One `console.error` call: its arguments, as logged. */
export type LoggedError = readonly unknown[];

/**
 * Runs `body` with `console.error` captured instead of printed, and returns the calls it made,
 * so that a test expecting a server fault asserts what was logged (message and error) rather
 * than letting a stack trace reach the test output.
 */
export async function capturingErrors(body: () => Promise<void>): Promise<LoggedError[]> {
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await body();
    return spy.mock.calls.map((call) => [...call]);
  } finally {
    spy.mockRestore();
  }
}

/** Asserts that `logged` is exactly one fault per entry of `expected`: `[message, error message]`. */
export function expectLoggedFaults(logged: LoggedError[], expected: readonly (readonly [string, string])[]): void {
  expect(logged.map(([message, error]) => [message, error instanceof Error ? error.message : error])).toEqual(
    expected.map(([message, error]) => [message, error]),
  );
}
