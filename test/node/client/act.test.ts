import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actWithBody, actWithModel, checkLocally, postAct } from "../../../src/client/act.ts";
import { retrieve } from "../../../src/client/arrival.ts";
import { compileValidator } from "../../../src/client/form-validator.ts";
import type { GenerateRequest, GenerateResult, ModelClient } from "../../../src/client/model.ts";
import { pageFile, type ReceivedAct, type Served, serveRecordingExample } from "./servers.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const example = pageFile.m.find((m) => m.role === "assistant")!.content;

/** A model client that answers from a script, recording what it was asked. */
function scripted(answers: GenerateResult[]): ModelClient & { requests: GenerateRequest[] } {
  const requests: GenerateRequest[] = [];
  return {
    provider: "scripted",
    modelId: "test",
    requests,
    async generate(request) {
      requests.push(structuredClone(request));
      return answers[Math.min(requests.length - 1, answers.length - 1)]!;
    },
  };
}

describe("act", () => {
  let server: Served & { received: ReceivedAct[] };
  let url: string;
  beforeAll(async () => {
    server = await serveRecordingExample();
    url = `${server.url}/page`;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("R1 C1 --body: a valid value is POSTed byte for byte with Content-Type application/json and GPT-Actor, and gets 200 JSON", async () => {
    const bytes = encode(`${example}\n`);
    const result = await actWithBody(url, bytes);
    expect(result.failure).toBeNull();
    expect(result.answer).toMatchObject({ status: 200, kind: "accepted", json: { id: expect.any(String) } });
    const received = server.received.at(-1)!;
    expect(received.bytes).toEqual(bytes);
    expect(received.headers["content-type"]).toBe("application/json");
    expect(received.headers["gpt-actor"]).toBe("gpt-address act --body");
  });

  it("--body: a value the form rejects is not sent, and the failure names the pointer and keyword; with force it is sent and refused (204)", async () => {
    const before = server.received.length;
    const invalid = encode(example.replace('"level": 2', '"level": 7'));
    const held = await actWithBody(url, invalid);
    expect(held.answer).toBeUndefined();
    expect(held.failure).toMatchObject({ stage: "form", pointer: "/$defs/block/anyOf", keyword: "anyOf" });
    expect(server.received.length).toBe(before);
    const forced = await actWithBody(url, invalid, { force: true });
    expect(forced.answer).toMatchObject({ status: 204, kind: "refused" });
    expect(server.received.length).toBe(before + 1);
  });

  it("V2 the local check uses the address's strict parser: duplicate names and trailing bytes are caught before sending, like invalid UTF-8", async () => {
    const validator = await compileValidator(pageFile.s);
    expect(checkLocally(encode(example), validator)).toBeNull();
    expect(checkLocally(encode(example.replace('{"title"', '{"title": "x", "title"')), validator)).toMatchObject({
      stage: "parse",
      code: "duplicate-name",
    });
    expect(checkLocally(encode(`${example} {}`), validator)).toMatchObject({ stage: "parse", code: "trailing-bytes" });
    const bad = new Uint8Array([...encode(example.slice(0, 20)), 0xc3, ...encode(example.slice(20))]);
    expect(checkLocally(bad, validator)).toMatchObject({ stage: "utf8" });
  });

  it("--pin sends the form's ETag as If-Match", async () => {
    await actWithBody(url, encode(example), { pin: true });
    const etag = server.received.at(-1)!.headers["if-match"];
    expect(etag).toMatch(/^"[^"]+"$/);
    await actWithBody(url, encode(example));
    expect(server.received.at(-1)!.headers["if-match"]).toBeUndefined();
  });

  it("--pin with a tag the address no longer serves gets 412 and nothing is stored", async () => {
    const arrival = await retrieve(url);
    const stale = await postAct({ ...arrival, etag: '"stale"' }, encode(example), { pin: true });
    expect(stale).toMatchObject({ status: 412, kind: "form-changed" });
    const current = await postAct(arrival, encode(example), { pin: true });
    expect(current).toMatchObject({ status: 200, kind: "accepted" });
  });

  it("a model's output that was not valid UTF-8 is a local failure: retried, never sent", async () => {
    const before = server.received.length;
    const client = scripted([
      { text: example.replace("What happened", "What happ\uFFFDned"), invalidUtf8: true, warnings: [] },
      { text: example, warnings: [] },
    ]);
    const result = await actWithModel(url, client, { prompt: "Publish it.", retries: 1 });
    expect(result.attempts.map((a) => a.failure?.stage ?? null)).toEqual(["utf8", null]);
    expect(server.received.length).toBe(before + 1);
    expect(server.received.at(-1)!.bytes).toEqual(encode(example));
    expect(result.answer?.status).toBe(200);
    // p is the system context, m the prior messages, the prompt the user's message; the retry
    // tells the model what failed.
    const [first, second] = client.requests;
    expect(first!.system).toBe(pageFile.p);
    expect(first!.messages).toEqual([...pageFile.m, { role: "user", content: "Publish it." }]);
    expect(second!.messages.at(-1)!.content).toMatch(/not valid UTF-8/);
  });
});
