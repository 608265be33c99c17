/**
 * The example worker answers its own failures with a bare 500 (issue 31): no stack, no local
 * path, whatever fails, in the app or around it (a setting it cannot read). The error goes to
 * the server's log only.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../examples/pages/worker.ts";
import { capturingErrors } from "./harness.ts";

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

describe("the example worker's own failures", () => {
  it("a setting it cannot read (PUBLIC_ORIGIN with a path) is a 500 with no body, logged; once fixed, it serves", async () => {
    let answer: Response | undefined;
    const errors = await capturingErrors(async () => {
      answer = await worker.fetch(new Request("https://pages.example/"), { ...env, PUBLIC_ORIGIN: "https://x/y" }, ctx);
    });
    expect(answer!.status).toBe(500);
    expect(await answer!.text()).toBe("");
    expect(answer!.headers.get("content-length")).toBe("0");
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as unknown[])[1])).toMatch(/PUBLIC_ORIGIN/);
    const fixed = await worker.fetch(new Request("https://pages.example/"), env, ctx);
    expect(fixed.status).toBe(200);
  });
});
