/**
 * A small generated corpus of hostile JSON-RPC envelopes for the MCP door: every member of a
 * `tools/call` request replaced by wrong values one at a time, plus byte-level damage (a
 * duplicate name in the envelope or in `arguments`, truncation, trailing bytes, a byte-order
 * mark, lone surrogates, non-JSON literals, deep nesting, a batch). Pure (no Node API), so that
 * both the workerd tests and the runtime suites use it. Deterministic: no randomness.
 */

/** One hostile message: a label, and the exact bytes of the POST body as text. */
export interface HostileCase {
  readonly label: string;
  readonly body: string | Uint8Array;
  /** True for the few cases that are valid calls after all (a strange but valid `id`): they act. */
  readonly acts?: true;
}

/** A valid `tools/call` of the feedback tool: the control every case departs from. */
export const VALID_CALL =
  '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"feedback","arguments":{"rating":4,"topic":"other"}}}';

const WRONG_VALUES = [
  "null",
  "true",
  "0",
  "-1.5",
  "1e400",
  "123456789012345678901234567890",
  '""',
  '"\\u0000"',
  "[]",
  "{}",
  '{"__proto__":{"polluted":true}}',
  '"__proto__"',
  '"constructor"',
  '"toString"',
  "[1,2,3]",
  '"x"',
];

/** Replaces the value of one member path in the valid call. */
function withMember(path: readonly string[], value: string): string {
  const call = {
    jsonrpc: '"2.0"',
    id: "7",
    method: '"tools/call"',
    params: { name: '"feedback"', arguments: { rating: "4", topic: '"other"' } },
  };
  const render = (node: unknown, at: readonly string[]): string => {
    if (typeof node === "string") return node;
    const members = Object.entries(node as Record<string, unknown>).map(([key, child]) => {
      const here = [...at, key];
      const text = here.join("/") === path.join("/") ? value : render(child, here);
      return `${JSON.stringify(key)}:${text}`;
    });
    return `{${members.join(",")}}`;
  };
  return render(call, []);
}

/**
 * The corpus, about 140 messages. None is a valid call of an existing tool with valid
 * arguments except those marked `acts` (valid but unusual ids).
 */
export function hostileCorpus(): HostileCase[] {
  const cases: HostileCase[] = [];
  const paths = [["jsonrpc"], ["id"], ["method"], ["params"], ["params", "name"], ["params", "arguments"]];
  for (const path of paths) {
    for (const value of WRONG_VALUES) {
      const label = `${path.join(".")} = ${value}`;
      // Any string or integer is a valid id: those calls act, with their id echoed.
      const validId = path[0] === "id" && (/^"/.test(value) || /^-?[0-9]+$/.test(value)) && value.length < 16;
      cases.push(
        validId ? { label, body: withMember(path, value), acts: true } : { label, body: withMember(path, value) },
      );
    }
  }
  const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
  cases.push(
    { label: "duplicate name in the envelope", body: VALID_CALL.replace('"id":7,', '"id":7,"id":8,') },
    {
      label: "duplicate method",
      body: VALID_CALL.replace('"method":"tools/call",', '"method":"tools/call","method":"ping",'),
    },
    {
      label: "duplicate name in params",
      body: VALID_CALL.replace('"name":"feedback",', '"name":"feedback","name":"page",'),
    },
    { label: "duplicate name in arguments", body: VALID_CALL.replace('"rating":4,', '"rating":4,"rating":5,') },
    {
      label: "duplicate via escape in arguments",
      body: VALID_CALL.replace('"rating":4,', '"rating":4,"\\u0072ating":5,'),
    },
    { label: "truncated", body: VALID_CALL.slice(0, -3) },
    { label: "trailing bytes", body: `${VALID_CALL} {}` },
    { label: "two messages", body: `${VALID_CALL}\n${VALID_CALL}` },
    { label: "byte-order mark", body: `\uFEFF${VALID_CALL}` },
    { label: "lone surrogate in a name", body: VALID_CALL.replace('"feedback"', '"\\ud800feedback"') },
    { label: "lone surrogate in arguments", body: VALID_CALL.replace('"other"', '"\\udc00"') },
    { label: "NaN", body: VALID_CALL.replace('"rating":4', '"rating":NaN') },
    { label: "single quotes", body: VALID_CALL.replaceAll('"', "'") },
    { label: "comment", body: VALID_CALL.replace("{", "{/* c */") },
    { label: "trailing comma", body: VALID_CALL.replace("}}}", "},}}") },
    { label: "control character in a string", body: VALID_CALL.replace('"other"', '"oth\u0001er"') },
    {
      label: "deep nesting in arguments",
      body: VALID_CALL.replace('"topic":"other"', `"topic":"other","deep":${nested(5000)}`),
    },
    {
      label: "deep nesting in _meta",
      body: VALID_CALL.replace('"name":"feedback",', `"_meta":{"x":${nested(200)}},"name":"feedback",`),
    },
    { label: "batch", body: `[${VALID_CALL}]` },
    { label: "empty batch", body: "[]" },
    { label: "empty body", body: "" },
    { label: "whitespace only", body: "  \n" },
    { label: "a string", body: '"tools/call"' },
    { label: "null", body: "null" },
    { label: "unknown method", body: VALID_CALL.replace('"tools/call"', '"tools/unknown"') },
    { label: "unknown tool", body: VALID_CALL.replace('"feedback"', '"nope"') },
    { label: "prototype tool name", body: VALID_CALL.replace('"feedback"', '"__proto__"') },
    { label: "prototype method", body: VALID_CALL.replace('"tools/call"', '"__proto__"') },
    { label: "invalid arguments", body: VALID_CALL.replace('"rating":4', '"rating":9') },
    { label: "extra member in arguments", body: VALID_CALL.replace('"topic":"other"', '"topic":"other","admin":true') },
    {
      label: "envelope with unsupported version",
      body: VALID_CALL.replace(
        '"name":"feedback",',
        '"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}},"name":"feedback",',
      ),
    },
    {
      label: "envelope without capabilities",
      body: VALID_CALL.replace(
        '"name":"feedback",',
        '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"feedback",',
      ),
    },
    { label: "response object", body: '{"jsonrpc":"2.0","id":7,"result":{}}' },
    { label: "error object with bad code", body: '{"jsonrpc":"2.0","id":7,"error":{"code":"x","message":1}}' },
    { label: "initialize without params", body: '{"jsonrpc":"2.0","id":1,"method":"initialize"}' },
    {
      label: "initialize with bad clientInfo",
      body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":"x"}}',
    },
    {
      label: "tools/list with a cursor",
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"abc"}}',
    },
    {
      label: "invalid UTF-8 in a string",
      body: new Uint8Array([...new TextEncoder().encode(VALID_CALL.slice(0, -4)), 0xff, 0x22, 0x7d, 0x7d, 0x7d]),
    },
  );
  return cases;
}

/** The fields an MCP client sends with a POST: JSON, both answers accepted, the given revision. */
export function mcpFields(revision = "2025-11-25"): Record<string, string> {
  return {
    host: "127.0.0.1",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": revision,
  };
}

/**
 * POSTs the message `text` to `/mcp` of `app` (a Hono app: its `request`), with
 * {@link mcpFields} of `revision` and `fields` over them. Resolves with the answer.
 */
export function postMcp(
  app: { request(path: string, init: RequestInit): Response | Promise<Response> },
  text: string,
  fields: Record<string, string> = {},
  revision?: string,
): Promise<Response> {
  return Promise.resolve(
    app.request("/mcp", { method: "POST", body: text, headers: { ...mcpFields(revision), ...fields } }),
  );
}
