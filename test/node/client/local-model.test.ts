/**
 * A real local actor: a tiny llama-architecture GGUF with random weights, written by this test
 * (`tiny-gguf.ts`), run by node-llama-cpp (llama.cpp) under a grammar built from the example
 * page form as the address publishes it (projected for node-llama-cpp), acting on the example
 * address on loopback → 200. Nothing is downloaded; the model is a few hundred KiB.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actWithModel } from "../../../src/client/act.ts";
import { createNodeLlamaCppClient } from "../../../src/client/actors/node-llama-cpp.ts";
import type { ModelClient } from "../../../src/client/model.ts";
import { profiles } from "../../../src/client/profiles.ts";
import { type ReceivedAct, type Served, serveRecordingExample } from "./servers.ts";
import { ASCII_PIECES, writeTinyGguf } from "./tiny-gguf.ts";

/**
 * Pieces: printable ASCII (so any prompt tokenizes), the form's keywords as whole tokens, and
 * letter-plus-quote tokens so that a random model closes its strings after a few characters
 * (keeping each attempt to a few hundred tokens). Two byte tokens (`<0xC3>`, `<0xA9>`, é) let
 * it emit byte-level output, which can come out as invalid UTF-8.
 */
const PIECES = [
  ...ASCII_PIECES,
  ...[..."abcdefghijklmnopqrstuvwxyz"].map((c) => `${c}"`),
  '",',
  '"}',
  '"]',
  "]}",
  "}]",
  ...["title", "blocks", "type", "heading", "level", "spans", "text", "paragraph", "list", "ordered", "items"],
  ...["children", "marks", "href", "bold", "italic", "code", "strike", "true", "false", "https://"],
];

describe("node-llama-cpp with a tiny random-weight model", () => {
  let dir: string;
  let example: Served & { received: ReceivedAct[] };
  let client: ModelClient;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "gpt-address-gguf-"));
    const modelPath = join(dir, "tiny.gguf");
    writeTinyGguf(modelPath, { pieces: PIECES, bytes: [0xc3, 0xa9], layers: 2, embedding: 32, seed: 1 });
    [example, client] = await Promise.all([
      serveRecordingExample(),
      createNodeLlamaCppClient({ modelPath, maxTokens: 800, contextSize: 4096, threads: 1 }),
    ]);
  });
  afterAll(async () => {
    await client?.close?.();
    await example?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("C1 acts on the example address with a grammar from its page form → 200, sending only a value the form accepts", async () => {
    const result = await actWithModel(`${example.url}/page`, client, {
      prompt: "Publish a short page.",
      profile: profiles["node-llama-cpp"],
      retries: 10,
    });
    expect(result.answer?.status).toBe(200);
    expect(result.answer?.json).toMatchObject({ id: expect.any(String) });
    expect(result.attempts.at(-1)!.failure).toBeNull();
    for (const attempt of result.attempts.slice(0, -1)) expect(attempt.failure).not.toBeNull();
    // Exactly one POST reached the address, and it carried the model's text byte for byte.
    expect(example.received).toHaveLength(1);
    expect(example.received[0]!.bytes).toEqual(new TextEncoder().encode(result.attempts.at(-1)!.text));
    expect(example.received[0]!.headers["gpt-actor"]).toBe("node-llama-cpp tiny.gguf; via=gpt-address");
    // What the projection changed for this actor is reported, not hidden.
    expect(result.warnings.some((w) => w.type === "rewritten" && w.pointer === "/$defs/block/anyOf")).toBe(true);
    expect(result.warnings.some((w) => w.type === "ignored" && w.keyword === "pattern")).toBe(true);
  });
});
