/**
 * `leadingCall` (src/mcp/leading-call.ts), the MCP door's reading of a message's first bytes,
 * against `JSON.parse` of the whole message: on every prefix of a JSON-RPC message spelled with
 * random member orders, whitespace and escapes, what it says of `method` and `params.name` is
 * either nothing or the truth; and on a message as the SDKs write it, it says both.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { leadingCall } from "../../src/mcp/leading-call.ts";
import { nameArb, spell, type Tree, treeArb } from "./json/json-arbitraries.ts";

const encoder = new TextEncoder();
const str = (v: string): Tree => ({ t: "str", v });
const obj = (members: [string, Tree][]): Tree => ({ t: "obj", members });

const RESERVED = new Set(["jsonrpc", "id", "method", "params"]);
const PARAMS = new Set(["name", "arguments", "_meta"]);

/** Members with names outside `reserved`, unique. */
const extrasArb = (reserved: ReadonlySet<string>) =>
  fc.uniqueArray(
    fc.tuple(
      nameArb.filter((name) => !reserved.has(name)),
      treeArb(3),
    ),
    { maxLength: 3, selector: ([name]) => name },
  );

const methodArb = fc.oneof(fc.constantFrom("tools/call", "ping", "tools/list"), fc.string({ maxLength: 12 }));
const toolArb = fc.oneof(fc.constantFrom("feedback", "page", "render"), fc.string({ maxLength: 12 }));

/** A JSON-RPC request as a tree, members in a random order. */
const messageArb = fc
  .record({
    method: methodArb,
    name: fc.option(toolArb, { nil: undefined }),
    args: fc.option(treeArb(3), { nil: undefined }),
    meta: fc.option(treeArb(2), { nil: undefined }),
    params: fc.boolean(),
    extras: extrasArb(RESERVED),
    paramExtras: extrasArb(PARAMS),
    order: fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
  })
  .map((r) => {
    const shuffle = <T>(items: T[]) =>
      items
        .map((item, i) => [r.order[i % 16]!, item] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, item]) => item);
    const params: [string, Tree][] = [...r.paramExtras];
    if (r.name !== undefined) params.push(["name", str(r.name)]);
    if (r.args !== undefined) params.push(["arguments", r.args]);
    if (r.meta !== undefined) params.push(["_meta", r.meta]);
    const members: [string, Tree][] = [
      ["jsonrpc", str("2.0")],
      ["id", { t: "num", v: 1 }],
      ["method", str(r.method)],
      ...r.extras,
    ];
    if (r.params) members.push(["params", obj(shuffle(params))]);
    return obj(shuffle(members));
  });

describe("leadingCall", () => {
  it("on any prefix of any message, says nothing or the truth (differential against JSON.parse)", () => {
    fc.assert(
      fc.property(messageArb, fc.integer(), fc.double({ min: 0, max: 1, noNaN: true }), (tree, seed, cut) => {
        const text = spell(tree, seed).text;
        const truth = JSON.parse(text) as { method: string; params?: { name?: string } };
        const bytes = encoder.encode(text);
        for (const end of [Math.floor(cut * bytes.length), bytes.length]) {
          const read = leadingCall(bytes.subarray(0, end));
          if (read.method !== undefined) expect(read.method).toBe(truth.method);
          if (read.name !== undefined) expect(read.name).toBe(truth.params?.name);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads both from a message as the SDKs write it, even cut right after the name", () => {
    fc.assert(
      fc.property(toolArb, fc.jsonValue(), fc.boolean(), (name, args, sdkOrder) => {
        // The TypeScript SDK writes the request first, then `jsonrpc` and `id`; others `jsonrpc` first.
        const message = sdkOrder
          ? { method: "tools/call", params: { name, arguments: args }, jsonrpc: "2.0", id: 0 }
          : { jsonrpc: "2.0", id: 0, method: "tools/call", params: { name, arguments: args } };
        const text = JSON.stringify(message);
        if (JSON.stringify(name).slice(1, -1) !== name) return; // an escape: not read, by design
        const end = text.indexOf('"arguments"');
        expect(leadingCall(encoder.encode(text.slice(0, end)))).toEqual({ method: "tools/call", name });
        expect(leadingCall(encoder.encode(text))).toEqual({ method: "tools/call", name });
      }),
      { numRuns: 500 },
    );
  });

  it("stops at the arguments, at an escape, and at the end of the bytes", () => {
    const read = (text: string) => leadingCall(encoder.encode(text));
    expect(read('{"method":"tools/call","params":{"arguments":{},"name":"page"}}')).toEqual({
      method: "tools/call",
      name: undefined,
    });
    expect(read('{"method":"tools/call","params":{"n\\u0061me":"page","arguments":{}}}').name).toBeUndefined();
    expect(read('{"method":"tools\\/call","params":{"name":"page"}}')).toEqual({ method: undefined, name: "page" });
    expect(read('{"method":"tools/call","params":{"name":"pa')).toEqual({ method: "tools/call", name: undefined });
    expect(read('{"id":1,"method":"ping"')).toEqual({ method: "ping", name: undefined });
    expect(read('{"params":{"_meta":{"a":["}",{"b":"\\""}]},"name":"page"},"method":"tools/call"}')).toEqual({
      method: "tools/call",
      name: "page",
    });
  });
});
