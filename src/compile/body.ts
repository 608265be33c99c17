/**
 * A function body under construction: indented lines and fresh local names.
 *
 * @module
 */
import { type Code, id } from "./safe-format.ts";

/** Lines of one generated function. */
export class Body {
  readonly #lines: string[] = [];
  #depth = 1;
  #counter = 0;

  /**
   * A fresh local identifier, unique in this function (`d1`, `i2`, …): `b` names a labelled
   * block, `r` a recorded result (src/compile/evaluated.ts).
   */
  local(prefix: "b" | "d" | "i" | "k" | "n" | "r"): Code {
    this.#counter += 1;
    return id(`${prefix}${this.#counter}`);
  }

  /** Appends one statement. */
  line(code: Code): void {
    this.#lines.push("  ".repeat(this.#depth) + code.toString());
  }

  /** Appends a line ending in `{` and indents what follows. */
  open(code: Code): void {
    this.line(code);
    this.#depth += 1;
  }

  /** Closes the innermost block opened with {@link open}. */
  close(): void {
    this.#depth -= 1;
    this.#lines.push(`${"  ".repeat(this.#depth)}}`);
  }

  /** Closes a block and opens its `else` branch. */
  otherwise(): void {
    this.#depth -= 1;
    this.#lines.push(`${"  ".repeat(this.#depth)}} else {`);
    this.#depth += 1;
  }

  /** The body text (without the enclosing braces). */
  text(): string {
    return this.#lines.join("\n");
  }
}
