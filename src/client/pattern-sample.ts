/**
 * Strings that a `pattern` matches, written from the regular expression itself: the shortest
 * first, then longer ones (each repetition taken once more), so that a `minLength` beside the
 * pattern can be met. Covers what forms use (literals, classes, `.`, `\d \w \s`, the common
 * `\p{…}` classes, groups, alternation, quantifiers, anchors); a pattern with a look-around or a
 * back-reference gets no sample. Every sample is tested with the pattern before it is returned.
 *
 * @see JSON Schema 2020-12 Validation §6.3.3 (ECMA-262 dialect, `u` flag)
 * @module
 */

type Node =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "alt"; readonly branches: readonly Node[][] }
  | { readonly kind: "repeat"; readonly node: Node; readonly min: number; readonly max: number };

/** Characters tried, in order, for a class: the first one it admits is written. */
const PREFERRED = ["a", "A", "0", "b", "-", "_", ".", " ", "é"];
const ESCAPE_CLASS: Readonly<Record<string, string>> = { d: "0", w: "a", s: " ", D: "a", W: "-", S: "a" };
const PROPERTY_CLASS: Readonly<Record<string, string>> = {
  L: "a",
  Letter: "a",
  Lu: "A",
  Uppercase_Letter: "A",
  Ll: "a",
  Lowercase_Letter: "a",
  N: "0",
  Nd: "0",
  Number: "0",
};
const CONTROL: Readonly<Record<string, string>> = { n: "\n", r: "\r", t: "\t", f: "\f", v: "\v", 0: "\0" };

class Unsupported extends Error {}

/** A recursive-descent reader of the pattern's code points. */
class Reader {
  private at = 0;
  private readonly chars: string[];
  constructor(pattern: string) {
    this.chars = [...pattern];
  }
  private peek(): string | undefined {
    return this.chars[this.at];
  }
  private next(): string {
    const c = this.chars[this.at++];
    if (c === undefined) throw new Unsupported("unexpected end");
    return c;
  }
  done(): boolean {
    return this.at >= this.chars.length;
  }
  /** alternation := sequence ("|" sequence)* */
  alternation(): Node {
    const branches: Node[][] = [this.sequence()];
    while (this.peek() === "|") {
      this.at++;
      branches.push(this.sequence());
    }
    return { kind: "alt", branches };
  }
  private sequence(): Node[] {
    const nodes: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== "|" && c !== ")"; c = this.peek()) {
      nodes.push(this.quantified(this.atom()));
    }
    return nodes;
  }
  private atom(): Node {
    const c = this.next();
    if (c === "^" || c === "$") return { kind: "text", text: "" };
    if (c === ".") return { kind: "text", text: "a" };
    if (c === "[") return { kind: "text", text: this.characterClass() };
    if (c === "\\") return { kind: "text", text: this.escape() };
    if (c === "(") {
      if (this.peek() === "?") {
        this.at++;
        const kind = this.next();
        if (kind === "<" && this.peek() !== "=" && this.peek() !== "!") {
          while (this.next() !== ">");
        } else if (kind !== ":") throw new Unsupported("look-around");
      }
      const inner = this.alternation();
      if (this.next() !== ")") throw new Unsupported("unclosed group");
      return inner;
    }
    return { kind: "text", text: c };
  }
  private quantified(node: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === "*" || c === "+" || c === "?") {
      this.at++;
      [min, max] = c === "*" ? [0, Infinity] : c === "+" ? [1, Infinity] : [0, 1];
    } else if (c === "{" && /^\{\d+(,\d*)?\}/.test(this.chars.slice(this.at, this.at + 24).join(""))) {
      let body = "";
      for (this.at++; this.peek() !== "}"; ) body += this.next();
      this.at++;
      const [low, high] = body.split(",");
      min = Number(low);
      max = high === undefined ? min : high === "" ? Infinity : Number(high);
    } else return node;
    if (this.peek() === "?") this.at++; // lazy: the same strings
    return { kind: "repeat", node, min, max };
  }
  private escape(): string {
    const c = this.next();
    if (c in ESCAPE_CLASS) return ESCAPE_CLASS[c]!;
    if (c in CONTROL) return CONTROL[c]!;
    if (c === "p" && this.peek() === "{") {
      let name = "";
      for (this.at++; this.peek() !== "}"; ) name += this.next();
      this.at++;
      const sample = PROPERTY_CLASS[name.replace(/^(General_Category|gc)=/, "")];
      if (sample === undefined) throw new Unsupported(`\\p{${name}}`);
      return sample;
    }
    if (c === "u" || c === "x") {
      let hex = "";
      if (this.peek() === "{") {
        for (this.at++; this.peek() !== "}"; ) hex += this.next();
        this.at++;
      } else for (let i = 0; i < (c === "u" ? 4 : 2); i++) hex += this.next();
      return String.fromCodePoint(Number.parseInt(hex, 16));
    }
    if (/[1-9bBkPc]/.test(c)) throw new Unsupported(`\\${c}`);
    return c;
  }
  /** The first preferred character the class admits, tested with the class itself. */
  private characterClass(): string {
    let source = "[";
    for (let c = this.next(); c !== "]"; c = this.next()) {
      source += c;
      if (c === "\\") source += this.next();
    }
    const test = new RegExp(`^${source}]$`, "u");
    const first = /^\[\^?(\\.|[^\\])/u.exec(source)?.[1];
    const tried = first === undefined || first.startsWith("\\") ? PREFERRED : [...PREFERRED, first];
    const found = tried.find((char) => test.test(char));
    if (found === undefined) throw new Unsupported("class");
    return found;
  }
}

/** The longest sample written, in UTF-16 code units: nested repetitions grow fast. */
const MAX_TEXT = 1 << 16;

/** The text of `node`, each repetition taken `extra` more times than its least (within its most). */
function write(node: Node, extra: number, branch: number): string {
  switch (node.kind) {
    case "text":
      return node.text;
    case "alt":
      return (node.branches[Math.min(branch, node.branches.length - 1)] ?? [])
        .map((child) => write(child, extra, 0))
        .join("");
    case "repeat": {
      const text = write(node.node, extra, 0);
      const count = Math.min(node.min + extra, node.max);
      if (text.length * count > MAX_TEXT) throw new Unsupported("too long");
      return text.repeat(count);
    }
  }
}

/**
 * Up to `limit` strings the pattern matches, shortest first, each `minLength` code points
 * or more (a short match padded at either end, which an unanchored pattern still matches).
 *
 * @param pattern - the `pattern` keyword's value (ECMA-262, `u` flag).
 * @returns no string when the pattern uses what this reader does not write.
 * @example
 * ```ts
 * patternSamples("^https://[A-Za-z0-9.-]+$", 0); // ["https://a", "https://aa", …]
 * ```
 */
export function patternSamples(pattern: string, minLength: number, limit = 4): string[] {
  let tree: Node;
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, "u");
    const reader = new Reader(pattern);
    tree = reader.alternation();
    if (!reader.done()) return [];
  } catch {
    return [];
  }
  const branches = tree.kind === "alt" ? tree.branches.length : 1;
  const out: string[] = [];
  try {
    for (let extra = 0; extra <= minLength + 2 && out.length < limit; extra++) {
      for (let branch = 0; branch < branches && out.length < limit; branch++) {
        const text = write(tree, extra, branch);
        const short = minLength - [...text].length;
        // An unanchored pattern matches inside a longer string: pad a short match at either end.
        const texts = short <= 0 ? [text] : [text + "a".repeat(short), "a".repeat(short) + text];
        for (const padded of texts) {
          if (out.length < limit && regex.test(padded) && !out.includes(padded)) out.push(padded);
        }
      }
    }
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
  }
  return out;
}
