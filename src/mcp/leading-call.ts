/**
 * The call a JSON-RPC message makes, read from its first bytes before the rest has arrived: the
 * MCP door's way to read a 2025-era `tools/call` (which names its tool only inside the body)
 * under its tool's bound rather than the largest tool's (issue 31).
 *
 * @module
 */

/** What the first bytes of a message say of its `method` and `params.name`, as far as they go. */
export interface LeadingCall {
  /** `method`, when the bytes hold it whole, as a string without escapes; else `undefined`. */
  readonly method: string | undefined;
  /**
   * `params.name`, when the bytes hold it whole, as a string without escapes, before
   * `params.arguments` begins; else `undefined`.
   */
  readonly name: string | undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The member names the reading looks for. */
type Name = "method" | "params" | "name" | "arguments";
const NAMES: readonly (readonly [Name, Uint8Array])[] = (["method", "params", "name", "arguments"] as const).map(
  (name) => [name, new TextEncoder().encode(name)] as const,
);

/** Decodes a name's bytes; a byte sequence that is not UTF-8 is no name (the parser refuses it later). */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Reads `method` and `params.name` from the first bytes of a JSON-RPC message (JSON-RPC 2.0 §4;
 * MCP `tools/call`), without building any value: the members before them are skipped byte by
 * byte, and reading stops at `params.arguments`, at the end of `head`, at anything it cannot read
 * plainly (an escape in a name or in those two strings) and once both are known.
 *
 * What it returns is true of every message whose bytes begin with `head` and which the strict
 * parser accepts: it refuses duplicate names at any depth, so the first `method` and the first
 * `name` of `params` are the only ones. Of bytes the parser would refuse, it may say anything;
 * such a message is refused either way.
 *
 * @param head - the message's first bytes (the whole message or a prefix of it).
 * @returns the method and tool named, each `undefined` when the bytes do not say.
 * @example
 * ```ts
 * leadingCall(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"feedback","argu'));
 * // → { method: "tools/call", name: "feedback" }
 * ```
 */
export function leadingCall(head: Uint8Array): LeadingCall {
  const scan = new Scan(head);
  let method: string | undefined;
  let name: string | undefined;
  const known = () => ({ method, name });
  if (scan.space() !== OPEN_OBJECT) return known();
  scan.at++;
  for (let first = true; ; first = false) {
    const next = scan.space();
    if (next === CLOSE_OBJECT && first) return known();
    if (!first) {
      if (next !== COMMA) return known();
      scan.at++;
    }
    const key = scan.member();
    if (key === undefined) return known();
    if (key === "method") {
      method = scan.plainString();
      // A method spelled with escapes stays unknown; the name may still be read.
      if (method === undefined ? !scan.skipValue() : method !== "tools/call" || name !== undefined) return known();
    } else if (key === "params" && scan.space() === OPEN_OBJECT) {
      scan.at++;
      for (let inner = true; ; inner = false) {
        const byte = scan.space();
        if (byte === CLOSE_OBJECT) break;
        if (!inner) {
          if (byte !== COMMA) return known();
          scan.at++;
        }
        const field = scan.member();
        // The arguments are what the bound is for: never read here.
        if (field === undefined || field === "arguments") return known();
        if (field === "name") {
          name = scan.plainString();
          if (name === undefined || method !== undefined) return known();
        } else if (!scan.skipValue()) return known();
      }
      scan.at++;
    } else if (!scan.skipValue()) return known();
  }
}

/** A cursor over the leading bytes; every read returns `undefined` (or `false`) where they end. */
class Scan {
  at = 0;
  private readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  /** Skips JSON whitespace (RFC 8259 §2); the byte there, or -1 at the end. */
  space(): number {
    const { bytes } = this;
    while (this.at < bytes.length) {
      const byte = bytes[this.at]!;
      if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return byte;
      this.at++;
    }
    return -1;
  }

  /**
   * A member's name and its `:`, the cursor then at its value: one of {@link NAMES}, or `""` for
   * any other name (compared as bytes, never decoded: a head of a thousand members costs no
   * decoding); `undefined` when the quote that seems to end it may be escaped, or the bytes end.
   * A name spelled with escapes reads as another name: its member is skipped, so what is
   * returned stays true (an escaped `method`, `params` or `name` is missed, an escaped
   * `arguments` skipped, bounded by the head).
   */
  member(): Name | "" | undefined {
    const { bytes } = this;
    if (this.space() !== QUOTE) return undefined;
    const start = this.at + 1;
    const end = bytes.indexOf(QUOTE, start);
    if (end < 0) return undefined;
    if (bytes[end - 1] === BACKSLASH) return undefined;
    let key: Name | "" = "";
    for (const [name, spelled] of NAMES) {
      if (end - start === spelled.length && sameBytes(bytes, start, spelled)) key = name;
    }
    this.at = end + 1;
    if (this.space() !== COLON) return undefined;
    this.at++;
    return key;
  }

  /** A string value without escapes, decoded; `undefined` for anything else, or when cut. */
  plainString(): string | undefined {
    const { bytes } = this;
    if (this.space() !== QUOTE) return undefined;
    const start = this.at + 1;
    const end = bytes.indexOf(QUOTE, start);
    if (end < 0) return undefined;
    const raw = bytes.subarray(start, end);
    if (raw.includes(BACKSLASH)) return undefined;
    this.at = end + 1;
    try {
      return utf8.decode(raw);
    } catch {
      return undefined;
    }
  }

  /** Skips one value (any JSON); `false` when the bytes end inside it or it is not one. */
  skipValue(): boolean {
    const { bytes } = this;
    let depth = 0;
    for (;;) {
      const byte = this.space();
      if (byte < 0) return false;
      if (byte === QUOTE) {
        if (!this.skipString()) return false;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        depth++;
        this.at++;
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        if (depth === 0) return false;
        depth--;
        this.at++;
      } else if (byte === COMMA || byte === COLON) {
        if (depth === 0) return false;
        this.at++;
      } else {
        // A number or a literal: up to the next delimiter, which must be within the bytes.
        while (this.at < bytes.length && !delimits(bytes[this.at]!)) this.at++;
        if (this.at === bytes.length) return false;
      }
      if (depth === 0) return true;
    }
  }

  /** Skips a string, escapes included; `false` when the bytes end inside it. */
  private skipString(): boolean {
    const { bytes } = this;
    for (let i = this.at + 1; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) {
        this.at = i + 1;
        return true;
      }
    }
    return false;
  }
}

/** Whether `bytes` holds `spelled` from `start` on. */
function sameBytes(bytes: Uint8Array, start: number, spelled: Uint8Array): boolean {
  for (let k = 0; k < spelled.length; k++) if (bytes[start + k] !== spelled[k]) return false;
  return true;
}

/** Whether `byte` ends a number or a literal: whitespace or a structural character. */
function delimits(byte: number): boolean {
  return (
    byte === COMMA ||
    byte === CLOSE_OBJECT ||
    byte === CLOSE_ARRAY ||
    byte === COLON ||
    byte === 0x20 ||
    byte === 0x0a ||
    byte === 0x0d ||
    byte === 0x09 ||
    byte === QUOTE ||
    byte === OPEN_OBJECT ||
    byte === OPEN_ARRAY
  );
}
